// Facts written by an older deployment, read by a newer one. The scheduled analysis reads a
// window of facts objects from S3 that the ingest wrote before an upgrade; refusing them
// would fail every run for the length of the window. Each format change adds one step here
// (version v to v + 1), so any supported older version is read as a chain of steps.
import { FACTS_VERSION } from '../model/facts';

/** The oldest facts version this reader still accepts. */
export const MIN_FACTS_VERSION = 1;

/** A header or a fact as parsed from a facts object of an older version, before it is checked. */
export type RawRecord = Record<string, unknown>;

/**
 * One version's step to the next: what to do to its header and to each of its facts (either
 * may be absent: nothing to do). Each step says, in its comment, what the newer version has
 * that the older lacks and what the analysis does without it.
 */
export interface UpgradeStep {
  header?: (h: RawRecord) => RawRecord;
  fact?: (f: RawRecord) => RawRecord;
}

/** UPGRADES[v] turns version v into v + 1. */
const UPGRADES: Readonly<Record<number, UpgradeStep>> = {
  // 2 keeps the Ready condition in status bodies. A version-1 status write has none, so its
  // pod is never seen Ready and the fix-impact downtime of its broker counts to the
  // successor's create instead (`downtimeFrom: create`): nothing to rewrite.
  1: {},
  // 3 names, in the header, the newest event read from the source object, kept or not.
  // Version 2 did not record it: unknown, so the facts' own end stands for the end of the data.
  2: { header: (h) => ({ ...h, newestEventAt: h.newestEventAt ?? null }) },
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

/** A header of `from` (a readable version) as the current version has it; `factsVersion` stays the version read. */
export function upgradeHeader(h: RawRecord, from: number): RawRecord {
  return applySteps(h, 'header', from, FACTS_VERSION, UPGRADES);
}

/** A fact of `from` (a readable version) as the current version has it. */
export function upgradeFact(f: RawRecord, from: number): RawRecord {
  return applySteps(f, 'fact', from, FACTS_VERSION, UPGRADES);
}

/** `record` taken from version `from` to `to` through `table`'s steps, in version order. */
export function applySteps(
  record: RawRecord,
  part: keyof UpgradeStep,
  from: number,
  to: number,
  table: Readonly<Record<number, UpgradeStep>>,
): RawRecord {
  let out = record;
  for (let v = from; v < to; v++) {
    const step = table[v];
    if (!step) throw new Error(`no upgrade of facts from version ${v} to ${v + 1}`);
    out = step[part]?.(out) ?? out;
  }
  return out;
}

/** The versions with an upgrade step, for the test that every readable version has one. */
export function upgradeSteps(): number[] {
  return Object.keys(UPGRADES)
    .map(Number)
    .sort((a, b) => a - b);
}
