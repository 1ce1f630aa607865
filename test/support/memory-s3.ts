// An S3 client stub over a Map, for unit tests that make many small runs: ListObjectsV2 (with
// ETags, one page), GetObject, PutObject with S3's conditional writes, DeleteObject. ETags are
// the MD5 of the bytes, as S3 gives for a single-part upload. Counts requests by command.
// Integration tests use fauxqs instead (test/support/fauxqs.ts).
import { S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'crypto';

export interface MemoryS3 {
  s3: S3Client;
  objects: Map<string, { body: Buffer; etag: string }>;
  requests: Record<string, number>;
}

function failure(name: string, status: number, message: string): S3ServiceException {
  return new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message });
}

function bytesOf(body: unknown): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new Error(`memory S3 takes string or byte bodies, got ${typeof body}`);
}

export function memoryS3(): MemoryS3 {
  const objects = new Map<string, { body: Buffer; etag: string }>();
  const requests: Record<string, number> = {};
  const send = async (cmd: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const name = cmd.constructor.name.replace(/Command$/, '');
    requests[name] = (requests[name] ?? 0) + 1;
    const key = cmd.input.Key as string;
    switch (name) {
      case 'ListObjectsV2': {
        const prefix = (cmd.input.Prefix as string | undefined) ?? '';
        const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
        return {
          Contents: keys.map((Key) => ({
            Key,
            ETag: objects.get(Key)!.etag,
            Size: objects.get(Key)!.body.length,
          })),
          IsTruncated: false,
        };
      }
      case 'GetObject': {
        const o = objects.get(key);
        if (!o) throw failure('NoSuchKey', 404, `no ${key}`);
        return {
          ETag: o.etag,
          ContentLength: o.body.length,
          Body: {
            transformToByteArray: async () => new Uint8Array(o.body),
            transformToString: async () => o.body.toString('utf8'),
          },
        };
      }
      case 'PutObject': {
        const held = objects.get(key);
        const { IfMatch, IfNoneMatch } = cmd.input as { IfMatch?: string; IfNoneMatch?: string };
        if ((IfNoneMatch === '*' && held) || (IfMatch !== undefined && held?.etag !== IfMatch))
          throw failure('PreconditionFailed', 412, `${key} changed`);
        const body = bytesOf(cmd.input.Body);
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        objects.set(key, { body, etag });
        return { ETag: etag };
      }
      case 'DeleteObject':
        objects.delete(key);
        return {};
      default:
        throw new Error(`memory S3 does not do ${name}`);
    }
  };
  return { s3: { send } as unknown as S3Client, objects, requests };
}
