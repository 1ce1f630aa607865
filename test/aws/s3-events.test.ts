import {
  buildS3Notification,
  decodeNotificationKey,
  encodeNotificationKey,
  parseS3Notification,
} from '../../lib/aws/s3-events';

describe('S3 event notifications', () => {
  const built = buildS3Notification([{ bucket: 'b', key: 'logs/eks a/x+y ü.gz', size: 10, etag: '"abc"' }], {
    region: 'eu-west-1',
    eventTime: new Date('2026-11-02T10:00:00Z'),
  });

  it('round-trips what backfill writes, with S3-style key encoding', () => {
    expect(built.Records[0]!.s3.object.key).toBe('logs/eks+a/x%2By+%C3%BC.gz');
    expect(parseS3Notification(JSON.stringify(built))).toEqual({
      kind: 'objects',
      objects: [
        {
          bucket: 'b',
          key: 'logs/eks a/x+y ü.gz',
          size: 10,
          etag: 'abc',
          eventName: 'ObjectCreated:Put',
          // When S3 created it: the ingest judges the evidence's age by it, not by its own clock.
          arrivedAt: '2026-11-02T10:00:00.000Z',
        },
      ],
      ignored: [],
    });
  });

  it.each([
    ['logs/a+b.gz', 'logs/a b.gz'],
    ['logs/a%2Bb.gz', 'logs/a+b.gz'],
    ['logs/%3D.gz', 'logs/=.gz'],
  ])('decodes key %s as %s', (k, d) => expect(decodeNotificationKey(k)).toBe(d));

  it('keeps slashes readable when encoding', () => expect(encodeNotificationKey('a/b c/d')).toBe('a/b+c/d'));

  it.each<[string, unknown, unknown]>([
    [
      'the s3:TestEvent sent when the notification is set up',
      { Service: 'Amazon S3', Event: 's3:TestEvent', Bucket: 'b' },
      { kind: 'test' },
    ],
    [
      'a removal (listed as ignored, never read)',
      {
        Records: [{ eventName: 'ObjectRemoved:Delete', s3: { bucket: { name: 'b' }, object: { key: 'k' } } }],
      },
      { kind: 'objects', objects: [], ignored: ['ObjectRemoved:Delete s3://b/k'] },
    ],
    [
      'a notification without ETag (read the current version)',
      {
        Records: [
          {
            eventName: 'ObjectCreated:CompleteMultipartUpload',
            s3: { bucket: { name: 'b' }, object: { key: 'k' } },
          },
        ],
      },
      {
        kind: 'objects',
        objects: [
          {
            bucket: 'b',
            key: 'k',
            size: null,
            etag: null,
            eventName: 'ObjectCreated:CompleteMultipartUpload',
          },
        ],
        ignored: [],
      },
    ],
  ])('reads %s', (_n, body, expected) => expect(parseS3Notification(JSON.stringify(body))).toEqual(expected));

  it('unwraps a notification delivered through SNS without raw delivery', () => {
    const wrapped = { Type: 'Notification', Message: JSON.stringify(built) };
    expect(parseS3Notification(JSON.stringify(wrapped))).toMatchObject({
      kind: 'objects',
      objects: [{ key: 'logs/eks a/x+y ü.gz' }],
    });
  });

  it.each([
    ['not JSON', 'hello', /not JSON/],
    ['foreign JSON', '{"a":1}', /not an S3 event notification/],
    ['a record without s3', '{"Records":[{}]}', /lacks s3.bucket/],
  ])('rejects %s (the message then fails alone and ends in the DLQ)', (_n, body, msg) =>
    expect(() => parseS3Notification(body)).toThrow(msg),
  );
});
