import { renderReport } from '../../lib/report';
import { buildFixture } from './fixture';

describe('JSON report', () => {
  const doc = buildFixture();
  const text = renderReport(doc, 'json', { color: true });

  it('round-trips to the input document, named by schema and version, with fights, drifts and inputErrors always present', () => {
    expect(JSON.parse(text)).toEqual({
      schema: 'koperator-audit/findings',
      version: 1,
      ...doc,
      summary: { ...doc.summary, inputErrors: [] },
    });
  });

  it('carries the input errors it is given', () => {
    const failed = { input: 's3://audit/eks/', reason: 'no AWS region (set AWS_REGION or --region)' };
    const parsed = JSON.parse(
      renderReport({ ...doc, summary: { ...doc.summary, inputErrors: [failed] } }, 'json', { color: false }),
    );
    expect(parsed.summary.inputErrors).toEqual([failed]);
  });

  it('is 2-space JSON ending in one newline', () => {
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('writes keys in contract order whatever order the objects were built in', () => {
    const shuffled = buildFixture();
    const r = shuffled.recreations[0];
    shuffled.drifts = shuffled.drifts?.map(
      (d) => Object.fromEntries(Object.entries(d).reverse()) as typeof d,
    );
    shuffled.fights = shuffled.fights?.map(
      (f) => Object.fromEntries(Object.entries(f).reverse()) as typeof f,
    );
    // Rebuild the first recreation with its keys reversed.
    shuffled.recreations[0] = Object.fromEntries(Object.entries(r).reverse()) as typeof r;
    const parsed = JSON.parse(renderReport(shuffled, 'json', { color: false }));
    expect(Object.keys(parsed)).toEqual([
      'schema',
      'version',
      'recreations',
      'loops',
      'fights',
      'drifts',
      'summary',
    ]);
    // drift.md's keys, in its order.
    expect(Object.keys(parsed.drifts[0])).toEqual([
      'namespace',
      'kafkaCluster',
      'brokerId',
      'pod',
      'at',
      'by',
      'verb',
      'subresource',
      'kind',
      'fields',
      'severity',
      'ended',
      'preFixWouldRevert',
      'evidence',
    ]);
    expect(Object.keys(parsed.recreations[0])).toEqual([
      'namespace',
      'kafkaCluster',
      'brokerId',
      'deletedPod',
      'createdPod',
      'classification',
      'fields',
      'wouldRestart',
      'evidence',
    ]);
    expect(Object.keys(parsed.recreations[0].deletedPod)).toEqual(['name', 'uid', 'deletedAt', 'deletedBy']);
    expect(Object.keys(parsed.loops[0])).toEqual([
      'namespace',
      'kafkaCluster',
      'brokerId',
      'classification',
      'count',
      'firstAt',
      'lastAt',
      'periodSeconds',
      'fields',
      'mutators',
      'active',
      'recommendation',
    ]);
    // fights.md's keys, in its order; the target keeps its slot only where there is one.
    expect(parsed.fights.map((f: object) => Object.keys(f))).toEqual(
      parsed.fights.map(() => [
        'kind',
        'namespace',
        'target',
        'writers',
        'mutators',
        'fields',
        'count',
        'firstAt',
        'lastAt',
        'periodSeconds',
        'active',
        'recommendation',
        'evidence',
      ]),
    );
    expect(parsed.fights.map((f: { target: object }) => Object.keys(f.target))).toEqual([
      ['apiGroup', 'resource', 'name', 'slot'],
      ['apiGroup', 'resource', 'name'],
      ['apiGroup', 'resource', 'name'],
    ]);
  });

  it('always carries fights, an empty array when there are none', () => {
    const { fights: _none, ...withoutFights } = buildFixture();
    expect(JSON.parse(renderReport(withoutFights, 'json', { color: false })).fights).toEqual([]);
  });

  it('always carries drifts, an empty array when there are none', () => {
    const { drifts: _none, ...withoutDrifts } = buildFixture();
    expect(JSON.parse(renderReport(withoutDrifts, 'json', { color: false })).drifts).toEqual([]);
  });

  it('ignores the colour option', () => {
    expect(renderReport(doc, 'json', { color: false })).toBe(text);
  });

  it('keeps createdPod and wouldRestart as explicit nulls', () => {
    const parsed = JSON.parse(text);
    const downscale = parsed.recreations.find(
      (r: { deletedPod: { name: string } }) => r.deletedPod.name === 'orders-kafka-3-p4q8z',
    );
    expect(downscale).toHaveProperty('createdPod', null);
    const unknown = parsed.recreations.find(
      (r: { classification: string }) => r.classification === 'unknown',
    );
    expect(unknown).toHaveProperty('wouldRestart', null);
  });
});
