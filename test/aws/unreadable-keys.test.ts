// What an S3 error on a read means, per reader: a log object that is gone is skipped
// (not retried for hours), one refused is retried (then dead-lettered); a missing alert
// state or findings history is "none yet" only on a 404, and a 403 there names the
// permission that turns it into a 404.
import { S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { loadAlertState } from '../../lib/aws/alert-state-store';
import { ingestConfigFromEnv } from '../../lib/aws/env-config';
import { writeFindingsHistory } from '../../lib/aws/findings-history';
import { ingestS3Object } from '../../lib/aws/ingest-object';

const s3Error = (name: string, status: number): S3ServiceException =>
  new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message: name });

/** An S3 client whose every request fails with `err`. */
const failing = (err: unknown): S3Client => ({ send: () => Promise.reject(err) }) as unknown as S3Client;

const config = ingestConfigFromEnv({ BUCKET: 'b', LOGS_PREFIX: 'logs/', FACTS_PREFIX: 'facts/' });
const ref = { bucket: 'b', key: 'logs/eks-a/x.log', etag: 'abc', size: 10, eventName: 'ObjectCreated:Put' };

describe('ingest of a log object S3 will not return', () => {
  it.each([
    ['NoSuchKey', 404, 'gone'],
    ['NotFound', 404, 'gone'],
    ['PreconditionFailed', 412, 'superseded'],
  ])('%s (%i) is skipped as %s, not retried', async (name, status, outcome) => {
    const r = await ingestS3Object(failing(s3Error(name, status)), config, ref);
    expect(r.outcome).toEqual({ status: outcome });
    expect(r.records).toBe(0);
  });

  it.each([
    // With s3:ListBucket a deleted object answers 404; a 403 is a policy's denial, worth the DLQ and a redrive.
    ['AccessDenied', 403],
    ['InternalError', 500],
    ['SlowDown', 503],
  ])('%s (%i) is thrown, so the message is retried', async (name, status) => {
    await expect(ingestS3Object(failing(s3Error(name, status)), config, ref)).rejects.toThrow(name);
  });
});

describe('reads of keys that may not exist yet', () => {
  const readers: [string, (s3: S3Client) => Promise<unknown>][] = [
    ['alert state', (s3) => loadAlertState(s3, 'b', 'state/cluster=a/alerts.json')],
    [
      'findings history',
      (s3) =>
        writeFindingsHistory(
          s3,
          {
            bucket: 'b',
            prefix: 'findings/',
            statePrefix: 'state/',
            cluster: 'a',
            window: { from: '2026-11-02T00:00:00Z', to: '2026-11-02T06:00:00Z' },
            settleSeconds: 3600,
            loopStartedAt: () => '2026-11-02T00:00:00Z',
          },
          { recreations: [], loops: [], fights: [] } as never,
        ),
    ],
  ];

  it.each(readers)('%s: a 404 is "none yet"', async (_, read) => {
    // The history writer goes on to write; the first write after the 404 is the proof it read "none".
    const calls: string[] = [];
    const s3 = {
      send: (cmd: { constructor: { name: string } }) => {
        calls.push(cmd.constructor.name);
        return cmd.constructor.name === 'GetObjectCommand'
          ? Promise.reject(s3Error('NoSuchKey', 404))
          : Promise.resolve({ ETag: '"e"' });
      },
    } as unknown as S3Client;
    await read(s3);
    expect(calls[0]).toBe('GetObjectCommand');
  });

  it.each(readers)('%s: a 403 fails, naming s3:ListBucket', async (_, read) => {
    await expect(read(failing(s3Error('AccessDenied', 403)))).rejects.toThrow(
      /access denied reading s3:\/\/b\/state\/cluster=a\/.*s3:ListBucket/,
    );
  });

  it.each(readers)('%s: other errors pass unchanged', async (_, read) => {
    await expect(read(failing(s3Error('InternalError', 500)))).rejects.toThrow('InternalError');
  });
});
