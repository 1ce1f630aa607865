// The findings contract's matching rules (shared/spec/findings-contract.md, "Matching
// rules used by the checks"), so a test can say exactly which finding is wrong.
import type { FindingsDocument, Loop, Recreation } from '../../lib/model/findings';

/** The member a finding names: koperator's keys, or another operator's (`nifiCluster`, `nodeId`). */
interface MemberKeys {
  namespace: string;
  operator?: string;
  kafkaCluster?: string;
  brokerId?: string;
  nifiCluster?: string;
  nodeId?: string;
}

export interface ExpectedDocument {
  recreations: Array<
    Pick<Recreation, 'deletedPod' | 'classification' | 'fields'> & {
      operator?: string;
      /** Another operator's answers by version range (NiFiKop), compared when given. */
      wouldRestart?: unknown;
    }
  >;
  loops: Array<MemberKeys & Pick<Loop, 'count' | 'classification'> & { stoppedByVersion?: string | null }>;
}

/** The truth's recreations and loops of every operator (a simulated cluster's NiFiKop beside koperator's). */
export function allOperators(truth: ExpectedDocument & { nifikop?: ExpectedDocument }): ExpectedDocument {
  return {
    recreations: [...truth.recreations, ...(truth.nifikop?.recreations ?? [])],
    loops: [...truth.loops, ...(truth.nifikop?.loops ?? [])],
  };
}

export function contractMistakes(expected: ExpectedDocument, actual: FindingsDocument): string[] {
  const mistakes: string[] = [];
  const used = new Set<Recreation>();
  const byUid = new Map(actual.recreations.filter((r) => r.deletedPod.uid).map((r) => [r.deletedPod.uid, r]));
  const byName = new Map<string, Recreation>();
  for (const r of actual.recreations) if (!byName.has(r.deletedPod.name)) byName.set(r.deletedPod.name, r);
  for (const e of expected.recreations) {
    const id = e.deletedPod.uid ?? e.deletedPod.name;
    const a = (e.deletedPod.uid ? byUid.get(e.deletedPod.uid) : undefined) ?? byName.get(e.deletedPod.name);
    if (!a) {
      mistakes.push(`missing recreation ${id} (${e.classification})`);
      continue;
    }
    used.add(a);
    if (a.classification !== e.classification)
      mistakes.push(`${id}: class ${a.classification} != ${e.classification}`);
    if ((a.operator ?? 'koperator') !== (e.operator ?? 'koperator'))
      mistakes.push(`${id}: operator ${a.operator ?? 'koperator'} != ${e.operator ?? 'koperator'}`);
    // Another operator's document `wouldRestart` is its answer for each version range.
    if (
      e.operator &&
      e.wouldRestart !== undefined &&
      JSON.stringify(a.wouldRestartByVersion ?? null) !== JSON.stringify(e.wouldRestart)
    )
      mistakes.push(
        `${id}: wouldRestart ${JSON.stringify(a.wouldRestartByVersion)} != ${JSON.stringify(e.wouldRestart)}`,
      );
    if (e.classification === 'external-mutation-revert' || e.classification === 'intent-change') {
      for (const f of e.fields) {
        const got = a.fields.find((x) => x.path === f.path);
        if (!got) mistakes.push(`${id}: missing field ${f.path}`);
        else if (f.by && !String(got.by ?? '').includes(f.by))
          mistakes.push(`${id}: ${f.path} by ${got.by} lacks ${f.by}`);
      }
    }
  }
  for (const r of actual.recreations)
    if (!used.has(r)) mistakes.push(`extra recreation ${r.deletedPod.uid ?? r.deletedPod.name}`);
  const key = (l: MemberKeys) =>
    `${l.operator ? `${l.operator}:` : ''}${l.namespace}/${l.kafkaCluster ?? l.nifiCluster}/${l.brokerId ?? l.nodeId}`;
  const loops = new Map(actual.loops.map((l) => [key(l), l]));
  for (const e of expected.loops) {
    const a = loops.get(key(e));
    loops.delete(key(e));
    if (!a) mistakes.push(`missing loop ${key(e)}`);
    else if (a.count !== e.count || a.classification !== e.classification) {
      mistakes.push(
        `loop ${key(e)}: count ${a.count}/${e.count} class ${a.classification}/${e.classification}`,
      );
    } else if (e.operator && e.stoppedByVersion !== undefined && a.stoppedByVersion !== e.stoppedByVersion)
      mistakes.push(`loop ${key(e)}: stopped by ${a.stoppedByVersion} != ${e.stoppedByVersion}`);
  }
  for (const k of loops.keys()) mistakes.push(`extra loop ${k}`);
  return mistakes;
}
