// Plain-words advice for a loop, naming the actors and fields behind it, and for each writer how
// it changed the pod and that writer's own remedy: a webhook is excluded from the pods, an
// autoscaler is told by its own setting, a person or controller is asked to stop.
import { knownAutoscaler } from '../k8s/autoscalers';
import { isAutoscalerUser } from '../k8s/writers';
import type { Classification, WriteVia } from '../model/findings';
import type { WrittenField } from '../operators/profile';

export const FIXED_OPERATOR_VERSION = '0.30.0-rc1';

export type { WrittenField };

export function loopRecommendation(classification: Classification, written: readonly WrittenField[]): string {
  const paths = [...new Set(written.map((f) => f.path))];
  const what = paths.length ? paths.join(', ') : 'no pod-spec field';
  const mutators = [...new Set(written.flatMap((f) => (f.by ? [f.by] : [])))];
  const who = mutators.length ? mutators.join(', ') : 'an unidentified actor';
  switch (classification) {
    case 'external-mutation-revert':
      return revertAdvice(written);
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

/** One writer and the fields it wrote the same way. */
interface Writer {
  by: string | null;
  via: WriteVia | undefined;
  paths: string[];
}

function writersOf(written: readonly WrittenField[]): Writer[] {
  const out: Writer[] = [];
  for (const f of written) {
    const w = out.find((x) => x.by === f.by && x.via === f.via);
    if (!w) out.push({ by: f.by, via: f.via, paths: [f.path] });
    else if (!w.paths.includes(f.path)) w.paths.push(f.path);
  }
  // A field no writer is known for is said once, after those whose writers are.
  return [...out.filter((w) => w.by !== null), ...out.filter((w) => w.by === null)];
}

function revertAdvice(written: readonly WrittenField[]): string {
  const writers = writersOf(written);
  if (writers.length === 0) writers.push({ by: null, via: undefined, paths: [] });
  const doings = writers.map(doing);
  const remedies = [...new Set(writers.map(remedy))];
  // Declaring a value only ends the loop where the writer keeps writing the same one: not an
  // autoscaler's, whose recommendation moves.
  if (writers.some((w) => !isAutoscaler(w)))
    remedies.push('declare the same values in the KafkaCluster, so koperator wants what the pod has');
  remedies.push(`move to the intent-aware operator (${FIXED_OPERATOR_VERSION} or later)`);
  // Writers' names start the sentence as they are written: a webhook's name is not capitalised.
  return (
    `${doings.join('; ')}; koperator before ${FIXED_OPERATOR_VERSION} compares the live pod ` +
    `and reverts it by re-creating the broker${loopsOn(writers)}. ` +
    `${capitalise(orList(remedies))}.`
  );
}

function isAutoscaler(w: Writer): boolean {
  return w.by !== null && (w.via === 'resize' || knownAutoscaler(w.by) !== null || isAutoscalerUser(w.by));
}

/** What the writer does, as a clause. */
function doing(w: Writer): string {
  const fields = w.paths.length ? w.paths.join(', ') : 'a field koperator declares';
  if (w.by === null) return `no record shows who changes ${fields}`;
  switch (w.via) {
    case 'admission':
      return `${w.by} rewrites ${fields} at admission, at every pod create`;
    case 'resize':
      return `${w.by} resizes ${fields} in place (a write to the pod's resize subresource), and resizes each new broker pod again`;
    case 'write':
      return `${w.by} changes ${fields} on the running pod (a patch or update of the pod)`;
    default:
      return `${w.by} changes ${fields}`;
  }
}

/** Why the revert comes back, where the writer's own way makes it a loop. */
function loopsOn(writers: readonly Writer[]): string {
  if (writers.some((w) => w.via === 'admission')) return ', whose successor the webhook rewrites again';
  if (writers.some((w) => w.via === 'resize')) return ', whose successor the autoscaler resizes again';
  return '';
}

/** The writer's own remedy, as an imperative clause. */
function remedy(w: Writer): string {
  if (w.by === null)
    return 'find who writes these fields in the audit log (logged at RequestResponse level, a write to a pod names its writer)';
  const known = knownAutoscaler(w.by);
  if (known) {
    const caveat = w.via === 'admission' || w.via === 'resize' ? known.caveat?.[w.via] : undefined;
    return `${known.offSwitch}${caveat ? ` (${caveat})` : ''}`;
  }
  if (w.via === 'resize' || isAutoscalerUser(w.by))
    return `turn off the in-place resizing of these pods in that autoscaler's own settings (${w.by})`;
  const exclusion = `exclude the Kafka namespace or these pods from ${w.by} (its namespaceSelector or objectSelector)`;
  // A webhook that sets only resources is most likely an autoscaler's, whose own settings put
  // its webhook configuration back.
  if (w.via === 'admission' && w.paths.length > 0 && w.paths.every((p) => RESOURCES.test(p)))
    return `turn off its rewriting of these pods in that autoscaler's own settings if ${w.by} is one's, else ${exclusion}`;
  if (w.via === 'admission') return exclusion;
  return `stop ${w.by} writing these fields of broker pods`;
}

const RESOURCES = /\.resources\.(requests|limits)(\.|$)/;

function orList(xs: readonly string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join('; or ')}; or ${xs[xs.length - 1]}`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
