// The findings contract's matching rules (shared/spec/findings-contract.md, "Matching
// rules used by the checks"), so a test can say exactly which finding is wrong.
import type { FindingsDocument, Loop, Recreation } from '../../lib/model/findings';

export interface ExpectedDocument {
  recreations: Array<Pick<Recreation, 'deletedPod' | 'classification' | 'fields'>>;
  loops: Array<Pick<Loop, 'namespace' | 'kafkaCluster' | 'brokerId' | 'count' | 'classification'>>;
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
  const key = (l: { namespace: string; kafkaCluster: string; brokerId: string }) =>
    `${l.namespace}/${l.kafkaCluster}/${l.brokerId}`;
  const loops = new Map(actual.loops.map((l) => [key(l), l]));
  for (const e of expected.loops) {
    const a = loops.get(key(e));
    loops.delete(key(e));
    if (!a) mistakes.push(`missing loop ${key(e)}`);
    else if (a.count !== e.count || a.classification !== e.classification) {
      mistakes.push(
        `loop ${key(e)}: count ${a.count}/${e.count} class ${a.classification}/${e.classification}`,
      );
    }
  }
  for (const k of loops.keys()) mistakes.push(`extra loop ${k}`);
  return mistakes;
}
