// Versioned JSON-lines (de)serialisation of Fact[]: the format of the facts objects the
// Lambda ingest writes to S3 and the scheduled analysis reads back.
//
// Line 1 is a header naming the format and FACTS_VERSION, so a reader deployed before a
// format change refuses newer objects loudly instead of misreading them, a newer reader
// upgrades older objects (upgrade.ts) instead of refusing the window it must read, and so Athena
// (which reads every line as a row) can filter the header out on `type IS NULL`.
// Every further line is one Fact, exactly as the projection produced it.
//
import { FACTS_VERSION, type Fact } from '../model/facts';
import { shareFactParts } from './project';
import { isReadableFactsVersion, MIN_FACTS_VERSION, upgradeFact, upgradeHeader } from './upgrade';

export const FACTS_FORMAT = 'koperator-audit/facts';

export interface FactsHeader {
  format: typeof FACTS_FORMAT;
  factsVersion: number;
  /** The log object the facts were projected from (s3://bucket/key or a file path). */
  source: string;
  /** The source object's ETag (or content hash) the facts were read from. */
  etag: string | null;
  /** Kubernetes cluster the source belongs to. */
  cluster: string;
  /** Hour partition (yyyy-MM-dd-HH, UTC) every fact of the object falls in. */
  hour: string;
  count: number;
  /**
   * The newest requestReceivedTimestamp of any audit event read from the source object,
   * kept or not (version 2; null when unknown): "active" is judged against the end of
   * what was read, which a tail of unrelated traffic moves past the newest fact.
   */
  newestEventAt: string | null;
}

export class FactsFormatError extends Error {
  override name = 'FactsFormatError';
}

export function encodeFacts(
  header: Omit<FactsHeader, 'format' | 'factsVersion' | 'count' | 'newestEventAt'> & {
    newestEventAt?: string | null;
  },
  facts: readonly Fact[],
): string {
  const head: FactsHeader = {
    format: FACTS_FORMAT,
    factsVersion: FACTS_VERSION,
    ...header,
    count: facts.length,
    newestEventAt: header.newestEventAt ?? null,
  };
  const lines = [JSON.stringify(head)];
  for (const f of facts) lines.push(JSON.stringify(f));
  return lines.join('\n') + '\n';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const FACT_TYPES = new Set(['pod', 'kafkacluster', 'configmap', 'operator', 'object']);

/**
 * Parses one facts object, upgrading facts of an older version to the current one (the
 * header keeps the version read). Throws FactsFormatError on a missing header, a version this
 * reader does not know, or a line that is not a fact: a facts object is written by this
 * code, so damage means a bug or a foreign object, and silently dropping lines would
 * turn into silently wrong findings.
 */
export function decodeFacts(text: string): { header: FactsHeader; facts: Fact[] } {
  const lines = text.split('\n');
  const first = lines[0] ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(first);
  } catch {
    throw new FactsFormatError('facts object has no JSON header line');
  }
  if (!isRecord(parsed) || parsed.format !== FACTS_FORMAT) {
    throw new FactsFormatError('facts object header does not name the koperator-audit facts format');
  }
  const version = parsed.factsVersion;
  if (!isReadableFactsVersion(version)) {
    throw new FactsFormatError(
      `facts object has version ${String(version)}; this reader knows versions ${MIN_FACTS_VERSION} to ${FACTS_VERSION}`,
    );
  }
  const header = version === FACTS_VERSION ? parsed : upgradeHeader(parsed, version);
  const facts: Fact[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === undefined || line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new FactsFormatError(`facts line ${i + 1} is not JSON`);
    }
    if (isRecord(v) && version !== FACTS_VERSION) v = upgradeFact(v, version);
    if (!isRecord(v) || typeof v.type !== 'string' || !FACT_TYPES.has(v.type) || typeof v.at !== 'string') {
      throw new FactsFormatError(`facts line ${i + 1} is not a fact`);
    }
    facts.push(shareFactParts(v as unknown as Fact));
  }
  if (typeof header.count === 'number' && header.count !== facts.length) {
    // A short object means a truncated write or read; refuse rather than analyse half of it.
    throw new FactsFormatError(`facts object announces ${header.count} facts but holds ${facts.length}`);
  }
  return { header: header as unknown as FactsHeader, facts };
}
