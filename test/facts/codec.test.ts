import { decodeFacts, encodeFacts, FACTS_FORMAT } from '../../lib/facts/codec';
import { FACTS_VERSION, type Fact, type PodWriteFact } from '../../lib/model/facts';
import { applySteps, MIN_FACTS_VERSION, upgradeSteps } from '../../lib/facts/upgrade';
import { readyInStatusBody } from '../../lib/k8s/pod-ready';
import { operatorFact, podFact } from './fixtures';

const pod = (auditID: string, at: string) => podFact({ auditID, at, doneAt: at });
const opFact = (at: string, source: string) => operatorFact({ at, src: { source, line: 7 } });

const header = { source: 's3://logs/a.log', etag: 'abc', cluster: 'eks-a', hour: '2026-11-02-10' };

describe('facts codec', () => {
  it('round-trips facts behind a header naming format, version, source and count', () => {
    const facts: Fact[] = [pod('a1', '2026-11-02T10:00:01Z'), opFact('2026-11-02T10:00:02Z', 'm.log')];
    const text = encodeFacts(header, facts);
    const firstLine = JSON.parse(text.split('\n')[0]!);
    expect(firstLine).toEqual({
      format: FACTS_FORMAT,
      factsVersion: FACTS_VERSION,
      ...header,
      count: 2,
      newestEventAt: null,
    });
    expect(decodeFacts(text)).toEqual({ header: firstLine, facts });
  });

  it('records the newest event read from the source, which may be past every fact', () => {
    const facts: Fact[] = [pod('a1', '2026-11-02T10:00:01Z')];
    const text = encodeFacts({ ...header, newestEventAt: '2026-11-02T10:52:46.5Z' }, facts);
    expect(decodeFacts(text).header.newestEventAt).toBe('2026-11-02T10:52:46.5Z');
  });

  // Facts already in S3 were written by older versions: each must read as the current one.
  const facts: Fact[] = [pod('a1', '2026-11-02T10:00:01Z'), opFact('2026-11-02T10:00:02Z', 'm.log')];
  const asWritten = (version: number, extra: Record<string, unknown>) =>
    [
      JSON.stringify({ format: FACTS_FORMAT, factsVersion: version, ...header, count: 2, ...extra }),
      ...facts.map((f) => JSON.stringify(f)),
    ].join('\n') + '\n';
  it.each([
    ['1 (no newestEventAt: unknown)', 1, asWritten(1, {}), null],
    ['2 (no newestEventAt: unknown)', 2, asWritten(2, {}), null],
    ['3', 3, asWritten(3, { newestEventAt: '2026-11-02T10:30:00Z' }), '2026-11-02T10:30:00Z'],
  ])(
    'reads version %s with the current header (factsVersion stays the version read)',
    (_v, version, text, newest) => {
      const read = decodeFacts(text);
      expect(read.header).toEqual({
        format: FACTS_FORMAT,
        factsVersion: version,
        ...header,
        count: 2,
        newestEventAt: newest,
      });
      expect(read.facts).toEqual(facts);
    },
  );

  it('gives facts read back the sharing projection gives: a loop’s pod bodies held once', () => {
    const body = (name: string) => ({
      kind: 'Pod',
      metadata: { name, labels: { app: 'kafka', kafka_cr: 'orders-kafka' } },
      spec: { containers: [{ name: 'kafka', image: 'kafka:3' }], affinity: { x: 1 } },
    });
    const a = { ...pod('a1', '2026-11-02T10:00:01Z'), response: body('orders-kafka-1-aaaaa') };
    const b = { ...pod('b1', '2026-11-02T10:00:02Z'), response: body('orders-kafka-1-bbbbb') };
    const other = {
      ...pod('c1', '2026-11-02T10:00:03Z'),
      response: { kind: 'Pod', metadata: { name: 'web-1' }, spec: { containers: [] } },
    };
    const [ra, rb, rc, rd] = decodeFacts(encodeFacts(header, [a, b, other, other])).facts as PodWriteFact[];
    expect([ra, rb, rc, rd]).toEqual([a, b, other, other]);
    const spec = (f: PodWriteFact) => (f.response as { spec: Record<string, unknown> }).spec;
    const meta = (f: PodWriteFact) => (f.response as { metadata: Record<string, unknown> }).metadata;
    expect(spec(rb).containers).toBe(spec(ra).containers);
    expect(meta(rb).labels).toBe(meta(ra).labels);
    // Another team's pods are left as parsed, as the projection leaves them.
    expect(spec(rd).containers).not.toBe(spec(rc).containers);
  });

  it('reads a facts object of every older version still accepted, upgraded to the current one', () => {
    // Version 1 as the ingest wrote it before status bodies kept the Ready condition.
    const v1Status = {
      ...pod('s1', '2026-11-02T10:00:05Z'),
      verb: 'patch',
      subresource: 'status',
      user: 'system:node:ip-10-0-1-1',
      request: { status: { phase: 'Running' } },
    };
    const v1Create = {
      ...pod('c1', '2026-11-02T10:00:01Z'),
      response: { kind: 'Pod', metadata: { name: 'x' } },
    };
    const text =
      [
        JSON.stringify({ format: FACTS_FORMAT, factsVersion: 1, ...header, count: 2 }),
        JSON.stringify(v1Create),
        JSON.stringify(v1Status),
      ].join('\n') + '\n';
    const { header: read, facts } = decodeFacts(text);
    expect(read.factsVersion).toBe(1);
    expect(facts).toEqual([v1Create, v1Status]);
    // Nothing in a version-1 status says Ready: the analysis measures downtime to the create.
    expect(readyInStatusBody((facts[1] as PodWriteFact).request)).toBeNull();
  });

  it('chains upgrade steps in version order, headers and facts apart', () => {
    // How two format changes stack: each adds its own step; a version-1 object takes both.
    const table = {
      1: { fact: (f: Record<string, unknown>) => ({ ...f, steps: [...((f.steps as number[]) ?? []), 1] }) },
      2: {
        header: (h: Record<string, unknown>) => ({ ...h, newestAt: null }),
        fact: (f: Record<string, unknown>) => ({ ...f, steps: [...((f.steps as number[]) ?? []), 2] }),
      },
    };
    expect(applySteps({ type: 'pod' }, 'fact', 1, 3, table)).toEqual({ type: 'pod', steps: [1, 2] });
    expect(applySteps({ type: 'pod' }, 'fact', 2, 3, table)).toEqual({ type: 'pod', steps: [2] });
    expect(applySteps({ format: 'x' }, 'header', 1, 3, table)).toEqual({ format: 'x', newestAt: null });
    expect(() => applySteps({}, 'fact', 0, 3, table)).toThrow('no upgrade of facts from version 0 to 1');
  });

  it('has an upgrade step for every version from the oldest accepted to the one before the current', () => {
    const versions = Array.from(
      { length: FACTS_VERSION - MIN_FACTS_VERSION },
      (_, i) => MIN_FACTS_VERSION + i,
    );
    expect(upgradeSteps()).toEqual(versions);
  });

  it.each([
    ['no header', '', /no JSON header/],
    ['foreign JSON', '{"hello":1}\n', /does not name/],
    [
      'newer version',
      JSON.stringify({ format: FACTS_FORMAT, factsVersion: FACTS_VERSION + 1 }) + '\n',
      new RegExp(`version ${FACTS_VERSION + 1}; this reader knows versions 1 to ${FACTS_VERSION}`),
    ],
    [
      'version older than the oldest accepted',
      JSON.stringify({ format: FACTS_FORMAT, factsVersion: MIN_FACTS_VERSION - 1 }) + '\n',
      new RegExp(`version ${MIN_FACTS_VERSION - 1}; this reader knows versions`),
    ],
    [
      'version that is not a whole number',
      JSON.stringify({ format: FACTS_FORMAT, factsVersion: '2' }) + '\n',
      /version 2; this reader knows versions/,
    ],
    [
      'damaged line',
      encodeFacts(header, [pod('a', '2026-11-02T10:00:00Z')]).replace('"type":"pod"', '"type":"pod"}{'),
      /line 2 is not JSON/,
    ],
    [
      'not a fact',
      JSON.stringify({ format: FACTS_FORMAT, factsVersion: FACTS_VERSION, count: 1 }) +
        '\n{"type":"secret","at":"x"}\n',
      /line 2 is not a fact/,
    ],
    [
      'short object',
      encodeFacts(header, [pod('a', '2026-11-02T10:00:00Z'), pod('b', '2026-11-02T10:00:00Z')])
        .split('\n')
        .slice(0, 2)
        .join('\n'),
      /announces 2 facts but holds 1/,
    ],
  ])('refuses %s', (_name, text, message) => {
    expect(() => decodeFacts(text)).toThrow(message);
  });
});
