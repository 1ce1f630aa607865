// The YAML config file (--config): settings a team keeps rather than types each time.
// Unknown keys are an error that names the key, so a typo never silently does nothing.
import { parsePositiveDuration } from './duration';
import { loadYamlBounded } from './safe-yaml';

export interface ClusterPrefix {
  prefix: string;
  name: string;
}

export interface FileConfig {
  operatorUsers?: string[];
  /** Users whose resizes of broker pods are an autoscaler's (live drift severity). */
  autoscalerUsers?: string[];
  taintedBrokersSelector?: Record<string, string>;
  loopMinCount?: number;
  loopMaxGapSeconds?: number;
  namespaces?: string[];
  kafkaClusters?: string[];
  /** Names of Kubernetes clusters by input prefix (a folder or s3:// prefix). */
  clusters?: ClusterPrefix[];
  maxLineBytes?: number;
}

export class ConfigError extends Error {}

const KEYS = [
  'operatorUsers',
  'autoscalerUsers',
  'taintedBrokersSelector',
  'loopMinCount',
  'loopMaxGap',
  'namespaces',
  'kafkaClusters',
  'clusters',
  'maxLineBytes',
] as const;

export function parseConfigFile(text: string, source = 'config'): FileConfig {
  let doc: unknown;
  try {
    doc = loadYamlBounded(text, 100_000);
  } catch (e) {
    throw new ConfigError(`${source}: not valid YAML (${(e as Error).message.split('\n')[0]})`);
  }
  if (doc === undefined || doc === null) return {};
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new ConfigError(`${source}: expected a mapping at the top`);
  const raw = doc as Record<string, unknown>;
  for (const k of Object.keys(raw)) {
    if (!(KEYS as readonly string[]).includes(k)) {
      throw new ConfigError(`${source}: unknown key "${k}" (known: ${KEYS.join(', ')})`);
    }
  }
  const out: FileConfig = {};
  if (raw.operatorUsers !== undefined)
    out.operatorUsers = stringList(raw.operatorUsers, 'operatorUsers', source);
  if (raw.autoscalerUsers !== undefined)
    out.autoscalerUsers = stringList(raw.autoscalerUsers, 'autoscalerUsers', source);
  if (raw.namespaces !== undefined) out.namespaces = stringList(raw.namespaces, 'namespaces', source);
  if (raw.kafkaClusters !== undefined)
    out.kafkaClusters = stringList(raw.kafkaClusters, 'kafkaClusters', source);
  if (raw.taintedBrokersSelector !== undefined) {
    const sel = raw.taintedBrokersSelector;
    if (!sel || typeof sel !== 'object' || Array.isArray(sel)) {
      throw new ConfigError(`${source}: taintedBrokersSelector must map label names to values`);
    }
    out.taintedBrokersSelector = Object.fromEntries(Object.entries(sel).map(([k, v]) => [k, String(v)]));
  }
  if (raw.loopMinCount !== undefined)
    out.loopMinCount = positiveInt(raw.loopMinCount, 'loopMinCount', source);
  if (raw.maxLineBytes !== undefined)
    out.maxLineBytes = positiveInt(raw.maxLineBytes, 'maxLineBytes', source);
  if (raw.loopMaxGap !== undefined) {
    const gap = parsePositiveDuration(String(raw.loopMaxGap));
    if ('error' in gap)
      throw new ConfigError(`${source}: loopMaxGap "${String(raw.loopMaxGap)}" ${gap.error}`);
    out.loopMaxGapSeconds = gap.seconds;
  }
  if (raw.clusters !== undefined) {
    if (!Array.isArray(raw.clusters))
      throw new ConfigError(`${source}: clusters must be a list of {prefix, name}`);
    out.clusters = raw.clusters.map((c, i) => {
      if (!c || typeof c !== 'object' || typeof c.prefix !== 'string' || typeof c.name !== 'string') {
        throw new ConfigError(`${source}: clusters[${i}] needs string keys prefix and name`);
      }
      const extra = Object.keys(c).filter((k) => k !== 'prefix' && k !== 'name');
      if (extra.length) throw new ConfigError(`${source}: unknown key "clusters[${i}].${extra[0]}"`);
      return { prefix: c.prefix, name: c.name };
    });
  }
  return out;
}

/** The cluster name of an input: the longest configured prefix it starts with. */
export function clusterForInput(input: string, clusters: ClusterPrefix[] | undefined): string | null {
  let best: ClusterPrefix | null = null;
  for (const c of clusters ?? []) {
    if (input.startsWith(c.prefix) && (!best || c.prefix.length > best.prefix.length)) best = c;
  }
  return best ? best.name : null;
}

function stringList(v: unknown, key: string, source: string): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
  throw new ConfigError(`${source}: ${key} must be a string or a list of strings`);
}

function positiveInt(v: unknown, key: string, source: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  throw new ConfigError(`${source}: ${key} must be a positive integer`);
}
