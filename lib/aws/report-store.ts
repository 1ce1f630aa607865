// Each analysis run's full JSON report, and the link to it that alerts carry.
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export interface ReportLink {
  uri: string;
  url?: string;
  html?: { uri: string; url?: string };
}

export async function writeReport(
  s3: S3Client,
  bucket: string,
  key: string,
  report: unknown,
  link: { mode: 's3' | 'presigned'; expiresSeconds: number },
  /** The same run rendered for people, stored beside the JSON as `<key>.html`. */
  html?: string,
): Promise<ReportLink> {
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: JSON.stringify(report, null, 1),
      ContentType: 'application/json',
    }),
  );
  const htmlKey = html === undefined ? null : key.replace(/\.json$/, '') + '.html';
  if (htmlKey !== null) {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: htmlKey,
        Body: html,
        ContentType: 'text/html; charset=utf-8',
      }),
    );
  }
  const result: ReportLink = { uri: `s3://${bucket}/${key}` };
  if (htmlKey !== null) result.html = { uri: `s3://${bucket}/${htmlKey}` };
  if (link.mode === 's3') return result;
  // A pre-signed URL lives at most as long as the credentials that signed it: in Lambda
  // that is the role session (hours), whatever expiresSeconds says.
  const sign = (k: string) =>
    getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: k }), { expiresIn: link.expiresSeconds });
  result.url = await sign(key);
  if (result.html && htmlKey !== null) result.html.url = await sign(htmlKey);
  return result;
}
