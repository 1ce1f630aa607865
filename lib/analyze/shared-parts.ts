// Parts of findings that repeat across the recreations of a loop. A broker looping for a day
// yields ten thousand recreations whose field lists and verdicts are equal, and a fleet's
// day a million: each distinct part is kept once and shared. Shared parts are frozen, so a
// consumer that tried to edit one finding's part (and so every finding's) fails loudly
// instead; every consumer today copies before it changes anything.
import { BoundedCache } from '../k8s/bounded-cache';
import type { FieldChange, Recreation } from '../model/findings';

const VERDICTS = [
  Object.freeze({ threeWayMerge: false, intentDiff: false }),
  Object.freeze({ threeWayMerge: false, intentDiff: true }),
  Object.freeze({ threeWayMerge: true, intentDiff: false }),
  Object.freeze({ threeWayMerge: true, intentDiff: true }),
];

/** The one shared `wouldRestart` for these two answers. */
export function sharedVerdict(threeWayMerge: boolean, intentDiff: boolean): Recreation['wouldRestart'] {
  return VERDICTS[(threeWayMerge ? 2 : 0) + (intentDiff ? 1 : 0)];
}

const NO_FIELDS: FieldChange[] = Object.freeze([]) as unknown as FieldChange[];

// Keyed by the list's JSON, which is everything a finding's reader can see of it (findings
// leave the process as JSON, and no reader tells a missing `from` from an undefined one).
// Bounded: a full table starts over, which only loses sharing.
const fieldLists = new BoundedCache<FieldChange[]>(16_384, 32 * 2 ** 20);

/** An equal list already handed out, or this one, frozen, from now on handed out for its equals. */
export function sharedFields(fields: FieldChange[]): FieldChange[] {
  if (fields.length === 0) return NO_FIELDS;
  let key: string;
  try {
    key = JSON.stringify(fields);
  } catch {
    return fields; // too deep to serialise (hostile input): kept unshared
  }
  const known = fieldLists.get(key);
  if (known) return known;
  for (const f of fields) Object.freeze(f);
  Object.freeze(fields);
  fieldLists.set(key, fields);
  return fields;
}

// Notes that name a field are built per recreation from the same few paths.
const texts = new BoundedCache<string>(4096, 4 * 2 ** 20);

/** An equal string already handed out, or this one. */
export function sharedText(s: string): string {
  const known = texts.get(s);
  if (known !== undefined) return known;
  texts.set(s, s);
  return s;
}
