// The search-kafka loop of the bundled examples in every format a person reads: each shows the
// anti-affinity term the webhook appended (weight 50, zone) as one added element, and none
// prints the two whole values, whose keys come in different orders.
import { join } from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import type { FindingsDocument, Recreation } from '../../lib/model/findings';
import { buildChatNotification } from '../../lib/notify/chat';
import { buildEmailText } from '../../lib/notify/email';
import { toAlertMessage } from '../../lib/notify/message';
import { buildSlackPayload } from '../../lib/notify/slack';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { renderReport } from '../../lib/report';

const EXAMPLES = join(__dirname, '..', '..', 'examples', 'logs');
const ADDED = '+ [1] {weight: 50, podAffinityTerm.topologyKey: topology.kubernetes.io/zone';
// Pieces of the whole values as JSON: key-order noise would print them.
const WHOLE_VALUE = ['"podAffinityTerm":', '"weight":100'];

let doc: FindingsDocument;
let latest: Recreation;

beforeAll(async () => {
  doc = await analyzeInputs([EXAMPLES], defaultAnalysisOptions(), {});
  const search = doc.recreations
    .filter(
      (r) => r.kafkaCluster === 'search-kafka' && r.fields.some((f) => f.path.includes('podAntiAffinity')),
    )
    .sort((a, b) => a.deletedPod.deletedAt.localeCompare(b.deletedPod.deletedAt));
  latest = search[search.length - 1];
}, 120_000);

function alert(): ReturnType<typeof toAlertMessage> {
  const loop = doc.loops.find((l) => l.kafkaCluster === 'search-kafka')!;
  return toAlertMessage(
    {
      kind: 'loop',
      event: 'loop-started',
      id: 'l',
      cluster: 'c',
      threadId: 't',
      loop,
      totalCount: loop.count,
      latest,
    },
    { window: { from: loop.firstAt, to: loop.lastAt }, report: null },
  );
}

const formats: Array<[string, () => string]> = [
  ['table', () => renderReport(doc, 'table', { color: false, width: 120 })],
  ['markdown', () => renderReport(doc, 'markdown', { color: false })],
  ['html', () => renderReport(doc, 'html', { color: false })],
  ['slack', () => JSON.stringify(buildSlackPayload(alert()))],
  ['chat', () => JSON.stringify(buildChatNotification(alert()))],
  ['email', () => buildEmailText(alert())],
];

describe('the search-kafka loop of the examples', () => {
  it('has the appended term in its data', () => {
    expect(latest).toBeDefined();
  });

  it.each(formats)('%s shows the added term, not the whole values', (name, render) => {
    const all = render();
    // The HTML folds the whole values behind the change (page data); its loop section has none.
    const text =
      name === 'html'
        ? all.slice(all.indexOf('id="loops"'), all.indexOf('</section>', all.indexOf('id="loops"')))
        : all;
    expect(text).toContain(ADDED);
    for (const piece of WHOLE_VALUE) expect(text.replace(/\\"/g, '"')).not.toContain(piece);
  });
});
