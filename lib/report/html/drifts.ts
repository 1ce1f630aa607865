// The report's live-drift section (drift.md): each out-of-band write to a running broker pod,
// who made it, what it wrote against what koperator declares, and whether it still stands.
import type { Drift } from '../../model/findings';
import { countStanding, driftPreFix, driftState, driftWrite, sortDrifts } from '../drift-format';
import { brokerLabel, formatCount, formatTimestamp, formatValue, truncate } from '../format';
import { escapeBreakable, escapeHtml as h } from './escape';

/** A value this long is a whole container; the JSON output has it all. */
const MAX_VALUE_CHARS = 400;

export function driftsSection(drifts: readonly Drift[]): string {
  if (drifts.length === 0) {
    return `<section class="card" id="drifts"><h2>Live drift</h2><p class="muted">No one but the operator changed a running broker pod.</p></section>`;
  }
  const value = (v: unknown) => `<code>${escapeBreakable(truncate(formatValue(v), MAX_VALUE_CHARS))}</code>`;
  const rows = sortDrifts(drifts).map((d) => {
    const fields = d.fields.length
      ? d.fields
          .map(
            (f) =>
              `<div><code>${escapeBreakable(f.path)}</code>: ${value(f.declared)} → ${value(f.to)}</div>`,
          )
          .join('')
      : '<span class="muted">not logged (Metadata level)</span>';
    return `<tr class="drift" data-severity="${h(d.severity)}" data-kind="${h(d.kind)}">
<td>${h(formatTimestamp(d.at))}</td>
<td>${h(brokerLabel(d))}<br><code>${escapeBreakable(d.pod.name)}</code></td>
<td><code>${escapeBreakable(d.by)}</code><br><span class="muted">${h(driftWrite(d))}</span></td>
<td>${h(d.kind)}</td>
<td><span class="badge${d.severity === 'tamper' ? ' active' : ''}">${h(d.severity)}</span></td>
<td>${fields}</td>
<td>${d.ended ? h(driftState(d)) : '<span class="badge active">stands</span>'}</td>
<td>${h(driftPreFix(d))}</td>
</tr>`;
  });
  return `<section class="card" id="drifts">
<h2>Live drift (${formatCount(drifts.length)}, ${formatCount(countStanding(drifts))} standing)</h2>
<p class="muted">Writes to running broker pods by anyone but the operator that depart from what koperator declares. koperator 0.30.0-rc1 and later leave them in place.</p>
<div class="scroll"><table class="drifts">
<thead><tr><th>time (UTC)</th><th>broker / pod</th><th>by</th><th>kind</th><th>severity</th><th>declared → written</th><th>state</th><th>before the fix</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>
</section>`;
}
