// What an analysis run reads, with and without the window snapshot (lib/aws/facts-snapshot.ts),
// for a 20 GB/day cluster at a 60 s Firehose buffer and at zero buffering (an object every
// ~5 s), on fauxqs (S3 over the wire on this machine). Also the ingest of one such object.
//
//   npx tsx bench/incremental.ts [--buffers 60,5] [--gb-per-day 20]
//
// The window is filled by replaying a few ingested objects' facts shifted in time (ingesting
// 7 hours of 20 GB/day, 5.8 GB, would take the machine an hour): the objects' count, keys and
// sizes are those of the real ingest's output, which is what a read costs.
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, writeFileSync } from 'fs';
import * as path from 'path';
import { gunzipSync } from 'zlib';
import { ingestS3Object } from '../lib/aws/ingest-object';
import { ingestConfigFromEnv } from '../lib/aws/env-config';
import { defaultLayout } from '../lib/aws/bucket-layout';
import { readFactsWindow, writeFacts } from '../lib/aws/facts-store';
import { readFactsThroughSnapshot } from '../lib/aws/facts-snapshot';
import { decodeFacts } from '../lib/facts/codec';
import type { Fact } from '../lib/model/facts';
import { startFauxqs } from '../lib/local-aws/fauxqs-server';
import { noiseEvents } from '../sim';
import { firehoseObject } from '../sim/encode';
import type { AuditEvent } from '../lib/model/audit';

const CLUSTER = 'bench';
const BUCKET = 'bench';
const HOUR = 3_600_000;
const READ_SPAN = 7 * HOUR; // 6 h look-back + 1 h of context
const START = Date.parse('2026-11-02T00:00:00Z');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

/** A Firehose object of `bytes` of CloudWatch Logs payloads, `seconds` of ordinary traffic from `at`. */
function rawObject(
  seed: number,
  at: number,
  seconds: number,
  bytes: number,
): { body: Buffer; events: number } {
  const probe = [...noiseEvents(seed, new Date(at).toISOString(), 500, 100)];
  const perEvent = probe.reduce((n, e) => n + JSON.stringify(e).length, 0) / probe.length;
  const count = Math.ceil(bytes / perEvent);
  const events: AuditEvent[] = [...noiseEvents(seed, new Date(at).toISOString(), count, count / seconds)];
  return { body: firehoseObject(events), events: events.length };
}

const shift = (t: string, ms: number): string => {
  const parsed = Date.parse(t);
  if (Number.isNaN(parsed)) return t;
  // Keep the fraction digits as written (the store writes times back as they came).
  const frac = /\.(\d+)Z$/.exec(t)?.[1] ?? '';
  const iso = new Date(parsed + ms).toISOString().slice(0, 19);
  return frac ? `${iso}.${frac}Z` : `${iso}Z`;
};

interface Sample {
  facts: Fact[];
  newestEventAt: string | null;
}

interface ReadFigures {
  seconds: number;
  /** This process's CPU (the emulator runs in its own). */
  cpuSeconds: number;
  /** GETs of facts objects, and of the snapshot. */
  gets: number;
  bytes: number;
  objects: number;
}

