import { redactEnvIn, redactField, REDACTED, REDACTED_CHANGED } from '../../lib/analyze/redact';

describe('redactField', () => {
  it.each([
    [
      'an allowlisted env value stays',
      'spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS].value',
      '-Xmx2G',
      '-Xmx4G',
      '-Xmx2G',
      '-Xmx4G',
    ],
    [
      'another env value is hidden',
      'spec.containers[name=kafka].env[name=DB_PASSWORD].value',
      'hunter2',
      's3cret',
      REDACTED_CHANGED,
      REDACTED_CHANGED,
    ],
    [
      'an added env value is hidden, absence kept',
      'spec.containers[name=kafka].env[name=TOKEN].value',
      null,
      'abc',
      null,
      REDACTED_CHANGED,
    ],
    ['a resource value stays', 'spec.containers[name=kafka].resources.requests.cpu', '1', '2', '1', '2'],
  ])('%s', (_label, path, from, to, wantFrom, wantTo) => {
    expect(redactField(path, from, to)).toEqual({ from: wantFrom, to: wantTo });
  });

  it('hides env values inside a whole container, keeps valueFrom refs and allowlisted values', () => {
    const container = {
      name: 'sidecar',
      env: [
        { name: 'API_KEY', value: 'AKIAXXXX' },
        { name: 'KAFKA_OPTS', value: '-Dx=1' },
        { name: 'PW', valueFrom: { secretKeyRef: { name: 's', key: 'pw' } } },
      ],
    };
    expect(redactEnvIn(container, ['KAFKA_OPTS'])).toEqual({
      name: 'sidecar',
      env: [
        { name: 'API_KEY', value: REDACTED },
        { name: 'KAFKA_OPTS', value: '-Dx=1' },
        { name: 'PW', valueFrom: { secretKeyRef: { name: 's', key: 'pw' } } },
      ],
    });
  });
});
