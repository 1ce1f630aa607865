// The plain-text body email subscribers of the chat topic get (SNS sends the `email` key
// of a MessageStructure json message to email endpoints): the same facts as the chat and
// Slack messages, in words, with the report as a clickable HTTPS link.
import type { AlertMessage } from './message';
import { driftStatusWords, driftWriteWords, preFixWords } from './drift-words';
import {
  brokerOf,
  changersOf,
  classOf,
  changesOf,
  countOf,
  periodOf,
  isRemovalAlert,
  titleOf,
  recommendationOf,
  upgradeReasonOf,
  operatorLogsStepOf,
  sourcesText,
  reportLinkOf,
} from './words';

/** Fields listed in full before the rest are only counted (the report has them all). */
const EMAIL_FIELDS_MAX = 40;

/** Control characters and bidi overrides from the logs would garble or reorder what a mail client shows. */
function line(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ');
}

export function buildEmailText(m: AlertMessage): string {
  const fight = m.findingType === 'fight';
  const who = changersOf(m);
  const link = reportLinkOf(m.report);
  const drift = m.findingType === 'drift' ? m.finding : null;
  const out: string[] = [`${titleOf(m)}: ${brokerOf(m)} in cluster ${m.cluster}`, ''];
  if (drift) {
    out.push(
      `Kind:      ${drift.kind}, drift severity ${drift.severity} (alert ${m.severity})`,
      `Pod:       ${drift.pod.name}${drift.pod.uid ? ` (uid ${drift.pod.uid})` : ''}`,
      `When:      ${drift.at} (${driftWriteWords(drift)})`,
      `Status:    ${driftStatusWords(drift)}`,
      `Before the fix: ${preFixWords(drift)}`,
    );
  } else {
    out.push(
      `${fight ? 'Kind: ' : 'Class:'}     ${classOf(m)} (severity ${m.severity})`,
      `Count:     ${countOf(m)} ${fight ? 'cycle(s)' : isRemovalAlert(m) ? 'broker removed (downscale)' : 'recreation(s)'}`,
      `Period:    ${periodOf(m)}`,
    );
  }
  if (m.findingType === 'recreation') {
    out.push(`Deleted by: ${m.finding.deletedPod.deletedBy ?? 'unknown'}`);
    out.push(`Pods:      ${m.finding.deletedPod.name} -> ${m.finding.createdPod?.name ?? '(none seen)'}`);
  }
  out.push(
    `${fight ? 'Fought by: ' : drift ? 'Written by: ' : 'Changed by: '}${who.length > 0 ? who.join(', ') : 'unknown'}`,
  );
  const changes = changesOf(m);
  if (changes.length > 0) {
    out.push('', drift ? 'Fields (declared -> written):' : 'Fields (from -> to, by whom):');
    for (const c of changes.slice(0, EMAIL_FIELDS_MAX)) {
      const by = c.by ? ` (by ${c.by})` : '';
      const lines = c.lines ?? [];
      if (lines.length === 0) out.push(`  - ${c.path}`);
      else if (lines.length === 1) out.push(`  - ${c.path}: ${lines[0]}${by}`);
      else out.push(`  - ${c.path}${by}`, ...lines.map((l) => `      ${l}`));
    }
    if (changes.length > EMAIL_FIELDS_MAX)
      out.push(`  ... and ${changes.length - EMAIL_FIELDS_MAX} more in the report`);
  }
  out.push('', 'What to do:', `  ${recommendationOf(m)}`, '');
  const upgrade = upgradeReasonOf(m);
  if (upgrade) out.push(upgrade, '');
  const logsStep = operatorLogsStepOf(m);
  if (logsStep) out.push(logsStep, '');
  out.push(
    link
      ? `Full report: ${link.url}${link.lifetime ? `\n  (${link.lifetime})` : ''}`
      : 'Full report: none linked (the run wrote no report, or links are not configured)',
  );
  if (m.truncated && m.truncated.length > 0)
    out.push(`Trimmed to fit SNS: ${m.truncated.join(', ')} (the report has them whole)`);
  const sources = sourcesText(m);
  if (sources) out.push(sources);
  out.push('', `Alert ${m.id}, event ${m.event}, window ${m.window.from} -> ${m.window.to}.`);
  out.push('Sent by koperator-audit.');
  return (
    out
      .flatMap((l) => l.split('\n'))
      .map(line)
      .join('\n') + '\n'
  );
}
