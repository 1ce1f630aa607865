// The shared reference vectors (../shared/corpus/diff-vectors): (last-applied, desired, live)
// triples with what koperator's real Go code decided and which patches it computed. Every
// vector must agree, decisions and patches, compared as ../shared/tools/check-diff-vectors.ts
// compares them (patches as JSON values, an error as a null patch).
//
// A vector can only be handed over as parsed JSON, and JSON.parse cannot carry two number
// spellings Go tells apart: a float written like an integer (`120.0`, which Go decodes as a
// float64 where the typed side has an int64) and an integer beyond 2^53 (which Go keeps exact
// in the last-applied document). Vectors whose inputs hold such a number are found by reading
// the text (not by id), run all the same and reported, but cannot be asserted.
import { readFileSync } from 'fs';
import * as path from 'path';
import { sortKeysDeep } from '../../lib/k8s/json-value';
import { intentDecision, threeWayDecision } from '../../lib/koperator/pod-diff';
import { describeWithCorpus, SHARED_CORPUS } from '../support/shared-corpus';

const DIR = path.join(SHARED_CORPUS, 'diff-vectors');

/** Number tokens in JSON text (strings skipped) whose value JSON.parse cannot keep apart. */
function unrepresentableNumbers(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (ch !== '-' && (ch < '0' || ch > '9')) continue;
    let j = i + 1;
    while (j < text.length && /[0-9.eE+-]/.test(text[j])) j++;
    const token = text.slice(i, j);
    const value = Number(token);
    const lossy = /^-?[0-9]+$/.test(token)
      ? BigInt(token) !== BigInt(value) // rounded to the nearest float64
      : Number.isSafeInteger(value); // a float Go keeps as such, an integer to JavaScript
    if (lossy) out.push(token);
    i = j - 1;
  }
  return out;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeysDeep(a)) === JSON.stringify(sortKeysDeep(b));
}

interface Vector {
  id: string;
  original: unknown;
  modified: unknown;
  current: unknown;
  expect: { threeWayChanged: boolean; threeWayPatch: unknown; intentChanged: boolean; intentPatch: unknown };
}

describeWithCorpus(DIR, 'diff vectors decided by the real Go code', () => {
  it('agree on every vector: both decisions and both patches', () => {
    const lines = readFileSync(path.join(DIR, 'vectors.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    // Repeated last-applied and desired texts are handed over as the same objects, as a
    // restart loop does (and as the checker does), so the memos are exercised too.
    const shared = new Map<string, unknown>();
    const sharedObject = (v: unknown): unknown => {
      if (v === null || typeof v !== 'object') return v;
      const text = JSON.stringify(v);
      const known = shared.get(text);
      if (known !== undefined) return known;
      shared.set(text, v);
      return v;
    };
    const disagree: string[] = [];
    const unrepresentable: string[] = [];
    for (const line of lines) {
      const v = JSON.parse(line) as Vector;
      const original = sharedObject(v.original);
      const modified = sharedObject(v.modified);
      const tw = threeWayDecision(original, modified, v.current);
      const it = intentDecision(original, modified);
      const agrees =
        tw.changed === v.expect.threeWayChanged &&
        it.changed === v.expect.intentChanged &&
        same(tw.error ? null : tw.patch, v.expect.threeWayPatch) &&
        same(it.error ? null : it.patch, v.expect.intentPatch);
      const lossy = unrepresentableNumbers(line.slice(0, line.lastIndexOf('"expect"')));
      if (lossy.length > 0)
        unrepresentable.push(`${v.id} (${lossy.join(', ')}): ${agrees ? 'agrees' : 'differs'}`);
      else if (!agrees) disagree.push(v.id);
    }
    console.info(
      `diff vectors: ${lines.length - unrepresentable.length - disagree.length}/${lines.length - unrepresentable.length} agree; ` +
        `${unrepresentable.length} hold numbers JSON.parse cannot carry:\n  ${unrepresentable.join('\n  ')}`,
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(disagree).toEqual([]);
  });
});
