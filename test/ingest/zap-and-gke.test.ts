// The two formats whose fields are mapped rather than copied: zap's `ts` and GKE LogEntries.
import { gkeEntryToAuditObject, parseMethodName, parseResourceName } from '../../lib/ingest/formats/gke';
import { isZapShaped, normaliseTs, toOperatorLine } from '../../lib/ingest/formats/zap';

describe('zap ts → RFC 3339 UTC with milliseconds', () => {
  it.each([
    ['2026-11-02T09:31:09.762Z', '2026-11-02T09:31:09.762Z'],
    ['2026-11-02T09:31:09Z', '2026-11-02T09:31:09.000Z'],
    ['2026-11-02T09:31:09.762123456Z', '2026-11-02T09:31:09.762Z'],
    ['2026-11-02T10:31:09.762+0100', '2026-11-02T09:31:09.762Z'],
    ['2026-11-02T04:01:09.762-05:30', '2026-11-02T09:31:09.762Z'],
    ['2026-11-02 09:31:09.762', '2026-11-02T09:31:09.762Z'],
    [1793611869.762, '2026-11-02T09:31:09.762Z'],
    [1793611869.123, '2026-11-02T09:31:09.123Z'],
    ['1793611869.762', '2026-11-02T09:31:09.762Z'],
    [1793611869762, '2026-11-02T09:31:09.762Z'],
    [1793611869762123000, '2026-11-02T09:31:09.762Z'],
    ['yesterday', null],
    [null, null],
    [-5, null],
    [{}, null],
  ])('%p → %p', (ts, want) => {
    expect(normaliseTs(ts)).toBe(want);
  });

  it('keeps every other key as logged, older key names included', () => {
    const v = {
      level: 'info',
      ts: 1793611869.5,
      msg: 'CR status updated',
      logger: 'controllers.KafkaCluster',
      'Request.Namespace': 'kafka',
      'Request.Name': 'c',
      status: 'ClusterRunning',
    };
    expect(toOperatorLine(v)).toEqual({
      ts: '2026-11-02T09:31:09.500Z',
      level: 'info',
      msg: 'CR status updated',
      fields: {
        logger: 'controllers.KafkaCluster',
        'Request.Namespace': 'kafka',
        'Request.Name': 'c',
        status: 'ClusterRunning',
      },
    });
  });

  it.each([
    // NiFiKop's production encoder names the time `time` (nifikop #346, #600).
    [
      {
        level: 'info',
        time: '2026-08-13T09:01:02.345Z',
        msg: 'Deleting pod p',
        logger: 'controllers.NifiCluster',
      },
      '2026-08-13T09:01:02.345Z',
      { logger: 'controllers.NifiCluster' },
    ],
    // `ts` is the time where both are present; `time` is then a field like any other.
    [{ level: 'info', ts: 1793611869.5, time: 'x', msg: 'm' }, '2026-11-02T09:31:09.500Z', { time: 'x' }],
  ])('reads the time from `ts`, else from `time`: %j', (v, ts, fields) => {
    expect(isZapShaped(v)).toBe(true);
    expect(toOperatorLine(v)).toEqual({ ts, level: 'info', msg: v.msg, fields });
  });

  it('a line with neither `ts` nor a string `time` is no zap line', () => {
    expect(isZapShaped({ level: 'info', msg: 'm', time: 5 })).toBe(false);
  });
});

describe('GKE LogEntry → audit Event', () => {
  it.each([
    ['io.k8s.core.v1.pods.create', { verb: 'create', resource: 'pods', subresource: undefined }],
    ['io.k8s.core.v1.pods.binding.create', { verb: 'create', resource: 'pods', subresource: 'binding' }],
    ['io.k8s.core.v1.pods.eviction.create', { verb: 'create', resource: 'pods', subresource: 'eviction' }],
    ['io.k8s.core.v1.pods.status.patch', { verb: 'patch', resource: 'pods', subresource: 'status' }],
    ['io.k8s.coordination.v1.leases.update', { verb: 'update', resource: 'leases', subresource: undefined }],
    [
      'io.k8s.kafka.banzaicloud.io.v1beta1.kafkaclusters.patch',
      { verb: 'patch', resource: 'kafkaclusters', subresource: undefined },
    ],
  ])('methodName %s', (m, want) => {
    expect(parseMethodName(m)).toEqual(want);
  });

  it.each([
    [
      'core/v1/namespaces/ns/pods/p-1',
      {
        apiGroup: '',
        apiVersion: 'v1',
        namespace: 'ns',
        resource: 'pods',
        name: 'p-1',
        subresource: undefined,
      },
    ],
    [
      'core/v1/namespaces/ns/pods/p-1/status',
      {
        apiGroup: '',
        apiVersion: 'v1',
        namespace: 'ns',
        resource: 'pods',
        name: 'p-1',
        subresource: 'status',
      },
    ],
    [
      'core/v1/namespaces/ns/pods',
      {
        apiGroup: '',
        apiVersion: 'v1',
        namespace: 'ns',
        resource: 'pods',
        name: undefined,
        subresource: undefined,
      },
    ],
    [
      'core/v1/nodes/n-1',
      { apiGroup: '', apiVersion: 'v1', resource: 'nodes', name: 'n-1', subresource: undefined },
    ],
    [
      'core/v1/namespaces/foo',
      { apiGroup: '', apiVersion: 'v1', resource: 'namespaces', name: 'foo', subresource: undefined },
    ],
  ])('resourceName %s', (r, want) => {
    expect(parseResourceName(r)).toEqual(want);
  });

  it('a long-running request: first entry is ResponseStarted, last is ResponseComplete', () => {
    const base = {
      protoPayload: { serviceName: 'k8s.io', methodName: 'io.k8s.core.v1.pods.exec.create' },
      timestamp: '2026-01-01T00:00:00Z',
    };
    expect(gkeEntryToAuditObject({ ...base, operation: { id: 'a', first: true } }).stage).toBe(
      'ResponseStarted',
    );
    expect(gkeEntryToAuditObject({ ...base, operation: { id: 'a', last: true } }).stage).toBe(
      'ResponseComplete',
    );
  });
});
