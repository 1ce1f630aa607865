// NiFiKop's decisions on the shared reference vectors (../shared/corpus/diff-vectors, decided by
// koperator's real Go code: apimachinery v0.36.3, objectmatcher v1.8.0). Before 1.12 NiFiKop runs
// the same toleration merge and the same Calculate with no options, so its decision and patch
// must be the vectors' three-way ones. From 1.12, on the vectors none of its steps touches (no
// live pod with more (init) containers, no istio.io/rev, zarf-agent or Linkerd marks), only the
// Calculate options differ, and they change no decision unless the desired pod declares a
// status (NiFiKop's never does; lib/nifikop/README.md): then IgnoreStatusFields hides it.
import { readFileSync } from 'fs';
import * as path from 'path';
import { getIn, isObject, sortKeysDeep } from '../../lib/k8s/json-value';
import { isLinkerdInjected, nifikopDecision } from '../../lib/nifikop/steps';
import { describeWithCorpus, SHARED_CORPUS } from '../support/shared-corpus';

const DIR = path.join(SHARED_CORPUS, 'diff-vectors');

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeysDeep(a)) === JSON.stringify(sortKeysDeep(b));
}

/** Integers beyond 2^53 or floats written as integers: JSON.parse cannot carry them (see test/koperator/diff-vectors.test.ts). */
function lossy(text: string): boolean {
  return /[:[,]\s*-?\d{16,}/.test(text) || /[:[,]\s*-?\d+\.0\b/.test(text);
}

interface Vector {
  id: string;
  original: unknown;
  modified: unknown;
  current: unknown;
  expect: { threeWayChanged: boolean; threeWayPatch: unknown };
}

function untouched(v: Vector): boolean {
  const count = (pod: unknown, f: string) => {
    const l = getIn(pod, ['spec', f]);
    return Array.isArray(l) ? l.length : 0;
  };
  const ann = getIn(v.current, ['metadata', 'annotations']);
  const labels = getIn(v.current, ['metadata', 'labels']);
  return (
    count(v.current, 'containers') <= count(v.modified, 'containers') &&
    count(v.current, 'initContainers') <= count(v.modified, 'initContainers') &&
    !(isObject(ann) && 'istio.io/rev' in ann) &&
    !(isObject(labels) && 'zarf-agent' in labels) &&
    !(isObject(v.current) && isLinkerdInjected(v.current))
  );
}

describeWithCorpus(DIR, 'NiFiKop on the diff vectors decided by the real Go code', () => {
  const lines = () =>
    readFileSync(path.join(DIR, 'vectors.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');

  it("before 1.12: the vectors' three-way decisions and patches", () => {
    const disagree: string[] = [];
    let checked = 0;
    for (const line of lines()) {
      if (lossy(line.slice(0, line.lastIndexOf('"expect"')))) continue;
      const v = JSON.parse(line) as Vector;
      const d = nifikopDecision('1.11.4', { lastApplied: v.original, desired: v.modified, live: v.current });
      checked++;
      if (d.changed !== v.expect.threeWayChanged || !same(d.error ? null : d.patch, v.expect.threeWayPatch))
        disagree.push(v.id);
    }
    expect(checked).toBeGreaterThan(1000);
    expect(disagree).toEqual([]);
  });

  it('from 1.12: the Calculate options change no decision where no step applies, but a declared status', () => {
    const differ: string[] = [];
    let checked = 0;
    for (const line of lines()) {
      if (lossy(line.slice(0, line.lastIndexOf('"expect"')))) continue;
      const v = JSON.parse(line) as Vector;
      if (!untouched(v)) continue;
      const pods = { lastApplied: v.original, desired: v.modified, live: v.current };
      const plain = nifikopDecision('1.11.4', pods);
      const opts = nifikopDecision('1.14.0', pods);
      checked++;
      if (plain.changed !== opts.changed) differ.push(`${v.id}: ${JSON.stringify(plain.patch)}`);
    }
    expect(checked).toBeGreaterThan(500);
    // Only the vectors whose desired pod declares a status (the live one's differs): a patch of
    // `status` alone, which IgnoreStatusFields removes from both sides.
    expect(differ).toEqual([
      'canon/edge/edge-raw-schema:status-in-modified: {"status":{"phase":"Pending"}}',
      'asgiven/edge/edge-raw-schema:status-in-modified: {"status":{"phase":"Pending"}}',
    ]);
  });
});
