// The subscription filter pattern the stack puts on EKS audit log groups: it must keep
// everything the ingest keeps (under the strict reading of `!=` on a missing field), drop
// the bulk of what it does not (under the loose reading too), and fit CloudWatch's limit.
import { ingest } from '../../lib/ingest';
import { isRelevantAuditEvent } from '../../lib/ingest/filter';
import { createIngestStats } from '../../lib/ingest/stats';
import {
  auditFilterPattern,
  excludedResources,
  MAX_FILTER_PATTERN_LENGTH,
  patternMatches,
  renderPattern,
  type AbsentField,
  type Pattern,
} from '../../lib/ingest/subscription-filter';
import { IGNORED_RESOURCES } from '../../lib/fights/relevance';
import type { AuditEvent } from '../../lib/model/audit';
import { listLocal } from '../../lib/sources/local';
import { DEFAULT_SCENARIO_ORDER, simulateCluster } from '../../sim';
import { simulateFights, variedFights } from '../../sim/fights';
import { Rng } from '../../sim/rng';
import { describeWithCorpus, FIGHTS, SCENARIOS, SHARED_CORPUS } from '../support/shared-corpus';
import { auditEvent } from './fixtures';
import * as path from 'path';

const pattern = auditFilterPattern();
const READINGS: AbsentField[] = ['absent-fails', 'absent-matches'];

function event(
  verb: string,
  resource: string,
  extra: { subresource?: string; name?: string; apiGroup?: string } = {},
) {
  const ev = auditEvent({
    verb,
    resource,
    name: extra.name ?? 'x',
    ...(extra.subresource ? { subresource: extra.subresource } : {}),
  });
  if (extra.apiGroup !== undefined) ev.objectRef = { ...ev.objectRef, apiGroup: extra.apiGroup };
  return ev;
}

