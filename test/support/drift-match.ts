// drift.md's matching rules ("Matching rules used by the checks"), as score_drift.py applies
// them: the mistakes of reported drifts against a truth, none when they match.
import type { Drift } from '../../lib/model/findings';

export function driftMistakes(expected: Drift[], actual: Drift[]): string[] {
  const used = new Set<number>();
  const mistakes: string[] = [];
  for (const e of expected) {
    const name = `${e.pod.name}@${e.at}`;
    const i = actual.findIndex(
      (a, k) =>
        !used.has(k) &&
        a.at === e.at &&
        (e.pod.uid ? a.pod.uid === e.pod.uid : a.pod.name === e.pod.name && a.namespace === e.namespace),
    );
    if (i < 0) {
      mistakes.push(`missing drift ${name} (${e.kind}, ${e.severity})`);
      continue;
    }
    used.add(i);
    const a = actual[i];
    for (const k of ['kind', 'severity', 'by'] as const)
      if (a[k] !== e[k]) mistakes.push(`${name}: ${k} ${a[k]} != ${e[k]}`);
    const paths = new Set(a.fields.map((f) => f.path));
    for (const f of e.fields) if (!paths.has(f.path)) mistakes.push(`${name}: missing field ${f.path}`);
    if ((a.ended?.how ?? null) !== (e.ended?.how ?? null))
      mistakes.push(`${name}: ended ${a.ended?.how ?? null} != ${e.ended?.how ?? null}`);
  }
  actual.forEach((a, k) => {
    if (!used.has(k)) mistakes.push(`extra drift ${a.pod.name}@${a.at} (${a.kind})`);
  });
  return mistakes;
}
