// A readable thing the ingestion layer can turn into records: a local file or an S3
// object. Listing is cheap and lazy; bytes flow only when `open()` is called, so a
// lister can enumerate millions of keys without holding any of them.
import type { Readable } from 'stream';

export interface SourceObject {
  /** A local path or `s3://bucket/key`; it becomes `SourceRef.source` on every record. */
  name: string;
  /** Bytes as stored (compressed size for gzip), when the lister knows it. */
  size?: number;
  /**
   * Starts reading. Rejects (rather than throwing) when the object cannot be opened, so a
   * listing can hand over unreadable entries and the reader counts them as errors
   * instead of the lister dropping them silently.
   */
  open(): Promise<NodeJS.ReadableStream | Readable>;
}
