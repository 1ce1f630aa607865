// NiFiKop's identity as an operator profile (lib/operators/profile.ts): its NifiCluster CR, how
// it names and labels node pods (naming.ts), its per-node Secret and the log lines the analysis
// reads (log-context.ts). Light on purpose: the ingest bundles it.
import type { OperatorIdentity } from '../operators/profile';
import { NIFIKOP_KEPT_KEYS, NIFIKOP_MESSAGES, nifikopLogContext, nifikopRoleOf } from './log-context';
import { mayBeNifikopPod, nifiClusterOwner, nodeConfigSecretName, nodeOfPod, nodeOfPodName } from './naming';
import { nifikopImageVersion } from './versions';

export const NIFIKOP: OperatorIdentity = {
  id: 'nifikop',
  findingKeys: { cluster: 'nifiCluster', unit: 'nodeId' },
  cr: {
    group: 'nifi.konpyutaika.com',
    kind: 'NifiCluster',
    resource: 'nificlusters',
    textPiece: 'ificlus',
    // Its status holds each node's ConfigurationState, which decides a config restart.
    keepStatus: true,
  },
  ownResources: [
    'nificlusters',
    'nifiusers',
    'nifiusergroups',
    'nifidataflows',
    'nifiparametercontexts',
    'nifiregistryclients',
    'nificonnections',
    'nifinodegroupautoscalers',
  ],
  ownResourceFolds: ['nifi*'],
  unitConfig: {
    resource: 'secrets',
    namePattern: /-config-\d+$/,
    nameOf: nodeConfigSecretName,
  },
  pods: {
    unitOfPod: nodeOfPod,
    unitOfPodName: nodeOfPodName,
    crOwner: nifiClusterOwner,
    mayBeOperatorPod: mayBeNifikopPod,
    // app=nifi, nifi_cr, an owner of kind NifiCluster: `nifi`/`Nifi`. A name is read from the
    // objectRef (unitOfPodName), as koperator's is; `-node` would also match every EKS node
    // role's ARN in the user's extra, and parse every kubelet write for nothing.
    markerTexts: ['nifi', 'Nifi'],
  },
  versionOfImage: nifikopImageVersion,
  logs: {
    roleOf: nifikopRoleOf,
    messages: NIFIKOP_MESSAGES,
    context: nifikopLogContext,
    keptKeys: NIFIKOP_KEPT_KEYS,
    // ghcr.io/konpyutaika/docker-images/nifikop (its chart's image).
    imagePieces: ['nifikop'],
  },
};
