// The S3 source against a real S3 emulator (fauxqs over HTTP): paging through more than
// 1000 keys, streaming GetObject, and the same records as the same bytes read locally.
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { listS3, parseS3Uri } from '../../lib/aws/s3-source';
import type { LogRecord } from '../../lib/model/record';
import { encodeAudit, encodeOperator } from '../../sim/encode';
import type { SourceObject } from '../../lib/sources/types';
import { listLocal } from '../../lib/sources/local';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { mixedEvents, operatorLines, readAll } from '../ingest/fixtures';

describe('parseS3Uri', () => {
  it.each([
    ['s3://bucket', { bucket: 'bucket', prefix: '' }],
    ['s3://bucket/', { bucket: 'bucket', prefix: '' }],
    ['s3://bucket/logs/2026/', { bucket: 'bucket', prefix: 'logs/2026/' }],
    ['s3://bucket/a/b.gz', { bucket: 'bucket', prefix: 'a/b.gz' }],
    ['s3:///key', null],
    ['/local/path', null],
    ['https://bucket.s3.amazonaws.com/x', null],
  ])('%s', (uri, want) => {
    expect(parseS3Uri(uri)).toEqual(want);
  });
});

describe('listS3 against fauxqs', () => {
  let fx: Fauxqs;
  let s3: S3Client;
  const bucket = 'audit-logs';
  const many = 1005;
  const files: Record<string, Buffer> = {};

  beforeAll(async () => {
    fx = await startFauxqs();
    s3 = new S3Client(fx.clientConfig);
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const events = mixedEvents().map((f) => f.event);
    files['logs/apiserver/audit.log.gz'] = encodeAudit('audit-jsonl', events, { gzip: true });
    files['logs/firehose/2026/11/02/stream-1'] = encodeAudit('eks-firehose-cwl', events, {
      cloudWatch: { perPayload: 3, controlMessage: true },
    });
    files['logs/webhook/eventlist.json'] = encodeAudit('audit-eventlist-pretty', events);
    files['logs/operator/manager.log'] = encodeOperator('cri', operatorLines(), { maxPart: 200 });
    files['logs/README.txt'] = Buffer.from('not a log\n');
    files['logs/empty'] = Buffer.alloc(0);
    const line = encodeOperator('zap-json', operatorLines().slice(0, 1));
    for (let i = 0; i < many; i++) files[`many/part-${String(i).padStart(5, '0')}.log`] = line;
    const keys = Object.keys(files);
    for (let i = 0; i < keys.length; i += 25) {
      await Promise.all(
        keys
          .slice(i, i + 25)
          .map((Key) => s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: files[Key] }))),
      );
    }
  }, 120_000);
  afterAll(async () => {
    s3?.destroy();
    await fx?.stop();
  });

  async function names(objs: AsyncIterable<SourceObject>): Promise<string[]> {
    const out: string[] = [];
    for await (const o of objs) out.push(o.name);
    return out;
  }

  it.each([undefined, 1000, 333, 7])('pages through %s keys per page, in key order', async (pageSize) => {
    const got = await names(listS3(s3, `s3://${bucket}/many/`, { pageSize }));
    expect(got).toHaveLength(many);
    expect(got).toEqual([...got].sort());
    expect(got[0]).toBe(`s3://${bucket}/many/part-00000.log`);
  });

  it('lists sizes, and a prefix selects', async () => {
    const objs: SourceObject[] = [];
    for await (const o of listS3(s3, `s3://${bucket}/logs/`)) objs.push(o);
    // Sorted before comparing: fauxqs orders mixed-case keys case-insensitively, S3 by bytes.
    expect(objs.map((o) => [o.name.slice(`s3://${bucket}/`.length), o.size]).sort()).toEqual(
      Object.keys(files)
        .filter((k) => k.startsWith('logs/'))
        .map((k) => [k, files[k].length])
        .sort(),
    );
  });

  it('reads the same records and stats through S3 as from local files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'koperator-audit-s3-'));
    try {
      for (const [k, b] of Object.entries(files)) {
        if (!k.startsWith('logs/')) continue;
        fs.mkdirSync(path.dirname(path.join(dir, k)), { recursive: true });
        fs.writeFileSync(path.join(dir, k), b);
      }
      const viaS3 = await readAll(listS3(s3, `s3://${bucket}/logs/`));
      const local = await readAll(listLocal(path.join(dir, 'logs')));
      const strip = (recs: LogRecord[], prefix: string): unknown[] =>
        recs.map((r) => ({ ...r, at: { ...r.at, source: r.at.source.slice(prefix.length) } }));
      expect(strip(viaS3.records, `s3://${bucket}/logs/`)).toEqual(
        strip(local.records, `${path.join(dir, 'logs')}/`),
      );
      expect(viaS3.records.length).toBeGreaterThan(10);
      const counts = (s: typeof viaS3.stats): unknown => ({
        ...s,
        details: s.details.map((d) => ({ ...d, source: path.basename(d.source) })),
      });
      expect(counts(viaS3.stats)).toEqual(counts(local.stats));
      expect(viaS3.stats.files).toEqual({ read: 6, empty: 1, foreign: 1, errors: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads 1005 objects through ingest', async () => {
    const { records, stats } = await readAll(listS3(s3, `s3://${bucket}/many/`, { pageSize: 400 }));
    expect(records).toHaveLength(many);
    expect(stats.files.read).toBe(many);
  });

  it('a bucket that does not exist: the listing error is reported, not thrown', async () => {
    const { records, stats } = await readAll(listS3(s3, 's3://no-such-bucket/x/'));
    expect(records).toEqual([]);
    expect(stats.files.errors).toBe(1);
    expect(stats.details[0]).toMatchObject({ source: 'listing', reason: 'list-error' });
  });

  it('an object deleted between listing and reading is one open error', async () => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'doomed/x.log', Body: 'x' }));
    const listed: SourceObject[] = [];
    for await (const o of listS3(s3, `s3://${bucket}/doomed/`)) listed.push(o);
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'doomed/x.log' }));
    const { stats } = await readAll(listed);
    // Not opened, so not read: an input error.
    expect(stats.files).toEqual({ read: 0, empty: 0, foreign: 0, errors: 1 });
    expect(stats.details).toEqual([
      { source: `s3://${bucket}/doomed/x.log`, line: 0, reason: 'open-error', note: expect.any(String) },
    ]);
  });
});
