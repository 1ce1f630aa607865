// Each analysis run's full JSON report, and the link to it that alerts carry.
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export interface ReportLink {
  uri: string;
  url?: string;
}

export async function writeReport(
  s3: S3Client,
  bucket: string,
  key: string,
  report: unknown,
  link: { mode: 's3' | 'presigned'; expiresSeconds: number },
): Promise<ReportLink> {
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: JSON.stringify(report, null, 1),
      ContentType: 'application/json',
    }),
  );
  const uri = `s3://${bucket}/${key}`;
  if (link.mode === 's3') return { uri };
  // A pre-signed URL lives at most as long as the credentials that signed it: in Lambda
  // that is the role session (hours), whatever expiresSeconds says.
  const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: key }), {
    expiresIn: link.expiresSeconds,
  });
  return { uri, url };
}