async function main(): Promise<void> {
  const buffers = arg('buffers', '60,5').split(',').map(Number);
  const perDay = Number(arg('gb-per-day', '20')) * 1e9;
  const fx = await startFauxqs();
  const s3 = new S3Client(fx.clientConfig);
  const layout = defaultLayout();
  const ingestConfig = ingestConfigFromEnv({ BUCKET });
  const out: Record<string, unknown>[] = [];
  try {
    for (const buffer of buffers) {
      await s3.send(new CreateBucketCommand({ Bucket: `${BUCKET}-${buffer}` }));
      const bucket = `${BUCKET}-${buffer}`;
      const cfg = { ...ingestConfig, factsBucket: bucket };
      const objectBytes = Math.round((perDay * buffer) / 86_400);
      // Ingest: three objects of ordinary traffic, timed one by one.
      const samples: Sample[] = [];
      const ingest: Record<string, number>[] = [];
      for (let i = 0; i < 3; i++) {
        const raw = rawObject(i + 1, START + i * buffer * 1000, buffer, objectBytes);
        const key = `logs/${CLUSTER}/sample-${buffer}-${i}.gz`;
        const put = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: raw.body }));
        const cpu = process.cpuUsage();
        const t0 = performance.now();
        const r = await ingestS3Object(s3, cfg, {
          bucket,
          key,
          size: raw.body.length,
          etag: (put.ETag ?? '').replace(/"/g, ''),
          eventName: 'ObjectCreated:Put',
        });
        const c = process.cpuUsage(cpu);
        const part = r.clusters[0];
        let factsBytes = 0;
        for (const k of part?.factsKeys ?? []) {
          const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: k }));
          const gz = Buffer.from(await res.Body!.transformToByteArray());
          factsBytes += gz.length;
          const { header, facts } = decodeFacts(gunzipSync(gz).toString('utf8'));
          samples.push({ facts, newestEventAt: header.newestEventAt });
        }
        ingest.push({
          seconds: (performance.now() - t0) / 1000,
          cpuSeconds: (c.user + c.system) / 1e6,
          rawBytes: raw.body.length,
          events: raw.events,
          facts: part?.facts ?? 0,
          factsBytes,
        });
      }
      // The window: one object per buffer interval over the read span and the runs to come.
      let written = 0;
      const fill = async (fromMs: number, toMs: number): Promise<number> => {
        const slots: number[] = [];
        for (let t = fromMs; t < toMs; t += buffer * 1000) slots.push(t);
        let n = 0;
        const worker = async () => {
          for (let i = n++; i < slots.length; i = n++) {
            const t = slots[i]!;
            const s = samples[(written + i) % samples.length]!;
            const base = Date.parse(s.facts[0]?.at ?? s.newestEventAt ?? new Date(START).toISOString());
            const d = t - base;
            const facts = s.facts.map(
              (f) =>
                ({
                  ...f,
                  at: shift(f.at, d),
                  ...('doneAt' in f ? { doneAt: shift(f.doneAt, d) } : {}),
                }) as Fact,
            );
            await writeFacts(
              s3,
              bucket,
              layout,
              { cluster: CLUSTER, bucket: 'logs', key: `logs/${CLUSTER}/${t}.gz`, etag: String(t) },
              facts,
              s.newestEventAt ? shift(s.newestEventAt, d) : new Date(t).toISOString(),
            );
          }
        };
        await Promise.all(Array.from({ length: 16 }, worker));
        written += slots.length;
        return slots.length;
      };
      let now = START + READ_SPAN;
      await fill(START, now);
      const measure = async (snapshot: boolean): Promise<ReadFigures> => {
        const from = new Date(now - READ_SPAN);
        const t0 = performance.now();
        const cpu = process.cpuUsage();
        const cpuSeconds = () => {
          const c = process.cpuUsage(cpu);
          return (c.user + c.system) / 1e6;
        };
        if (!snapshot) {
          const r = await readFactsWindow(s3, bucket, layout, CLUSTER, from, new Date(now));
          return {
            seconds: (performance.now() - t0) / 1000,
            cpuSeconds: cpuSeconds(),
            gets: r.fetched,
            bytes: r.fetchedBytes,
            objects: r.objects,
          };
        }
        const r = await readFactsThroughSnapshot(s3, bucket, layout, CLUSTER, from, new Date(now));
        return {
          seconds: (performance.now() - t0) / 1000,
          cpuSeconds: cpuSeconds(),
          gets: r.fetched + (r.snapshot.found === 'absent' ? 0 : 1),
          bytes: r.fetchedBytes + r.snapshot.bytes,
          objects: r.objects,
        };
      };
      const full = await measure(false);
      const first = await measure(true);
      // A scheduled run 5 minutes later, then a run asked for by one object's evidence.
      await fill(now, now + 300_000);
      now += 300_000;
      const fullAfter = await measure(false);
      const scheduled = await measure(true);
      await fill(now, now + buffer * 1000);
      now += buffer * 1000;
      const evidence = await measure(true);
      const row = {
        bufferSeconds: buffer,
        objectBytes,
        ingest,
        window: { objects: full.objects },
        fullRead: full,
        fullReadAfter5Min: fullAfter,
        firstSnapshotRun: first,
        scheduledRun: scheduled,
        evidenceRun: evidence,
      };
      out.push(row);
      console.log(JSON.stringify(row));
    }
  } finally {
    await fx.stop();
  }
  const dir = path.join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `incremental-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ perDayBytes: perDay, runs: out }, null, 2));
  console.log(`written ${path.relative(process.cwd(), file)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
