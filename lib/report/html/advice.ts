// "What to do", first on the page: each distinct piece of advice once, numbered, with what
// it applies to. Loops share advice by its text (groupLoops); fights by their cause (the
// same kind, writers, webhooks and fields), since each fight's text names its own object.
// The loops' and fights' rows refer to these numbers instead of repeating the advice.
import type { Fight, FindingsDocument } from '../../model/findings';
import { fightLabel, formatCount, plural, sortFights } from '../format';
import { escapeBreakable, escapeHtml as h } from './escape';
import { groupLoops, type Advice } from './loops';

/** Pieces of advice shown open; the rest fold into one group under them. */
export const OPEN_ADVICE = 10;
/** Objects or brokers named in one piece of advice before "and N more". */
const MAX_NAMED = 12;

export interface FightAdvice {
  n: number;
  kind: Fight['kind'];
  /** The first fight's advice (active first, then oldest): the others' differs only in the object named. */
  recommendation: string;
  fights: Fight[];
}

export interface AdvicePlan {
  loops: ReturnType<typeof groupLoops>;
  fights: FightAdvice[];
  /** Each fight's piece of advice. */
  of: Map<Fight, FightAdvice>;
}

/** What makes two fights the same cause: who fights whom, over which fields, how. */
export function fightCause(f: Fight): string {
  const sorted = (xs: readonly string[]): string[] => [...xs].sort();
  return JSON.stringify([f.kind, sorted(f.writers), sorted(f.mutators), sorted(f.fields)]);
}

/** Loops' advice numbered first (koperator's brokers are the report's subject), then the fights'. */
export function planAdvice(doc: FindingsDocument): AdvicePlan {
  const loops = groupLoops(doc.loops);
  const byCause = new Map<string, FightAdvice>();
  const of = new Map<Fight, FightAdvice>();
  let n = loops.advice.length;
  for (const f of sortFights(doc.fights ?? [])) {
    const key = fightCause(f);
    let a = byCause.get(key);
    if (!a) {
      a = { n: ++n, kind: f.kind, recommendation: f.recommendation || '—', fights: [] };
      byCause.set(key, a);
    }
    a.fights.push(f);
    of.set(f, a);
  }
  return { loops, fights: [...byCause.values()], of };
}

function classChip(c: string): string {
  // data-class carries the colour; an off-contract value gets the neutral default.
  return `<span class="chip" data-class="${h(c)}"><span class="dot"></span>${h(c)}</span>`;
}

function named(items: readonly string[], each: (s: string) => string): string {
  const more = items.length - MAX_NAMED;
  return items.slice(0, MAX_NAMED).map(each).join(', ') + (more > 0 ? `, and ${formatCount(more)} more` : '');
}

function block(n: number, dataAttr: string, chips: string, scope: string, recommendation: string): string {
  return `<div class="advice" id="advice-${n}" ${dataAttr}>
<div class="advice-head"><span class="advice-n">${n}</span>${chips}<span class="muted">${scope}</span></div>
<p class="recommendation">${h(recommendation)}</p>
</div>`;
}

function loopBlock(a: Advice): string {
  const scope = `for ${h(plural(a.brokers.length, 'broker'))}, ${h(plural(a.loops, 'loop'))}: ${named(a.brokers, h)}`;
  return block(
    a.n,
    `data-class="${h(a.classes[0])}"`,
    a.classes.map(classChip).join(''),
    scope,
    a.recommendation,
  );
}

function fightBlock(a: FightAdvice): string {
  const active = a.fights.filter((f) => f.active).length;
  const scope =
    `for ${h(plural(a.fights.length, 'fight'))}${active ? ` (${formatCount(active)} active)` : ''}: ` +
    named(a.fights.map(fightLabel), (s) => `<code>${escapeBreakable(s)}</code>`) +
    (a.fights.length > 1 ? ' (the advice names the first; it is the same for each)' : '');
  const chip = `<span class="chip kind" data-kind="${h(a.kind)}">${h(a.kind)}</span>`;
  return block(a.n, `data-kind="${h(a.kind)}"`, chip, scope, a.recommendation);
}

export function whatToDoSection(plan: AdvicePlan): string {
  const blocks = [...plan.loops.advice.map(loopBlock), ...plan.fights.map(fightBlock)];
  if (blocks.length === 0) return '';
  const open = blocks.slice(0, OPEN_ADVICE);
  const folded = blocks.slice(OPEN_ADVICE);
  return `<section class="card" id="what-to-do">
<h2>What to do <span class="muted">(${h(plural(blocks.length, 'piece'))} of advice, each once; the loops and fights below refer to these numbers)</span></h2>
${open.join('\n')}
${folded.length ? `<details class="more-advice"><summary>${formatCount(folded.length)} more</summary>\n${folded.join('\n')}\n</details>` : ''}
</section>`;
}
