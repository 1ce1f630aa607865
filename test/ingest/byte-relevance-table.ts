// What the JSON-lines and the escaped (CloudWatch) tests of the byte decision share: its table
// ([verb, resource, subresource, name, username, the verdict the rules want]) and the hostile
// edits of a text (a character replaced, cut or inserted anywhere).
import fc from 'fast-check';
import { ByteVerdict } from '../../lib/ingest/byte-relevance';

export type TextEdit =
  | { kind: 'set'; at: number; code: number }
  | { kind: 'cut'; at: number; len: number }
  | { kind: 'insert'; at: number; text: string };

/** Edits at any position; `inserts` are the texts an insert may put there. */
export function textEdits(inserts: string[]): fc.Arbitrary<TextEdit>[] {
  return [
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), code: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 40 }) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...inserts) }),
  ];
}

export function applyTextEdit(text: string, e: TextEdit): string {
  const at = e.at % (text.length + 1);
  if (e.kind === 'set') return text.slice(0, at) + String.fromCharCode(e.code) + text.slice(at + 1);
  if (e.kind === 'cut') return text.slice(0, at) + text.slice(at + e.len);
  return text.slice(0, at) + e.text + text.slice(at);
}

export const RS = 'system:serviceaccount:kube-system:replicaset-controller';
export const RELEVANCE_ROWS: Array<
  [string, string, string | undefined, string | undefined, string | undefined, ByteVerdict]
> = [
  ['get', 'pods', undefined, 'orders-1-abcde', undefined, ByteVerdict.Irrelevant],
  ['watch', 'kafkaclusters', undefined, undefined, undefined, ByteVerdict.Irrelevant],
  ['update', 'leases', undefined, 'node-1', undefined, ByteVerdict.Irrelevant],
  ['update', 'kafkaclusters', 'status', 'orders', undefined, ByteVerdict.Irrelevant],
  ['patch', 'kafkaclusters', undefined, 'orders', undefined, ByteVerdict.Parse],
  ['update', 'configmaps', undefined, 'orders-config-3', undefined, ByteVerdict.Parse],
  ['update', 'configmaps', undefined, 'argocd-cm', undefined, ByteVerdict.Irrelevant],
  ['create', 'pods', undefined, undefined, RS, ByteVerdict.Parse],
  ['delete', 'pods', undefined, 'web-7d9f8c6b5-x2x4z', RS, ByteVerdict.Irrelevant],
  ['delete', 'pods', undefined, 'pg-main-2', 'system:serviceaccount:cnpg:cnpg', ByteVerdict.Parse],
  ['patch', 'pods', 'status', 'web-7d9f8c6b5-x2x4z', undefined, ByteVerdict.Irrelevant],
  ['patch', 'pods', 'status', 'orders-3-abcde', undefined, ByteVerdict.Parse],
  ['patch', 'deployments', undefined, 'checkout', undefined, ByteVerdict.Parse],
  ['update', 'deployments', 'status', 'checkout', undefined, ByteVerdict.Irrelevant],
  ['update', 'deployments', 'scale', 'checkout', undefined, ByteVerdict.Parse],
  ['create', 'tokenreviews', undefined, undefined, undefined, ByteVerdict.Irrelevant],
];

/** The line with its top-level keys in another order (seeded), when it parses. */
export function shuffled(line: string, seed: number): string {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return line;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return line;
  const keys = Object.keys(v);
  let s = seed;
  for (let i = keys.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = (v as Record<string, unknown>)[k];
  return JSON.stringify(out);
}
