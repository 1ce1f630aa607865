// The fix-impact section: what koperator's fix would have saved (summary.fixImpact), in the
// words a team lead forwards, then broker by broker (folded, so "What to do" stays in the
// first screen), the brokers it saves most first.
import { fixImpactByBroker, type BrokerFixImpact } from '../../analyze/fix-impact';
import { wordsOf } from '../../operators/words-registry';
import type { FindingsDocument } from '../../model/findings';
import { docFixImpact } from '../fix-impact';
import { brokerLabel, capitalized, compareBrokers, formatCount, formatDuration } from '../format';
import { escapeHtml as h } from './escape';

// The fix impact in the words of the operator replayed (the registry's default, koperator).
const { headline: fixImpactHeadline, basis: fixImpactBasis, tampers: fixImpactTampers } = wordsOf().fixImpact;

/** Broker rows shown before "and N more": a fleet's report stays readable. */
const MAX_BROKER_ROWS = 100;

export function fixImpactSection(doc: FindingsDocument): string {
  const fi = docFixImpact(doc);
  if (!fi) return '';
  const tampers = fixImpactTampers(fi);
  const brokers = fixImpactByBroker(doc.recreations, fi.autoscalerUsers).sort(
    (a, b) =>
      b.impact.avoidableDowntimeSeconds - a.impact.avoidableDowntimeSeconds ||
      b.impact.avoidableWithFix - a.impact.avoidableWithFix ||
      compareBrokers(a, b),
  );
  const shown = brokers.slice(0, MAX_BROKER_ROWS);
  const more = brokers.length - shown.length;
  return `<section class="card" id="fix-impact">
<h2>${h(capitalized(fixImpactHeadline(fi)))}</h2>
${tampers ? `<p>${h(capitalized(tampers))}.</p>` : ''}
<p class="muted">${h(capitalized(fixImpactBasis(fi)))}.</p>
<details class="fix-impact-brokers"><summary>By broker (${formatCount(brokers.length)})</summary>
<table class="fix-impact">
<thead><tr><th>broker</th><th>recreations</th><th>would not have happened</th><th>reverted people’s writes</th><th>downtime saved</th><th>downtime in all</th></tr></thead>
<tbody>
${shown.map(brokerRow).join('\n')}
</tbody>
</table>
${more > 0 ? `<p class="muted">and ${formatCount(more)} more brokers; the JSON output has every recreation.</p>` : ''}
</details>
</section>`;
}

function brokerRow(b: BrokerFixImpact): string {
  const fi = b.impact;
  const num = (n: number) => `<td class="num">${formatCount(n)}</td>`;
  return (
    `<tr><td><code>${h(brokerLabel(b))}</code></td>${num(fi.recreations)}${num(fi.avoidableWithFix)}` +
    `${num(fi.revertedTampers)}<td class="num">${fi.avoidableWithFix ? h(formatDuration(fi.avoidableDowntimeSeconds)) : '–'}</td>` +
    `<td class="num">${h(formatDuration(fi.downtimeSeconds))}</td></tr>`
  );
}
