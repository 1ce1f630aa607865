// How each operator's findings are said to people (lib/operators/profile.ts OperatorWords), apart
// from its identity so that the ingest, which reads identities only, does not bundle the words.
import { KOPERATOR_WORDS } from '../koperator/words';
import { NIFIKOP_WORDS } from '../nifikop/words';
import type { OperatorWords } from './profile';

const WORDS: ReadonlyMap<string, OperatorWords> = new Map([
  ['koperator', KOPERATOR_WORDS],
  ['nifikop', NIFIKOP_WORDS],
]);

/** Operators in the order people read them in: koperator (the default) first, then by name. */
export function byOperatorOrder(a: string, b: string): number {
  return Number(b === 'koperator') - Number(a === 'koperator') || a.localeCompare(b);
}

/** The words of the operator `id`: koperator's when none is named (a finding without `operator`). */
export function wordsOf(id = 'koperator'): OperatorWords {
  const w = WORDS.get(id);
  if (!w) throw new Error(`no operator profile named ${id}`);
  return w;
}
