// The Athena findings history, end to end: two simulated clusters' facts in the emulator's
// bucket, one schedule (dispatch → analyze per cluster) writes the findings as JSON lines
// under findings/cluster=…/dt=…/; the objects are mirrored to a folder key for key and
// read by DuckDB with `read_json(..., hive_partitioning=true)` and the Glue table's
// columns; docs/athena.md's own queries must give the simulator's truth, and the fix's saving
// summed over the rows the run's own summary.fixImpact.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { listObjects } from '../../lib/aws/backfill';
import { writeFacts } from '../../lib/aws/facts-store';
import { defaultLayout, reportKey } from '../../lib/aws/bucket-layout';
import type { FixImpact } from '../../lib/analyze/fix-impact';
import {
  FINDINGS_COLUMNS,
  FINDINGS_PARTITION_COLUMNS,
  type ColumnType,
} from '../../lib/history/findings-rows';
import type { Drift, Recreation } from '../../lib/model/findings';
import { simulateCluster, type ScenarioName } from '../../sim';
import { simulatedFacts } from '../support/sim-facts';
import { deploy, handlerEnv, scheduleAnalysis, type Env } from './support';

const BUCKET = 'athena-logs';
const CLUSTERS: [string, ScenarioName[], number][] = [
  ['eks-prod', ['scaleops-loop', 'affinity-loop', 'intent-change', 'manual-delete', 'live-drift'], 21],
  ['eks-staging', ['scaleops-loop'], 22],
];
/** The queries' "today": the data is of 2026-11-02, so "the last 7 days" must hold it. */
const TODAY = "DATE '2026-11-05'";

/** Hive type → DuckDB type, for read_json's `columns`. */
function duckType(t: ColumnType | 'string'): string {
  const base: Record<string, string> = {
    string: 'VARCHAR',
    int: 'INTEGER',
    double: 'DOUBLE',
    boolean: 'BOOLEAN',
  };
  if (base[t]) return base[t];
  const arr = /^array<(.*)>$/.exec(t);
  if (arr) return `${duckType(arr[1] as ColumnType)}[]`;
  const st = /^struct<(.*)>$/.exec(t);
  if (st)
    return `STRUCT(${st[1]!
      .split(',')
      .map((f) => f.split(':'))
      .map(([n, ft]) => `${n} ${duckType(ft as ColumnType)}`)
      .join(', ')})`;
  throw new Error(`no DuckDB type for ${t}`);
}

/** docs/athena.md's query under `<!-- athena-query: name -->`. */
async function docQuery(name: string): Promise<string> {
  const page = await fs.readFile(path.join(__dirname, '..', '..', 'docs', 'athena.md'), 'utf8');
  const m = new RegExp(`<!-- athena-query: ${name} -->\\s*\`\`\`sql\\n([\\s\\S]*?)\`\`\``).exec(page);
  if (!m) throw new Error(`docs/athena.md has no athena-query ${name}`);
  return m[1]!;
}

const brokerOf = (x: { namespace: string; kafkaCluster: string; brokerId: string }): string =>
  `${x.namespace}/${x.kafkaCluster}/${x.brokerId}`;

