// Controllers that fight (fights.md): every detector reads the same timeline of writes, built
// once from the facts the koperator analysis reads too. Pure: facts in, fights out.
import type { FactStore } from '../facts/store';
import type { Fight } from '../model/findings';
import { compareTimes } from '../analyze/time';
import { findFieldFights } from './field-fight';
import { findHotLoops } from './hot-loop';
import type { FightOptions } from './options';
import { findRecreateLoops } from './recreate-loop';
import { buildWriteTimeline } from './writes';
import { epochMicros } from '../analyze/time';

export type { FightOptions } from './options';

export function findFights(store: FactStore, opts: FightOptions): Fight[] {
  const timeline = buildWriteTimeline(store);
  // The end of the data is the newest event read, which may be past every kept write.
  const read = opts.newestEventAt ? epochMicros(opts.newestEventAt) : NaN;
  if (Number.isFinite(read) && !(timeline.newest >= read)) timeline.newest = read;
  const fights: Fight[] = [];
  for (const writes of timeline.objects.values()) {
    fights.push(...findFieldFights(writes, opts, timeline.newest));
    fights.push(...findHotLoops(writes, opts, timeline.newest));
  }
  fights.push(...findRecreateLoops(timeline.pods, timeline.objects, opts, timeline.newest));
  return fights.sort((a, b) => compareTimes(a.firstAt, b.firstAt));
}
