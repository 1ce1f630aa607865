// Loops (findings-contract.md): at least `loopMinCount` consecutive recreations of one
// broker, each initiated by the operator, none more than `loopMaxGapSeconds` after the
// previous one. A deletion by anyone else ends the run.
import type { Classification, DeletedPod, FieldChange, Loop, Recreation } from '../model/findings';
import { analysisOf, firstStoppingRange } from '../operators/analysis-registry';
import type { AnalysisOptions } from './options';
import { sortByKey } from './sort-by-key';
import { compareTimes, epochMicros, secondsBetween } from './time';

/** What a loop is found on: the recreation less its pods' details and its fields' values. */
export type LoopInput = Pick<
  Recreation,
  'namespace' | 'operator' | 'kafkaCluster' | 'brokerId' | 'classification' | 'wouldRestartByVersion'
> & {
  deletedPod: Pick<DeletedPod, 'deletedAt' | 'deletedBy'>;
  fields: ReadonlyArray<Pick<FieldChange, 'path' | 'by' | 'via'>>;
};

export function findLoops(
  recreations: readonly LoopInput[],
  operatorUsers: Set<string>,
  newestAt: string,
  opts: AnalysisOptions,
): Loop[] {
  const byBroker = new Map<string, LoopInput[]>();
  for (const r of recreations) {
    const k = `${r.namespace}\u0000${r.kafkaCluster}\u0000${r.brokerId}\u0000${r.operator ?? ''}`;
    const list = byBroker.get(k) ?? [];
    list.push(r);
    byBroker.set(k, list);
  }
  const loops: Loop[] = [];
  for (const list of byBroker.values()) {
    sortByKey(list, (r) => epochMicros(r.deletedPod.deletedAt));
    let run: LoopInput[] = [];
    const flush = () => {
      if (run.length >= opts.loopMinCount) loops.push(toLoop(run, newestAt));
      run = [];
    };
    for (const r of list) {
      const byOperator = r.deletedPod.deletedBy !== null && operatorUsers.has(r.deletedPod.deletedBy);
      if (!byOperator) {
        flush();
        continue;
      }
      const prev = run[run.length - 1];
      if (prev && secondsBetween(prev.deletedPod.deletedAt, r.deletedPod.deletedAt) > opts.loopMaxGapSeconds)
        flush();
      run.push(r);
    }
    flush();
  }
  return loops.sort((a, b) => compareTimes(a.firstAt, b.firstAt));
}

function toLoop(run: LoopInput[], newestAt: string): Loop {
  const first = run[0];
  const last = run[run.length - 1];
  const gaps: number[] = [];
  for (let i = 1; i < run.length; i++) {
    gaps.push(secondsBetween(run[i - 1].deletedPod.deletedAt, run[i].deletedPod.deletedAt));
  }
  const period = Math.round(median(gaps) * 10) / 10;
  const classification = mostCommon(run.map((r) => r.classification));
  const fields: string[] = [];
  const mutators: string[] = [];
  const written: Array<Pick<FieldChange, 'path' | 'by' | 'via'>> = [];
  for (const r of run) {
    if (r.classification !== classification) continue;
    for (const f of r.fields) {
      if (!fields.includes(f.path)) fields.push(f.path);
      if (f.by && !mutators.includes(f.by)) mutators.push(f.by);
      if (!written.some((w) => w.path === f.path && w.by === f.by && w.via === f.via)) written.push(f);
    }
  }
  const active = secondsBetween(last.deletedPod.deletedAt, newestAt) <= 2 * Math.max(period, 1);
  const analysis = analysisOf(first.operator);
  const answers = run.flatMap((r) => (r.wouldRestartByVersion ? [r.wouldRestartByVersion] : []));
  const stopped = first.operator && answers.length > 0 ? firstStoppingRange(analysis, answers) : undefined;
  let recommendation = analysis.loopRecommendation(classification, written);
  if (stopped !== undefined)
    recommendation +=
      stopped === null
        ? ' No version of the operator keeps these pods: the difference is not one its steps tolerate.'
        : ` The operator's versions ${stopped} keep these pods (wouldRestart false for every recreation).`;
  return {
    namespace: first.namespace,
    ...(first.operator ? { operator: first.operator } : {}),
    kafkaCluster: first.kafkaCluster,
    brokerId: first.brokerId,
    classification,
    count: run.length,
    firstAt: first.deletedPod.deletedAt,
    lastAt: last.deletedPod.deletedAt,
    periodSeconds: period,
    fields,
    mutators,
    active,
    recommendation,
    ...(stopped !== undefined ? { stoppedByVersion: stopped } : {}),
  };
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function mostCommon(xs: Classification[]): Classification {
  const counts = new Map<Classification, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  let best = xs[0];
  for (const [k, v] of counts) if (v > (counts.get(best) ?? 0)) best = k;
  return best;
}
