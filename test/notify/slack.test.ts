import { toAlertMessage } from '../../lib/notify/message';
import { buildSlackPayload, type SlackBlock } from '../../lib/notify/slack';
import { recommendationFor } from '../../lib/notify/words';
import { CLASSIFICATIONS } from '../../lib/model/findings';
import { ctx, loopEvent, recreation, recreationEvent } from './fixtures';

function texts(blocks: SlackBlock[]): string {
  return blocks
    .flatMap((b) =>
      b.type === 'header'
        ? [b.text.text]
        : b.type === 'section'
          ? [b.text?.text ?? '', ...(b.fields ?? []).map((f) => f.text)]
          : b.type === 'context'
            ? b.elements.map((e) => e.text)
            : [],
    )
    .join('\n');
}

describe('Slack Block Kit payload', () => {
  it.each([
    [
      'a loop reverting a webhook’s write',
      loopEvent,
      /^Reason to upgrade: with koperator 0\.30\.0-rc1, the 12 recreations/,
    ],
    [
      'a loop reverting a person’s write',
      {
        ...loopEvent,
        latest: { ...recreation, fields: recreation.fields.map((f) => ({ ...f, by: 'alice@example.com' })) },
      },
      /^With koperator 0\.30\.0-rc1 this loop would stop, but the writes it reverts would stand/,
    ],
    [
      'a loop of intent changes',
      { ...loopEvent, loop: { ...loopEvent.loop, classification: 'intent-change' as const } },
      null,
    ],
  ])('gives %s its reason to upgrade, or none', (_label, event, reason) => {
    const sections = buildSlackPayload(toAlertMessage(event, ctx)).blocks.flatMap((b) =>
      b.type === 'section' && b.text ? [b.text.text] : [],
    );
    const found = sections.filter(
      (t) => /koperator 0\.30\.0-rc1/.test(t) && !t.startsWith('*Recommendation*'),
    );
    if (reason === null) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringMatching(reason)]);
  });

  it('shows broker, class, count, period, who, from → to and the recommendation for a loop', () => {
    const p = buildSlackPayload(toAlertMessage(loopEvent, ctx));
    expect(p.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Recreation loop started: pipeline-kafka broker 4', emoji: true },
    });
    const all = texts(p.blocks);
    expect(all).toContain('*Broker*\nkafka/pipeline-kafka broker 4');
    expect(all).toContain('*Class*\n`external-mutation-revert`');
    expect(all).toContain('*Count*\n12');
    expect(all).toContain(
      'every ~9.6 s, 2026-11-02T10:38:28.770183Z → 2026-11-02T10:40:14.691760Z (still looping)',
    );
    expect(all).toContain('*Who*\nscaleops-mutating-webhook-configuration/pods.scaleops.sh');
    expect(all).toContain(
      '• `spec.containers[name=kafka].resources.requests.cpu`: `2 → 1200m` (by scaleops-mutating-webhook-configuration/pods.scaleops.sh)',
    );
    expect(all).toContain('Exclude the kafka namespace from the ScaleOps webhook');
    expect(all).toContain(
      '<https://b.s3.eu-west-1.amazonaws.com/reports/cluster%3Deks-prod/r.json?X-Amz-Expires=86400|Full report> (link valid until 2026-11-03 11:31:00 UTC at the latest, sooner if the AWS session that signed it ends first)',
    );
    expect(all).not.toContain('s3://');
    expect(p.text).toBe(
      'Recreation loop started: kafka/pipeline-kafka broker 4 (external-mutation-revert, 12x) in eks-prod',
    );
  });

  it.each([
    [
      'the HTML page when pre-signed',
      {
        uri: 's3://b/r.json',
        url: 'https://x/r.json',
        html: { uri: 's3://b/r.html', url: 'https://x/r.html' },
      },
      '<https://x/r.html|Full report>',
    ],
    [
      'the JSON report’s URL when there is no page, with its lifetime',
      { uri: 's3://b/r.json', url: 'https://x/r.json', expiresAt: '2026-11-03T10:00:00Z' },
      '<https://x/r.json|Full report> (link valid until 2026-11-03 10:00:00 UTC at the latest, sooner if the AWS session that signed it ends first)',
    ],
    [
      'an exact lifetime when the signing credentials’ end was known',
      {
        uri: 's3://b/r.json',
        url: 'https://x/r.json',
        expiresAt: '2026-11-03T10:00:00Z',
        expiry: 'exact' as const,
      },
      '<https://x/r.json|Full report> (link valid until 2026-11-03 10:00:00 UTC)',
    ],
    [
      'no s3:// URI when there is no HTTPS URL',
      { uri: 's3://b/r.json', html: { uri: 's3://b/r.html' } },
      'No report link',
    ],
  ])('points people at %s', (_label, report, text) => {
    const all = texts(buildSlackPayload(toAlertMessage(recreationEvent, { ...ctx, report })).blocks);
    expect(all).toContain(text);
    expect(all).not.toContain('s3://');
  });

  it('links a pre-signed report URL and names deleter and mutator of a single recreation', () => {
    const p = buildSlackPayload(
      toAlertMessage(recreationEvent, {
        ...ctx,
        report: { uri: 's3://b/k', url: 'https://example.com/r?sig=1' },
      }),
    );
    const all = texts(p.blocks);
    expect(all).toContain('<https://example.com/r?sig=1|Full report>');
    expect(all).toContain(
      'deleted by system:serviceaccount:kafka:kafka-operator; changed by scaleops-mutating-webhook-configuration/pods.scaleops.sh',
    );
    expect(all).toContain('*Count*\n1');
    // The writer's own remedy (ScaleOps' policy), not the general advice for a revert.
    expect(all).toContain("Turn ScaleOps' automation off for these pods");
    expect(all).not.toContain(recommendationFor('external-mutation-revert'));
  });

  it('escapes Slack control characters and keeps within Block Kit limits', () => {
    const nasty = {
      ...recreation,
      kafkaCluster: 'a<b>&c'.repeat(40),
      fields: [{ path: 'spec.x', from: '`'.repeat(500), to: '<@here>', by: null }],
    };
    const p = buildSlackPayload(toAlertMessage({ ...recreationEvent, recreation: nasty }, ctx));
    const header = p.blocks[0]!;
    expect(header.type === 'header' && header.text.text.length).toBeLessThanOrEqual(150);
    const all = texts(p.blocks);
    expect(all).not.toContain('<@here>');
    expect(all).toContain('&lt;@here&gt;');
    for (const b of p.blocks)
      if (b.type === 'section')
        for (const f of b.fields ?? []) expect(f.text.length).toBeLessThanOrEqual(2000);
  });

  it('has a recommendation for every class', () => {
    for (const c of CLASSIFICATIONS) expect(recommendationFor(c).length).toBeGreaterThan(20);
  });
});
