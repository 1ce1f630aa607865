// koperator's identity as an operator profile (lib/operators/profile.ts): its KafkaCluster CR,
// how it names and labels broker pods (naming.ts), its per-broker ConfigMap and the log lines
// the analysis reads (log-messages.ts). Light on purpose: the ingest bundles it.
import type { LogRole, OperatorIdentity } from '../operators/profile';
import { KEPT_LOG_KEYS, koperatorLogContext } from './log-context';
import { MSG } from './log-messages';
import {
  brokerConfigMapName,
  brokerOfPod,
  brokerOfPodName,
  kafkaClusterOwner,
  mayBeKoperatorPod,
  unitOfBroker,
} from './naming';

const MESSAGES: Readonly<Record<LogRole, readonly string[]>> = {
  resourceDiffs: [MSG.resourceDiffs],
  unitPodDeleted: [MSG.brokerPodDeleted],
  taintedDeleting: [MSG.taintedDeleting, MSG.taintedDeletingOld],
  terminatedContainer: [MSG.terminatedContainer],
  specChanged: [MSG.specChanged],
  resourceUpdated: [MSG.resourceUpdated],
  resourceCreated: [MSG.resourceCreated],
  orderOnlyInSync: [],
};

const ROLE_OF_MESSAGE: ReadonlyMap<string, LogRole> = new Map(
  (Object.entries(MESSAGES) as Array<[LogRole, readonly string[]]>).flatMap(([role, msgs]) =>
    msgs.map((m) => [m, role] as [string, LogRole]),
  ),
);

export const KOPERATOR: OperatorIdentity = {
  id: 'koperator',
  findingKeys: { cluster: 'kafkaCluster', unit: 'brokerId' },
  cr: {
    group: 'kafka.banzaicloud.io',
    kind: 'KafkaCluster',
    resource: 'kafkaclusters',
    textPiece: 'fkaclus',
  },
  ownResources: ['kafkaclusters', 'kafkatopics', 'kafkausers', 'cruisecontroloperations'],
  ownResourceFolds: ['kafka*'],
  unitConfig: {
    resource: 'configmaps',
    namePattern: /-config-\d+$/,
    nameOf: brokerConfigMapName,
  },
  pods: {
    unitOfPod: (pod) => unitOfBroker(brokerOfPod(pod)),
    unitOfPodName: (name) => unitOfBroker(brokerOfPodName(name)),
    crOwner: kafkaClusterOwner,
    mayBeOperatorPod: mayBeKoperatorPod,
    // app=kafka, kafka_cr, brokerId, an owner of kind KafkaCluster: `kafka`/`Kafka` or `brokerId`.
    markerTexts: ['afka', 'brokerId'],
  },
  logs: {
    roleOf: (msg) => ROLE_OF_MESSAGE.get(msg) ?? null,
    messages: MESSAGES,
    context: koperatorLogContext,
    keptKeys: KEPT_LOG_KEYS,
    // ghcr.io/banzaicloud/kafka-operator (its chart's default image), ghcr.io/adobe/kafka-operator
    // and the adobe/koperator builds.
    imagePieces: ['kafka-operator', 'koperator'],
  },
};
