import {
  alertSubject,
  buildSnsMessage,
  parseAlertMessage,
  sanitiseSubject,
  severityOf,
  SNS_MAX_BYTES,
  toAlertMessage,
} from '../../lib/notify/message';
import { ctx, loop, loopEvent, recreation, recreationEvent } from './fixtures';

describe('SNS alert message', () => {
  it('carries the finding in contract shape plus cluster, and the report pointer', () => {
    const m = toAlertMessage(loopEvent, ctx);
    const built = buildSnsMessage(m);
    const body = JSON.parse(built.body);
    expect(body).toMatchObject({
      schema: 'koperator-audit/alert',
      version: 1,
      event: 'loop-started',
      id: 'id-loop',
      cluster: 'eks-prod',
      findingType: 'loop',
      totalCount: 12,
      report: ctx.report,
    });
    expect(body.finding).toEqual({ ...loop, cluster: 'eks-prod' });
    expect(parseAlertMessage(built.body)).toEqual(m);
  });

  it('sets the attributes filter policies match on', () => {
    const built = buildSnsMessage(toAlertMessage(recreationEvent, ctx));
    expect(Object.fromEntries(Object.entries(built.attributes).map(([k, v]) => [k, v.StringValue]))).toEqual({
      event: 'recreation',
      classification: 'external-mutation-revert',
      severity: 'warning',
      namespace: 'kafka',
      kafkaCluster: 'pipeline-kafka',
      cluster: 'eks-prod',
    });
    expect(Object.values(built.attributes).every((a) => a.DataType === 'String')).toBe(true);
  });

  it.each([
    [loopEvent, 'critical'],
    [{ ...loopEvent, loop: { ...loop, active: false } }, 'warning'],
    [{ ...loopEvent, event: 'loop-ended' as const }, 'info'],
    [recreationEvent, 'warning'],
    [{ ...recreationEvent, recreation: { ...recreation, classification: 'intent-change' as const } }, 'info'],
  ])('severity of %#', (ev, severity) => expect(severityOf(ev)).toBe(severity));

  it('keeps subjects ASCII, single-line and under 100 characters', () => {
    expect(alertSubject(toAlertMessage(loopEvent, ctx))).toBe(
      '[eks-prod] loop started: kafka/pipeline-kafka broker 4 (external-mutation-revert, 12x)',
    );
    const long = sanitiseSubject(`ünïcode\nline ${'x'.repeat(200)}`);
    expect(long.length).toBeLessThan(100);
    expect(long).toMatch(/^[\x20-\x7e]+$/);
    expect(long.startsWith('unicode line')).toBe(true);
    const longCluster = alertSubject({ ...toAlertMessage(loopEvent, ctx), cluster: 'c'.repeat(150) });
    expect(longCluster.length).toBeLessThan(100);
  });

  it('trims a body too big for SNS, says what it trimmed, and keeps the report pointer', () => {
    const huge = {
      ...recreation,
      evidence: Array.from({ length: 5000 }, (_, i) => `audit-${i}-${'e'.repeat(40)}`),
      fields: [{ path: 'spec.affinity', from: { blob: 'a'.repeat(300_000) }, to: null, by: null }],
    };
    const built = buildSnsMessage(toAlertMessage({ ...recreationEvent, recreation: huge }, ctx));
    expect(Buffer.byteLength(built.body)).toBeLessThan(SNS_MAX_BYTES);
    const body = JSON.parse(built.body);
    expect(body.truncated).toEqual(['fields.from', 'fields.to', 'evidence']);
    expect(body.finding.evidence).toHaveLength(21);
    expect(String(body.finding.fields[0].from)).toMatch(/chars, see report\)$/);
    expect(body.report).toEqual(ctx.report);
  });

  it('falls back to paths only when values still do not fit a small limit', () => {
    const many = {
      ...recreation,
      fields: Array.from({ length: 40 }, (_, i) => ({
        path: `spec.x${i}`,
        from: 'v'.repeat(1000),
        to: 'w'.repeat(1000),
        by: 'someone',
      })),
    };
    const built = buildSnsMessage(toAlertMessage({ ...recreationEvent, recreation: many }, ctx), 16_000);
    const body = JSON.parse(built.body);
    expect(body.truncated).toEqual(['fields', 'evidence', 'values']);
    expect(body.finding.fields[0]).toEqual({ path: 'spec.x0', from: null, to: null, by: 'someone' });
  });

  it.each([
    ['not JSON', 'hello', /not JSON/],
    ['foreign JSON', '{"a":1}', /not a koperator-audit alert/],
    ['other version', JSON.stringify({ schema: 'koperator-audit/alert', version: 9 }), /version 9/],
  ])('refuses to parse %s', (_n, text, msg) => expect(() => parseAlertMessage(text)).toThrow(msg));
});
