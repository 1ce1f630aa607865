// S3 objects as SourceObjects: ListObjectsV2 page by page (keys in S3's own order,
// which is sorted), and a streaming GetObject per object when the reader opens it.
// The only ingestion file that talks to the AWS SDK.
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'stream';
import type { SourceObject } from '../sources/types';

export interface S3Location {
  bucket: string;
  /** Key prefix, possibly empty; a full key lists that object (and any key it prefixes). */
  prefix: string;
}

/** `s3://bucket[/prefix]` → its parts; null for anything else. */
export function parseS3Uri(uri: string): S3Location | null {
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(uri);
  if (!m || m[1].length === 0) return null;
  return { bucket: m[1], prefix: m[2] ?? '' };
}

export interface ListS3Options {
  /** MaxKeys per ListObjectsV2 page (S3 caps it at 1000, the default). */
  pageSize?: number;
}

/** Every object under `uri`. Listing errors propagate: a partial listing must not look complete. */
export async function* listS3(
  client: S3Client,
  uri: string,
  opts: ListS3Options = {},
): AsyncGenerator<SourceObject> {
  const loc = parseS3Uri(uri);
  if (!loc) throw new Error(`not an s3:// URI: ${uri}`);
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: loc.bucket,
        Prefix: loc.prefix || undefined,
        ContinuationToken: token,
        ...(opts.pageSize ? { MaxKeys: opts.pageSize } : {}),
      }),
    );
    for (const o of page.Contents ?? []) {
      if (o.Key === undefined) continue;
      const key = o.Key;
      yield {
        name: `s3://${loc.bucket}/${key}`,
        ...(o.Size !== undefined ? { size: o.Size } : {}),
        open: () => openObject(client, loc.bucket, key),
      };
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
}

async function openObject(client: S3Client, bucket: string, key: string): Promise<Readable> {
  const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const body: unknown = res.Body;
  if (body instanceof Readable) return body;
  // Outside Node the SDK hands out web streams; keep the contract anyway.
  const web = body as { transformToWebStream?: () => ReadableStream<Uint8Array> } | undefined;
  if (web && typeof web.transformToWebStream === 'function') {
    return Readable.fromWeb(web.transformToWebStream() as import('stream/web').ReadableStream<Uint8Array>);
  }
  throw new Error(`GetObject s3://${bucket}/${key} returned no readable body`);
}
