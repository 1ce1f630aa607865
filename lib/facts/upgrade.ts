// Facts written by an older deployment, read by a newer one. The scheduled analysis reads a
// window of facts objects from S3 that the ingest wrote before an upgrade; refusing them
// would fail every run for the length of the window. Each format change adds one step here
// (version v to v + 1), so any supported older version is read as a chain of steps.
import { FACTS_VERSION } from '../model/facts';

/** The oldest facts version this reader still accepts. */
export const MIN_FACTS_VERSION = 1;

/** A fact as parsed from a facts object of version `from`, before it is checked as a Fact. */
export type RawFact = Record<string, unknown>;

/**
 * UPGRADES[v] turns a fact of version v into one of version v + 1, in place or as a new
 * object. A step says, in its comment, what the newer version has that the older lacks and
 * what the analysis does without it.
 */
const UPGRADES: Readonly<Record<number, (f: RawFact) => RawFact>> = {
  // 2 keeps the Ready condition in status bodies. A version-1 status write has none, so its
  // pod is never seen Ready and the fix-impact downtime of its broker counts to the
  // successor's create instead (`downtimeFrom: create`): nothing to rewrite.
  1: (f) => f,
};

/** Whether facts of `version` can be read (after upgrading). */
export function isReadableFactsVersion(version: unknown): version is number {
  return (
    typeof version === 'number' &&
    Number.isInteger(version) &&
    version >= MIN_FACTS_VERSION &&
    version <= FACTS_VERSION
  );
}

/** A fact of `from` (a readable version) as the current version has it. */
export function upgradeFact(f: RawFact, from: number): RawFact {
  let out = f;
  for (let v = from; v < FACTS_VERSION; v++) {
    const step = UPGRADES[v];
    if (!step) throw new Error(`no upgrade of facts from version ${v} to ${v + 1}`);
    out = step(out);
  }
  return out;
}

/** The versions with an upgrade step, for the test that every readable version has one. */
export function upgradeSteps(): number[] {
  return Object.keys(UPGRADES)
    .map(Number)
    .sort((a, b) => a - b);
}