describe('Athena findings history: layout and docs/athena.md queries (fauxqs + DuckDB)', () => {
  let fx: Fauxqs;
  let env: Env;
  let dir: string;
  let keys: string[];
  const truth = new Map<
    string,
    { recreations: Recreation[]; loops: number; loopCycles: number; drifts: Drift[] }
  >();
  /** Each cluster's summary.fixImpact, from the run's report in S3. */
  const impacts = new Map<string, FixImpact>();
  const saved = { ...process.env };

  beforeAll(async () => {
    fx = await startFauxqs();
    env = await deploy(fx, BUCKET);
    // Everything is in the bucket before the run: every hour of it is settled.
    handlerEnv(fx, env.stack, { LOOKBACK: '12h', FINDINGS_SETTLE: '0' });
    let newest = 0;
    for (const [cluster, scenarios, seed] of CLUSTERS) {
      const sim = simulateCluster({ seed, start: '2026-11-02T06:40:00Z', noiseRatio: 0.2, scenarios });
      truth.set(cluster, {
        recreations: sim.truth.recreations,
        loops: sim.truth.loops.length,
        loopCycles: sim.truth.loops.reduce((n, l) => n + l.count, 0),
        drifts: sim.truth.drifts,
      });
      newest = Math.max(newest, Date.parse(sim.audit[sim.audit.length - 1]!.stageTimestamp));
      await writeFacts(
        env.s3,
        BUCKET,
        defaultLayout(),
        { cluster, bucket: BUCKET, key: `logs/${cluster}/a.log`, etag: 'e1' },
        simulatedFacts(sim),
      );
    }
    // The first whole hour after the data: every hour with findings is settled and inside the window.
    const now = new Date(Math.ceil((newest + 1) / 3_600_000) * 3_600_000);
    const run = await scheduleAnalysis(env, now);
    expect(run.failures).toBe(0);
    expect(run.clusters.map((c) => c.findingsRows > 0)).toEqual([true, true]);
    for (const [cluster] of CLUSTERS) {
      const res = await env.s3.send(
        new GetObjectCommand({ Bucket: BUCKET, Key: reportKey(defaultLayout(), cluster, now) }),
      );
      const report = JSON.parse(await res.Body!.transformToString('utf8')) as {
        summary: { fixImpact: FixImpact };
      };
      impacts.set(cluster, report.summary.fixImpact);
    }
    // A second schedule writes nothing: each hour is written once (state/…/findings-history.json).
    const again = await scheduleAnalysis(env, new Date(now.getTime() + 5 * 60_000));
    expect(again.clusters.map((c) => c.findingsRows)).toEqual([0, 0]);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'findings-athena-'));
    keys = [];
    for await (const o of listObjects(env.s3, { bucket: BUCKET, prefix: 'findings/' })) {
      keys.push(o.key);
      const res = await env.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: o.key }));
      const file = path.join(dir, ...o.key.split('/'));
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, Buffer.from(await res.Body!.transformToByteArray()));
    }
  }, 120_000);
  afterAll(async () => {
    process.env = saved;
    await fx?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  async function query(sql: string): Promise<Record<string, unknown>[]> {
    const db = await DuckDBInstance.create(':memory:', {
      threads: '1',
      autoinstall_known_extensions: 'false',
    });
    const con = await db.connect();
    const columns = FINDINGS_COLUMNS.map((c) => `'${c.name}': '${duckType(c.type)}'`).join(', ');
    const hiveTypes = FINDINGS_PARTITION_COLUMNS.map((c) => `'${c.name}': '${duckType(c.type)}'`).join(', ');
    await con.run('CREATE SCHEMA koperator_audit_prod');
    await con.run(
      `CREATE VIEW koperator_audit_prod.findings AS SELECT * FROM read_json('${dir}/findings/*/*/*.jsonl',
         format = 'newline_delimited', hive_partitioning = true, hive_types = {${hiveTypes}}, columns = {${columns}})`,
    );
    const rows = (await con.runAndReadAll(sql.replace(/current_date/g, TODAY))).getRowObjects();
    con.closeSync();
    // BIGINT counts arrive as bigint; the checks compare numbers.
    return rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])),
    );
  }

  it('writes one object per cluster and hour under findings/cluster=…/dt=…/, each row with exactly the columns', async () => {
    expect(keys.length).toBeGreaterThan(1);
    for (const k of keys) {
      const m =
        /^findings\/cluster=(eks-prod|eks-staging)\/dt=(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})-(\d{2})\.jsonl$/.exec(
          k,
        );
      expect(m).not.toBeNull();
      expect(m![3]).toBe(m![2]);
      const lines = (await fs.readFile(path.join(dir, ...k.split('/')), 'utf8')).trimEnd().split('\n');
      for (const line of lines) {
        const row = JSON.parse(line) as Record<string, unknown>;
        expect(Object.keys(row)).toEqual(FINDINGS_COLUMNS.map((c) => c.name));
        expect(row.hour).toBe(`${m![3]}-${m![4]}`);
      }
    }
    expect(new Set(keys.map((k) => k.split('/')[1]))).toEqual(
      new Set(['cluster=eks-prod', 'cluster=eks-staging']),
    );
  });

  it('holds every truth recreation once, with its class', async () => {
    const rows = await query(
      `SELECT cluster, deleted_pod, classification FROM koperator_audit_prod.findings WHERE record_type = 'recreation'`,
    );
    for (const [cluster, t] of truth) {
      const mine = rows.filter((r) => r.cluster === cluster);
      expect(mine.map((r) => `${String(r.deleted_pod)}:${String(r.classification)}`).sort()).toEqual(
        t.recreations.map((r) => `${r.deletedPod.name}:${r.classification}`).sort(),
      );
    }
  });

  it('docs/athena.md "loops per cluster in the last 7 days" gives the truth loops and their recreations', async () => {
    const rows = await query(await docQuery('loops-per-cluster'));
    const expected = [...truth.entries()]
      .map(([cluster, t]) => ({ cluster, loops: t.loops, recreations: t.loopCycles }))
      .sort((a, b) => b.loops - a.loops || a.cluster.localeCompare(b.cluster));
    expect(expected.every((e) => e.loops > 0)).toBe(true);
    expect(rows).toEqual(expected);
  });

  it('docs/athena.md "which webhooks cause reverts" names the truth webhooks with their revert counts', async () => {
    const rows = await query(await docQuery('webhooks-causing-reverts'));
    const byWebhook = new Map<string, { ids: Set<string>; clusters: Set<string> }>();
    for (const [cluster, t] of truth)
      for (const r of t.recreations.filter((x) => x.classification === 'external-mutation-revert'))
        for (const by of new Set(r.fields.map((f) => f.by).filter((b): b is string => b !== null))) {
          const e = byWebhook.get(by) ?? { ids: new Set(), clusters: new Set() };
          e.ids.add(`${cluster}/${r.deletedPod.uid ?? brokerOf(r) + r.deletedPod.deletedAt}`);
          e.clusters.add(cluster);
          byWebhook.set(by, e);
        }
    const expected = [...byWebhook.entries()]
      .map(([webhook, e]) => ({ webhook, reverts: e.ids.size, clusters: e.clusters.size }))
      .sort((a, b) => b.reverts - a.reverts || a.webhook.localeCompare(b.webhook));
    expect(expected.length).toBeGreaterThan(0);
    expect(rows).toEqual(expected);
  });

  it('docs/athena.md "what the fix would have saved" sums to each run’s summary.fixImpact', async () => {
    const rows = await query(await docQuery('fix-savings'));
    expect(rows.map((r) => r.cluster)).toEqual(expect.arrayContaining(['eks-prod', 'eks-staging']));
    for (const r of rows) {
      const impact = impacts.get(String(r.cluster))!;
      expect({
        cluster: r.cluster,
        recreations: r.recreations,
        avoidable: r.avoidable,
        reverted_tampers: r.reverted_tampers,
      }).toEqual({
        cluster: r.cluster,
        recreations: impact.recreations,
        avoidable: impact.avoidableWithFix,
        reverted_tampers: impact.revertedTampers,
      });
      expect(Math.abs(Number(r.broker_hours_saved) - impact.avoidableDowntimeSeconds / 3600)).toBeLessThan(
        0.006,
      );
    }
    // The scaleops loop is a webhook's: the fix avoids it, and its downtime was measured.
    expect(rows.every((r) => Number(r.avoidable) > 0 && Number(r.broker_hours_saved) > 0)).toBe(true);
    // live-drift's pre-fix revert of bob's image swap protected the cluster: counted apart.
    expect(rows.find((r) => r.cluster === 'eks-prod')!.reverted_tampers).toBeGreaterThan(0);
  });

  it('docs/athena.md "standing tamper drifts" gives the truth’s tamper drifts that never ended', async () => {
    const rows = await query(await docQuery('standing-tamper-drifts'));
    const expected = [...truth.entries()]
      .flatMap(([cluster, t]) =>
        t.drifts
          .filter((d) => d.severity === 'tamper' && d.ended === null)
          .map((d) => ({
            cluster,
            kafka_cluster: d.kafkaCluster,
            broker_id: d.brokerId,
            pod: d.pod.name,
            written_by: d.by,
            drift_kind: d.kind,
            event_time: d.at,
          })),
      )
      .sort((a, b) => a.event_time.localeCompare(b.event_time) || a.pod.localeCompare(b.pod));
    expect(expected.length).toBeGreaterThan(0);
    expect(rows).toEqual(expected);
  });

  it('holds every truth drift once, with its kind, severity and end', async () => {
    const rows = await query(
      `SELECT cluster, pod, event_time, drift_kind, drift_severity, ended_how, drift_fields FROM koperator_audit_prod.findings WHERE record_type = 'drift'`,
    );
    for (const [cluster, t] of truth) {
      const mine = rows.filter((r) => r.cluster === cluster);
      expect(
        mine.map((r) => [r.pod, r.event_time, r.drift_kind, r.drift_severity, r.ended_how]).sort(),
      ).toEqual(t.drifts.map((d) => [d.pod.name, d.at, d.kind, d.severity, d.ended?.how ?? null]).sort());
      for (const d of t.drifts) {
        const row = mine.find((r) => r.pod === d.pod.name && r.event_time === d.at)!;
        const paths = (JSON.parse(String(row.drift_fields)) as { path: string }[]).map((f) => f.path);
        expect(paths).toEqual(expect.arrayContaining(d.fields.map((f) => f.path)));
      }
    }
  });
});
