// The loop rules fights share with koperator's loops (--loop-min-count, --loop-max-gap).
import type { AnalysisOptions } from '../analyze/options';

export type FightOptions = Pick<AnalysisOptions, 'loopMinCount' | 'loopMaxGapSeconds' | 'newestEventAt'>;

/** fights.md: a hot loop needs at least this many writes, whatever --loop-min-count says. */
export const HOT_LOOP_MIN_WRITES = 10;
