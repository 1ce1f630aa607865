// The report's fights section (fights.md): other controllers' fights beside koperator's
// loops, one row each (what is fought over, who fights, how often, since when, its advice
// number), opening on its fields and its own advice. Rows are filtered and paged by the
// page script like the recreations, so 81 fights stay one screen; without script all show.
import type { Fight } from '../../model/findings';
import { fightLabel, fightParties, formatCount, formatDuration, formatRange, sortFights } from '../format';
import type { AdvicePlan } from './advice';
import { escapeBreakable, escapeHtml as h } from './escape';

/** Fight rows per page. */
export const FIGHT_PAGE_SIZE = 20;

function codes(xs: readonly string[], none: string): string {
  return xs.length
    ? xs.map((x) => `<code>${escapeBreakable(x)}</code>`).join('')
    : `<span class="muted">${h(none)}</span>`;
}

/** What the search box matches: the row's words, lower-cased, in one attribute. */
function haystack(f: Fight): string {
  return [f.kind, f.namespace ?? '', fightLabel(f), ...fightParties(f), ...f.fields].join('\n').toLowerCase();
}

function row(f: Fight, plan: AdvicePlan): string {
  const advice = plan.of.get(f);
  const [first, last] = h(formatRange(f.firstAt, f.lastAt)).split(' → ');
  return `<details class="fight" data-kind="${h(f.kind)}" data-text="${h(haystack(f))}">
<summary>
<span class="f-kind"><span class="chip kind" data-kind="${h(f.kind)}">${h(f.kind)}</span></span>
<span class="f-object"><code>${escapeBreakable(fightLabel(f))}</code></span>
<span class="f-parties">${codes(fightParties(f), '—')}</span>
<span class="f-count"><b>${formatCount(f.count)}</b><small>every ${h(formatDuration(f.periodSeconds))}</small></span>
<span class="f-when">${first}${last !== undefined ? `<small>→ ${last}</small>` : ''}</span>
<span class="f-state"><span class="badge ${f.active ? 'active">active' : 'ended">ended'}</span></span>
<span class="f-advice">${advice ? `advice <a class="advice-ref" href="#advice-${advice.n}">${advice.n}</a>` : ''}</span>
</summary>
<div class="f-body">
<div class="f-fields"><span class="muted">fields</span>${codes(f.fields, 'not logged (Metadata level)')}</div>
<p class="recommendation">${f.recommendation ? h(f.recommendation) : '<span class="muted">—</span>'}</p>
<div class="evidence">${h(formatCount(f.evidence.length))} audit events as evidence in the JSON output</div>
</div>
</details>`;
}

/** Other controllers' fights (fights.md), beside koperator's loops. */
export function fightsSection(fights: readonly Fight[], plan: AdvicePlan): string {
  if (fights.length === 0) {
    return `<section class="card" id="fights"><h2>Fights</h2><p class="muted">No controller fights a webhook, an autoscaler or another writer.</p></section>`;
  }
  const sorted = sortFights(fights);
  const kinds = [...new Set(sorted.map((f) => f.kind))].sort();
  const kindOptions = kinds
    .map(
      (k) =>
        `<option value="${h(k)}">${h(k)} (${formatCount(sorted.filter((f) => f.kind === k).length)})</option>`,
    )
    .join('');
  return `<section class="card" id="fights" data-page-size="${FIGHT_PAGE_SIZE}">
<h2>Fights (${formatCount(fights.length)})</h2>
<div class="rec-tools">
<select id="fight-kind" aria-label="Filter fights by kind"><option value="">all kinds</option>${kindOptions}</select>
<input id="fight-text" type="search" placeholder="object, writer, webhook, field…" aria-label="Search fights">
<span id="fight-count" class="muted"></span>
<div class="pager"><button type="button" id="fight-prev">‹ Prev</button><span id="fight-page-info"></span><button type="button" id="fight-next">Next ›</button></div>
</div>
<div class="fight-head"><span>kind</span><span>object</span><span>writers / webhooks</span><span>cycles</span><span>first → last (UTC)</span><span>state</span><span></span></div>
<div id="fight-list">
${sorted.map((f) => row(f, plan)).join('\n')}
</div>
</section>`;
}
