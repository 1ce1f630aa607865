// The report's fights section (fights.md): other controllers' fights beside koperator's
// loops, each with what it is fought over, who fights, the fields and what to do.
import type { Fight } from '../../model/findings';
import { fightLabel, fightParties, formatCount, formatDuration, formatRange, sortFights } from '../format';
import { escapeBreakable, escapeHtml as h } from './escape';

export /** Other controllers' fights (fights.md), beside koperator's loops, each with its recommendation. */
function fightsSection(fights: readonly Fight[]): string {
  if (fights.length === 0) {
    return `<section class="card" id="fights"><h2>Fights</h2><p class="muted">No controller fights a webhook, an autoscaler or another writer.</p></section>`;
  }
  const codes = (xs: string[]) =>
    xs.length
      ? xs.map((x) => `<code>${escapeBreakable(x)}</code>`).join('')
      : '<span class="muted">not logged (Metadata level)</span>';
  const rows = sortFights(fights).map(
    (f) => `<tr class="fight" data-kind="${h(f.kind)}">
<td>${h(f.kind)}</td>
<td><code>${escapeBreakable(fightLabel(f))}</code></td>
<td>${fightParties(f)
      .map((p) => `<code>${escapeBreakable(p)}</code>`)
      .join('')}</td>
<td class="num"><b>${formatCount(f.count)}</b></td>
<td class="num">${h(formatDuration(f.periodSeconds))}</td>
<td>${h(formatRange(f.firstAt, f.lastAt)).replace(' → ', '<br>→ ')}</td>
<td><span class="badge ${f.active ? 'active">active' : 'ended">ended'}</span></td>
<td>${codes(f.fields)}</td>
<td>${f.recommendation ? h(f.recommendation) : '<span class="muted">—</span>'}</td>
</tr>`,
  );
  return `<section class="card" id="fights">
<h2>Fights (${formatCount(fights.length)})</h2>
<div class="scroll"><table class="fights">
<colgroup><col style="width:8%"><col style="width:15%"><col style="width:15%"><col style="width:5%"><col style="width:6%"><col style="width:11%"><col style="width:6%"><col style="width:17%"><col style="width:17%"></colgroup>
<thead><tr><th>kind</th><th>object</th><th>writers / webhooks</th><th>count</th><th>period</th><th>first → last (UTC)</th><th>state</th><th>fields</th><th>recommendation</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>
</section>`;
}
