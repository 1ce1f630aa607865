// The whole-timeline build the analysis did before it went broker by broker: every fact as
// an object, one stage per request, sorted, the operator learned from all pods at once.
// Kept as the oracle lib/analyze/partition.ts is checked against.
import type {
  ConfigMapWriteFact,
  Fact,
  KafkaClusterWriteFact,
  OperatorFact,
  PodWriteFact,
} from '../../lib/model/facts';
import { kafkaClusterOwner } from '../../lib/koperator/naming';
import { sortWithKeys } from '../../lib/analyze/sort-by-key';
import { epochMicros } from '../../lib/analyze/time';
import {
  assembleIncarnations,
  factTime,
  type ClusterFacts,
  type Incarnation,
} from '../../lib/analyze/timeline';

export interface WholeTimeline extends ClusterFacts {
  incarnations: Incarnation[];
  /** The newest time any fact carries: the end of the data. */
  newestAt: string;
}

const STAGE_RANK: Record<string, number> = {
  ResponseComplete: 3,
  Panic: 2,
  ResponseStarted: 1,
  RequestReceived: 0,
};

/** One fact per request: the most complete stage, the first seen of equals. */
function onePerRequest(facts: Fact[]): Fact[] {
  const best = new Map<string, Fact>();
  const out: Fact[] = [];
  for (const f of facts) {
    if (f.type === 'operator') {
      out.push(f);
      continue;
    }
    const prev = best.get(f.auditID);
    if (!prev || (STAGE_RANK[f.stage] ?? 0) > (STAGE_RANK[(prev as typeof f).stage] ?? 0))
      best.set(f.auditID, f);
  }
  return out.concat([...best.values()]);
}

const ok = (f: PodWriteFact) => f.code === null || (f.code >= 200 && f.code < 300);

export function buildTimeline(facts: Fact[]): WholeTimeline {
  const sorted = onePerRequest(facts);
  const times = new Float64Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) times[i] = epochMicros(factTime(sorted[i]));
  sortWithKeys(sorted, times);
  const pods: PodWriteFact[] = [];
  const kafkaClusterWrites: KafkaClusterWriteFact[] = [];
  const configMapWrites: ConfigMapWriteFact[] = [];
  const operatorLines: OperatorFact[] = [];
  let newestAt = '';
  let newest = NaN;
  for (let i = 0; i < sorted.length; i++) {
    const f = sorted[i];
    if (!newestAt || times[i] - newest > 0) {
      newestAt = factTime(f);
      newest = times[i];
    }
    if (f.type === 'pod') pods.push(f);
    else if (f.type === 'kafkacluster') kafkaClusterWrites.push(f);
    else if (f.type === 'configmap') configMapWrites.push(f);
    else if (f.type === 'operator') operatorLines.push(f);
  }
  // The operator is whoever creates pods owned by a KafkaCluster.
  const operatorUsers = new Set<string>();
  for (const f of pods) {
    if (f.verb !== 'create' || f.subresource !== null || !ok(f)) continue;
    if (kafkaClusterOwner(f.response) || kafkaClusterOwner(f.request)) operatorUsers.add(f.user);
  }
  const incarnations = assembleIncarnations(pods, operatorLines, operatorUsers, true);
  return { incarnations, kafkaClusterWrites, configMapWrites, operatorUsers, newestAt };
}
