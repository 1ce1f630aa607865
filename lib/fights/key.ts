// How a fight is named across runs and views: one identity (alerts de-duplicate on it) and
// one label (every report and message shows it).
import type { Fight } from '../model/findings';

/** Identity of a fight across runs: its kind and what is fought over. */
export function fightKey(f: Pick<Fight, 'kind' | 'namespace' | 'target'>): string {
  const t = f.target;
  return [f.kind, f.namespace ?? '', t.apiGroup, t.resource, t.name, t.slot ?? ''].join('\u0000');
}

/**
 * What a fight is fought over, as one label: `namespace/resource/name`, a recreate loop's
 * slot after it (`payments-db/clusters/pg-ledger [pg-ledger-2]`), `-` for cluster scope.
 */
export function fightLabel(f: Pick<Fight, 'namespace' | 'target'>): string {
  const base = `${f.namespace ?? '-'}/${f.target.resource}/${f.target.name}`;
  return f.target.slot !== undefined && f.target.slot !== f.target.name ? `${base} [${f.target.slot}]` : base;
}
