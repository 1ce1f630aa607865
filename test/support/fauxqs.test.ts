import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startFauxqs, type Fauxqs } from './fauxqs';

describe('fauxqs test server', () => {
  let fx: Fauxqs;
  beforeAll(async () => {
    fx = await startFauxqs();
  });
  afterAll(async () => fx?.stop());

  it('stores and returns an S3 object over the wire', async () => {
    const s3 = new S3Client(fx.clientConfig);
    await s3.send(new CreateBucketCommand({ Bucket: 'probe' }));
    await s3.send(new PutObjectCommand({ Bucket: 'probe', Key: 'a/b.txt', Body: 'hello' }));
    const got = await s3.send(new GetObjectCommand({ Bucket: 'probe', Key: 'a/b.txt' }));
    expect(await got.Body?.transformToString()).toBe('hello');
  });
});
