// Writes examples/: one simulated cluster's logs in examples/logs/, split across the
// container formats the analyzer reads and every line whole, so the first command a
// newcomer runs reports nothing skipped; beside them examples/damaged/, what a real bucket
// also holds (lines cut short, a stray line, a file that is not a log), for trying how
// those are reported; and the truth in the findings contract's shape (examples/expected.json).
//
//   npx tsx scripts/generate-examples.ts
//
// Deterministic: the same code writes the same bytes. The damage only ever hits background
// noise, so the truth stays what the remaining lines show.
import { mkdirSync, rmSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import type { AuditEvent } from '../lib/model/audit';
import type { FindingsDocument } from '../lib/model/findings';
import { simulateCluster } from '../sim';
import { encodeAudit, encodeOperator } from '../sim/encode';
import { writeExamplePods } from './example-pods';
import { helpRequested } from './usage';

helpRequested(
  process.argv.slice(2),
  'Usage: npx tsx scripts/generate-examples.ts   (npm run examples)\n\nRewrites examples/ (logs, damaged files, expected.json) from the simulator; deterministic.\n',
);

const ROOT = join(__dirname, '..', 'examples');
const SEED = 20260504;
const START = '2026-05-04T08:00:00Z';

function write(rel: string, data: string | Buffer): void {
  const path = join(ROOT, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
}

/** Events in [from, to) of the whole, as fractions of its length. */
function slice<T>(items: readonly T[], from: number, to: number): T[] {
  return items.slice(Math.floor(items.length * from), Math.floor(items.length * to));
}

/** A compact UTC stamp for file names: 2026-05-04T08-27-41.523 */
function stamp(ts: string, sep = '-'): string {
  return ts.slice(0, 23).replace(/:/g, sep);
}

function main(): void {
  const sim = simulateCluster({ seed: SEED, start: START, noiseRatio: 0.3 });
  rmSync(ROOT, { recursive: true, force: true });

  // Lines the damage may touch: background noise only, never an event the truth rests on.
  const kafkaNamespaces = new Set(sim.truth.recreations.map((r) => r.namespace));
  const isNoise = (e: AuditEvent): boolean =>
    !kafkaNamespaces.has(e.objectRef?.namespace ?? '') && !(e.user.username ?? '').includes('kafka-operator');

  // --- audit: five stretches of time, five ways the events reached object storage ---------
  const audit = sim.audit;
  const aAll = slice(audit, 0, 0.35);
  // Some background noise of the first stretch goes to damaged/ instead (below).
  const damagedNoise = aAll.filter(isNoise).slice(-12);
  const a = aAll.filter((x) => !damagedNoise.includes(x));
  const b = slice(audit, 0.35, 0.6);
  // The webhook backend's stretch overlaps the Fluent Bit one: the same events twice.
  const c = slice(audit, 0.55, 0.8);
  const d = slice(audit, 0.8, 0.99);
  const e = slice(audit, 0.99, 1);

  write(
    `logs/audit/kube-apiserver/audit-${stamp(aAll[aAll.length - 1].stageTimestamp)}.log.gz`,
    encodeAudit('audit-jsonl', a, { gzip: true }),
  );
  const bDay = b[0].stageTimestamp.slice(0, 13).replace(/[-T]/g, '/');
  write(
    `logs/audit/fluent-bit/${bDay}/kube-audit-${stamp(b[0].stageTimestamp, '')}.gz`,
    encodeAudit('fluent-bit', b, { gzip: true }),
  );
  write(
    `logs/audit/audit-webhook/eventlists-${stamp(c[0].stageTimestamp, '')}.jsonl.gz`,
    encodeAudit('audit-eventlist', c, { gzip: true, perList: 200 }),
  );
  write(
    `logs/audit/fluent-bit-log/kube-audit-${stamp(d[0].stageTimestamp, '')}.gz`,
    encodeAudit('fluent-bit-log', d, { gzip: true }),
  );

  // The API server's current file, every line whole.
  write('logs/audit/kube-apiserver/audit.log', encodeAudit('audit-jsonl', e));

  // damaged/: the same file as a disk that filled up left it — a line cut short, a stray
  // non-JSON line, a half-written last line — holding only noise, so the truth is the same
  // with or without it.
  const current = encodeAudit('audit-jsonl', damagedNoise)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  current[1] = current[1].slice(0, Math.floor(current[1].length / 2));
  current.splice(
    Math.floor(current.length / 2),
    0,
    '\u0000\u0000\u0000 kube-apiserver audit log rotated by logrotate',
  );
  const tail = current[current.length - 1];
  write('damaged/kube-apiserver/audit.log', `${current.slice(0, -1).join('\n')}\n${tail.slice(0, 180)}`);

  // --- operator: a pod's own file, the kubelet's CRI file, then Fluent Bit to S3 -----------
  const ops = sim.operator;
  const pod =
    sim.audit.find((x) => (x.user.username ?? '').includes('kafka-operator') && x.user.extra)?.user.extra?.[
      'authentication.kubernetes.io/pod-name'
    ]?.[0] ?? 'kafka-operator-0';
  const o1 = slice(ops, 0, 0.4);
  const o2 = slice(ops, 0.4, 0.7);
  const o3 = slice(ops, 0.7, 1);
  write(`logs/operator/${pod}/manager.log`, encodeOperator('zap-json', o1));
  write(
    `logs/operator/containers/${pod}_kafka-operator_manager-${'5e1f'.repeat(16)}.log.gz`,
    encodeOperator('cri', o2, { gzip: true }),
  );
  write(
    `logs/operator/fluent-bit/kube.var.log.containers.${pod}_kafka-operator_manager.log/${stamp(o3[0].ts, '')}-object.gz`,
    encodeOperator('fluent-bit-operator', o3, { gzip: true, maxPart: 16 * 1024 }),
  );

  // Not a log: the operator's Helm values, as they sit next to its logs in a real bucket.
  write(
    'damaged/kafka-operator-values.yaml',
    [
      '# Helm values the kafka-operator release was installed with',
      'operator:',
      '  image:',
      '    repository: ghcr.io/adobe/koperator',
      '    tag: 0.28.0-adobe-20250923',
      '  verboseLogging: false',
      'webhook:',
      '  enabled: true',
      'certManager:',
      '  enabled: true',
      '',
    ].join('\n'),
  );

  const expected: FindingsDocument = {
    recreations: sim.truth.recreations,
    loops: sim.truth.loops,
    summary: {},
  };
  write('expected.json', `${JSON.stringify(expected, null, 2)}\n`);

  const count = (cls: string): number => sim.truth.recreations.filter((r) => r.classification === cls).length;
  const classes = [...new Set(sim.truth.recreations.map((r) => r.classification))].sort();
  write(
    'README.md',
    [
      '# Examples',
      '',
      `One simulated cluster (\`simulateCluster({ seed: ${SEED}, start: '${START}', noiseRatio: 0.3 })\`, all scenarios),`,
      'written by `npx tsx scripts/generate-examples.ts`; do not edit by hand. `expected.json` is the',
      'truth in the findings contract’s shape (`summary` left empty):',
      `${sim.truth.recreations.length} recreations (${classes.map((c) => `${count(c)} ${c}`).join(', ')}), ${sim.truth.loops.length} loops`,
      `(${sim.truth.loops.filter((l) => l.active).length} still active when the data ends).`,
      '',
      'Namespace `kafka` logs pod writes at RequestResponse (kubelet status at Request); namespace',
      '`telemetry` logs them at Metadata only, where koperator’s verbose diff lines carry the states',
      'once it runs with `--verbose`. KafkaCluster, ConfigMap and Secret writes are at Metadata, except in',
      'two application namespaces whose config maps and secrets carry secret-looking values on purpose.',
      '',
      '| path | format |',
      '|---|---|',
      '| `logs/audit/kube-apiserver/audit-*.log.gz` | kube-apiserver log backend, rotated, gzip |',
      '| `logs/audit/fluent-bit/…/kube-audit-*.gz` | Fluent Bit `s3` output, event at top level plus `date`, gzip |',
      '| `logs/audit/audit-webhook/eventlists-*.jsonl.gz` | audit webhook `EventList` documents, one a line, gzip (overlaps the previous file: the same events twice) |',
      '| `logs/audit/fluent-bit-log/kube-audit-*.gz` | Fluent Bit, event as a string under `log`, gzip |',
      '| `logs/audit/kube-apiserver/audit.log` | kube-apiserver current file, JSON lines |',
      '| `logs/operator/<pod>/manager.log` | koperator zap JSON lines |',
      '| `logs/operator/containers/*.log.gz` | the same container’s CRI log (`<time> stderr F <json>`, long lines split into `P` parts) |',
      '| `logs/operator/fluent-bit/…-object.gz` | Fluent Bit records with the line under `log` and a `kubernetes` block |',
      '| `damaged/kube-apiserver/audit.log` | background noise only: one line cut in half, one non-JSON line, a half-written last line |',
      '| `damaged/kafka-operator-values.yaml` | not a log: the operator’s Helm values |',
      '| `pods/*.yaml` | live broker pods for `explain-pod` (`pods/README.md`) |',
      '',
      '`npm run analyze -- --input examples/logs` reads every line. Add `--input examples/damaged` to',
      'see how damaged lines and files that are not logs are counted and named: they hold only',
      'background noise, so `expected.json` stays exactly what the findings are.',
      '',
    ].join('\n'),
  );
  writeExamplePods(join(ROOT, 'pods'));
}

main();