describe('auditFilterPattern', () => {
  it('renders within CloudWatch’s 1,024 characters, as one JSON pattern', () => {
    const text = renderPattern(pattern);
    expect(text.length).toBeLessThanOrEqual(MAX_FILTER_PATTERN_LENGTH);
    expect(text.startsWith('{ ') && text.endsWith(' }')).toBe(true);
    expect(text).toContain('$.objectRef.subresource NOT EXISTS');
  });

  it('refuses to render a pattern CloudWatch would reject as too long', () => {
    const long: Pattern = {
      op: '&&',
      of: Array.from({ length: 60 }, () => ({ op: '!=', field: '$.verb', value: 'x'.repeat(20) })),
    };
    expect(() => renderPattern(long)).toThrow(/over CloudWatch's 1024/);
  });

  it('excludes every resource a fight is never over, except those kept by a branch of their own', () => {
    const excluded = excludedResources();
    for (const r of IGNORED_RESOURCES) {
      const ev = event('update', r);
      const kept = patternMatches(pattern, ev, 'absent-matches');
      // ConfigMaps (koperator's broker configs) and KafkaClusters are read by the analysis.
      expect([r, kept]).toEqual([r, ['configmaps', 'kafkaclusters', 'secrets', 'nificlusters'].includes(r)]);
    }
    expect(excluded).toContain('*reviews');
    expect(excluded.length).toBeLessThan(IGNORED_RESOURCES.size);
  });

  // verb, resource, subresource, kept (under both readings)
  const rows: [string, string, string | undefined, boolean][] = [
    ['create', 'pods', undefined, true],
    ['delete', 'pods', undefined, true],
    ['create', 'pods', 'binding', true],
    ['create', 'pods', 'eviction', true],
    ['patch', 'pods', 'ephemeralcontainers', true],
    ['patch', 'pods', 'resize', true],
    ['patch', 'pods', 'status', true],
    ['update', 'configmaps', undefined, true],
    ['patch', 'kafkaclusters', undefined, true],
    ['update', 'kafkaclusters', 'status', false],
    ['patch', 'deployments', undefined, true],
    ['patch', 'deployments', 'scale', true],
    ['update', 'deployments', 'status', false],
    ['update', 'statefulsets', undefined, true],
    ['update', 'mutatingwebhookconfigurations', undefined, true],
    ['update', 'validatingwebhookconfigurations', undefined, true],
    ['patch', 'scaledobjects', undefined, true],
    ['get', 'pods', undefined, false],
    ['list', 'deployments', undefined, false],
    ['watch', 'pods', undefined, false],
    ['update', 'leases', undefined, false],
    ['create', 'events', undefined, false],
    ['create', 'tokenreviews', undefined, false],
    ['create', 'subjectaccessreviews', undefined, false],
    ['update', 'endpointslices', undefined, false],
    ['patch', 'nodes', 'status', false],
    // Secrets are shipped for NiFiKop's node configuration (the ingest keeps `<cluster>-config-<id>`, metadata only).
    ['update', 'secrets', undefined, true],
    ['patch', 'nificlusters', 'status', true],
    ['update', 'nifiusers', undefined, false],
    ['update', 'kafkatopics', undefined, false],
  ];
  it.each(rows)('%s %s/%s: kept %s', (verb, resource, subresource, kept) => {
    const ev = event(verb, resource, subresource ? { subresource } : {});
    for (const reading of READINGS)
      expect([reading, patternMatches(pattern, ev, reading)]).toEqual([reading, kept]);
  });

  it('matches values as CloudWatch does: wildcards only at the ends, objects never', () => {
    const w = (value: string): Pattern => ({ op: '=', field: '$.objectRef.resource', value });
    const ev = event('update', 'subjectaccessreviews');
    expect(patternMatches(w('*reviews'), ev, 'absent-fails')).toBe(true);
    expect(patternMatches(w('subject*'), ev, 'absent-fails')).toBe(true);
    expect(patternMatches(w('*access*'), ev, 'absent-fails')).toBe(true);
    expect(patternMatches(w('subject*reviews'), ev, 'absent-fails')).toBe(false);
    expect(patternMatches({ op: '!=', field: '$.objectRef', value: 'x' }, ev, 'absent-matches')).toBe(false);
  });
});

/** Every event the ingest keeps passes the filter, under the strict reading; most others do not pass, under the loose one. */
function expectFilterKeepsWhatIngestKeeps(events: readonly AuditEvent[]): {
  relevant: number;
  dropped: number;
} {
  const lost = events.filter((e) => isRelevantAuditEvent(e) && !patternMatches(pattern, e, 'absent-fails'));
  expect(
    lost.map((e) => `${e.verb} ${e.objectRef?.resource}/${e.objectRef?.subresource ?? ''} ${e.auditID}`),
  ).toEqual([]);
  const irrelevant = events.filter((e) => !isRelevantAuditEvent(e));
  const dropped = irrelevant.filter((e) => !patternMatches(pattern, e, 'absent-matches')).length;
  return { relevant: events.length - irrelevant.length, dropped };
}

describe('the pattern over simulated clusters', () => {
  it('is needed: the pattern log-shipping.md documented before loses fight evidence', () => {
    const before: Pattern = {
      op: '||',
      of: ['pods', 'kafkaclusters', 'configmaps'].map((value) => ({
        op: '=',
        field: '$.objectRef.resource',
        value,
      })),
    };
    const sim = simulateCluster({
      seed: 7,
      start: '2026-11-02T06:00:00Z',
      scenarios: [...DEFAULT_SCENARIO_ORDER],
    });
    const fights = simulateFights({
      seed: 7,
      start: '2026-11-02T06:00:00Z',
      level: 'RequestResponse',
      fights: variedFights(new Rng(7)),
    });
    const lost = [...sim.audit, ...fights.audit].filter(
      (e) => isRelevantAuditEvent(e) && !patternMatches(before, e, 'absent-matches'),
    );
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.every((e) => patternMatches(pattern, e, 'absent-fails'))).toBe(true);
  });

  it('keeps every event the ingest keeps, in every scenario, and drops most of the noise', () => {
    const sim = simulateCluster({
      seed: 7,
      start: '2026-11-02T06:00:00Z',
      noiseRatio: 0.6,
      scenarios: [...DEFAULT_SCENARIO_ORDER],
    });
    const { relevant, dropped } = expectFilterKeepsWhatIngestKeeps(sim.audit);
    expect(relevant).toBeGreaterThan(0);
    const irrelevant = sim.audit.length - relevant;
    expect(dropped / irrelevant).toBeGreaterThan(0.5);
  });
});

for (const dir of [SCENARIOS, FIGHTS, path.join(SHARED_CORPUS, 'drift')]) {
  describeWithCorpus(dir, `the pattern over the shared corpus ${path.basename(dir)}`, () => {
    it('keeps every audit event the ingest keeps', async () => {
      const events: AuditEvent[] = [];
      const stats = createIngestStats();
      for await (const rec of ingest(listLocal(path.join(dir, 'audit')), stats, { relevantOnly: false }))
        if (rec.kind === 'audit') events.push(rec.event);
      expect(events.length).toBeGreaterThan(0);
      const { relevant, dropped } = expectFilterKeepsWhatIngestKeeps(events);
      expect(relevant).toBeGreaterThan(0);
      process.stdout.write(
        `subscription filter, ${path.basename(dir)}: ${events.length} events, ${relevant} kept by the ingest, ${dropped} of the rest dropped by the pattern\n`,
      );
    }, 120_000);
  });
}
