// The CLI's analysis of an s3:// prefix equals its analysis of the same files on disk:
// one pipeline, two sources, against a real S3 API (fauxqs).
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { promises as fs } from 'fs';
import * as path from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { listLocal } from '../../lib/sources/local';
import { analyzeInputs } from '../../lib/pipeline/analyze-inputs';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples', 'logs');

describe('analyzeInputs over s3://', () => {
  let fx: Fauxqs;
  beforeAll(async () => {
    fx = await startFauxqs();
  });
  afterAll(async () => fx?.stop());

  it('finds the same recreations and loops as over the local folder', async () => {
    const s3 = new S3Client(fx.clientConfig);
    await s3.send(new CreateBucketCommand({ Bucket: 'audit' }));
    for await (const o of listLocal(EXAMPLES)) {
      const key = 'eks/prod/' + path.relative(EXAMPLES, o.name).split(path.sep).join('/');
      await s3.send(new PutObjectCommand({ Bucket: 'audit', Key: key, Body: await fs.readFile(o.name) }));
    }
    const local = await analyzeInputs([EXAMPLES], defaultAnalysisOptions(), {});
    const remote = await analyzeInputs(
      ['s3://audit/eks/prod/'],
      defaultAnalysisOptions(),
      {},
      {
        s3Client: async () => s3,
      },
    );
    expect(remote.recreations.length).toBeGreaterThan(20);
    // Evidence names where each operator line was read; only that place differs.
    const sameSource = local.recreations.map((r) => ({
      ...r,
      evidence: r.evidence.map((e) => e.split(EXAMPLES + path.sep).join('s3://audit/eks/prod/')),
    }));
    expect(remote.recreations).toEqual(sameSource);
    expect(remote.loops).toEqual(local.loops);
  });
});
