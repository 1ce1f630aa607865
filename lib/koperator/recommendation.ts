// Plain-words advice for a loop, naming the actors and fields behind it.
import type { Classification } from '../model/findings';

export const FIXED_OPERATOR_VERSION = '0.30.0-rc1';

export function loopRecommendation(
  classification: Classification,
  fields: string[],
  mutators: string[],
): string {
  const what = fields.length ? fields.join(', ') : 'no pod-spec field';
  const who = mutators.length ? mutators.join(', ') : 'an unidentified actor';
  switch (classification) {
    case 'external-mutation-revert':
      return (
        `${who} rewrites ${what} at every pod create; koperator before ${FIXED_OPERATOR_VERSION} compares the live pod ` +
        `and reverts it by re-creating the broker. Exclude the Kafka namespace or these pods from that webhook or ` +
        `autoscaler, or declare the same values in the KafkaCluster, or move to the intent-aware operator ` +
        `(${FIXED_OPERATOR_VERSION} or later).`
      );
    case 'intent-change':
      return (
        `The KafkaCluster keeps changing (${what}, by ${who}); each change rolls the broker. ` +
        `Check for two controllers (GitOps and a human, or two pipelines) writing different values to the CR.`
      );
    case 'tainted-restart':
      return `The broker's labels keep matching spec.taintedBrokersSelector; find the actor setting that label and stop it, or change the selector.`;
    case 'container-terminated':
      return `The broker container keeps terminating (crash or OOM kill); read its logs and raise memory limits or fix the crash before koperator replaces it again.`;
    case 'config-change':
      return `The broker's configuration ConfigMap keeps changing; look for a controller fighting koperator over the broker configuration.`;
    case 'external-deletion':
      return `Someone other than koperator keeps deleting or evicting this broker; check drains, descheduler and autoscaler settings.`;
    default:
      return `The logs do not show why; enable RequestResponse audit logging for pods or run koperator with --verbose.`;
  }
}
