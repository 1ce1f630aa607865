import { decodeFacts, encodeFacts, FACTS_FORMAT, MIN_FACTS_VERSION, UPGRADES } from '../../lib/facts/codec';
import { FACTS_VERSION, type Fact, type PodWriteFact } from '../../lib/model/facts';
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
    ['1 (no newestEventAt: unknown)', asWritten(1, {}), null],
    ['2', asWritten(2, { newestEventAt: '2026-11-02T10:30:00Z' }), '2026-11-02T10:30:00Z'],
  ])('reads version %s as the current version', (_v, text, newest) => {
    const read = decodeFacts(text);
    expect(read.header).toEqual({
      format: FACTS_FORMAT,
      factsVersion: FACTS_VERSION,
      ...header,
      count: 2,
      newestEventAt: newest,
    });
    expect(read.facts).toEqual(facts);
  });

  it('has one upgrade step for every version it reads below the current one', () => {
    const steps = Object.keys(UPGRADES)
      .map(Number)
      .sort((a, b) => a - b);
    expect(steps).toEqual(
      Array.from({ length: FACTS_VERSION - MIN_FACTS_VERSION }, (_, i) => MIN_FACTS_VERSION + i),
    );
  });

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

  it.each([
    ['no header', '', /no JSON header/],
    ['foreign JSON', '{"hello":1}\n', /does not name/],
    [
      'newer version',
      JSON.stringify({ format: FACTS_FORMAT, factsVersion: FACTS_VERSION + 1 }) + '\n',
      new RegExp(
        `version ${FACTS_VERSION + 1}; this reader knows versions ${MIN_FACTS_VERSION} to ${FACTS_VERSION}`,
      ),
    ],
    [
      'a version older than the oldest it reads',
      JSON.stringify({ format: FACTS_FORMAT, factsVersion: MIN_FACTS_VERSION - 1 }) + '\n',
      /this reader knows versions/,
    ],
    [
      'a version that is no integer',
      JSON.stringify({ format: FACTS_FORMAT, factsVersion: '2' }) + '\n',
      /version 2; this reader knows/,
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
