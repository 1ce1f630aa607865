// Analysis at fleet scale: 100 brokers, each re-created by koperator every ~8 s, as facts
// built directly into a FactStore (what the CLI holds), then analyzeFacts alone is timed
// and its heap measured.
//
// One loop iteration's facts come from the simulator (a revert loop projected through the
// real ingest + projectRecord), re-targeted once per broker (cluster name in the bodies and
// in the re-encoded last-applied annotation), then cloned per incarnation with its own pod
// name, uid, auditIDs and times. Clones share the pod spec with their broker's template
// (metadata is copied): a fact store that parsed every body separately would hold more,
// so heapAfterFacts is a lower bound for the facts and the analysis's own cost is the delta.
import { createHash } from 'crypto';
import { createWriteStream } from 'fs';
import { once } from 'events';
import { Readable } from 'stream';
import { analyzeFacts, analyzeInto, streamFindings } from '../../lib/analyze';
import { RecreationSpool } from '../../lib/analyze/recreation-spool';
import { writeJson } from '../../lib/report/json-stream';
import { epochMicros } from '../../lib/analyze/time';
import type { Loop, Recreation } from '../../lib/model/findings';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { projectRecord } from '../../lib/facts/project';
import { FactStore } from '../../lib/facts/store';
import { createIngestStats, ingest } from '../../lib/ingest';
import { decodeLastApplied, encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../../lib/k8s/last-applied';
import type { Fact, PodWriteFact } from '../../lib/model/facts';
import { parseTime } from '../../sim/time';
import { koperatorStretch } from '../gen/koperator';

const BROKERS = 100;
const PERIOD_MS = 8_000;
const TEMPLATE_CLUSTER = 'clickstream-kafka';

async function templateFacts(): Promise<Fact[]> {
  const start = parseTime('2026-11-02T00:00:00Z');
  const { events } = koperatorStretch(1, 0, start);
  const text = Buffer.from(events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const facts: Fact[] = [];
  const src = (async function* () {
    yield { name: 'template.log', open: async () => Readable.from([text]) };
  })();
  for await (const rec of ingest(src, createIngestStats())) {
    const f = projectRecord(rec);
    if (f) facts.push(f);
  }
  return facts;
}

/** One complete incarnation of broker 5 (created, deleted by koperator), offsets from its create. */
function oneIncarnation(facts: Fact[]): { facts: PodWriteFact[]; name: string } {
  const pods = facts.filter(
    (f): f is PodWriteFact => f.type === 'pod' && (f.name ?? '').startsWith(`${TEMPLATE_CLUSTER}-5-`),
  );
  const names = [
    ...new Set(pods.filter((f) => f.verb === 'create' && f.subresource === null).map((f) => f.name!)),
  ];
  const name = names[Math.min(3, names.length - 2)];
  // The create names no pod (generateName), so its response carries the name.
  const creates = pods.filter(
    (f) => f.verb === 'create' && f.subresource === null && JSON.stringify(f.response ?? '').includes(name),
  );
  return { facts: [...creates, ...pods.filter((f) => f.name === name && !creates.includes(f))], name };
}

function retarget(tpl: PodWriteFact[], cluster: string): PodWriteFact[] {
  const text = JSON.stringify(tpl).replace(
    /banzaicloud\.com\/last-applied":"([^"]+)"/g,
    (_m, enc: string) => {
      const d = decodeLastApplied(enc);
      const obj = d.ok ? JSON.parse(JSON.stringify(d.value).split(TEMPLATE_CLUSTER).join(cluster)) : {};
      return `${LAST_APPLIED_ANNOTATION}":"${encodeLastApplied(obj)}"`;
    },
  );
  return JSON.parse(text.split(TEMPLATE_CLUSTER).join(cluster)) as PodWriteFact[];
}

function withMeta(body: unknown, name: string, uid: string, oldName: string): unknown {
  if (!body || typeof body !== 'object') return body;
  const b = body as { metadata?: Record<string, unknown> };
  if (!b.metadata || (b.metadata.name !== undefined && b.metadata.name !== oldName)) return body;
  return { ...b, metadata: { ...b.metadata, name, uid } };
}

/**
 * The string as one flat copy, as JSON.parse gives every value. Built by concatenation, an ID
 * would be a rope of slices and pieces, larger than any fact read from a log.
 */
function flat(s: string): string {
  return Buffer.from(s, 'latin1').toString('latin1');
}

function build(total: number, tpl: { facts: PodWriteFact[]; name: string }): FactStore {
  const t0 = Date.parse(tpl.facts[0].at);
  const perBroker = Math.ceil(total / BROKERS);
  const base = Date.parse('2026-11-02T00:00:00Z');
  // Added as built, as the CLI adds projected facts: the store, not an array of objects.
  const out = new FactStore();
  let n = 0;
  for (let b = 0; b < BROKERS && n < total; b++) {
    const cluster = `fleet${String(b).padStart(3, '0')}-kafka`;
    const bt = retarget(tpl.facts, cluster);
    const oldName = tpl.name.split(TEMPLATE_CLUSTER).join(cluster);
    for (let i = 0; i < perBroker && n < total; i++, n++) {
      // Name and uid are shared by the incarnation's facts, as the projection interns them.
      const name = flat(`${cluster}-5-${i.toString(36).padStart(5, '0')}`);
      const uid = flat(`00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`);
      const shift = base + b * 37 + i * PERIOD_MS - t0;
      for (const [k, f] of bt.entries()) {
        out.add({
          ...f,
          at: new Date(Date.parse(f.at) + shift).toISOString(),
          doneAt: new Date(Date.parse(f.doneAt) + shift).toISOString(),
          auditID: flat(`${uid.slice(0, 24)}${(n * 16 + k).toString(16).padStart(12, '0')}`),
          name: f.name === null ? null : name,
          uid: f.uid === null ? null : uid,
          request: withMeta(f.request, name, uid, oldName),
          response: withMeta(f.response, name, uid, oldName),
        });
      }
    }
  }
  out.seal();
  return out;
}

/** JS heap plus typed-array memory (the fact store's columns live outside the heap). */
function usedMB(): number {
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
}

function heapMB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return usedMB();
}

/**
 * `stream`: the recreations are digested as the analysis hands them out and not held;
 * `hold`: analyzeFacts' arrays; `spool`: what the CLI does, the recreations spooled to a
 * temporary file as found (analyzeInto: a restart takes them back), then the JSON report written from the spool by the real
 * writer to REPORT_OUT (default /dev/null). All three print the same digest for the same
 * findings (spool: taken from the spool's texts after the report, outside the times).
 */
type Mode = 'stream' | 'hold' | 'spool';

async function main(total: number, mode: Mode): Promise<void> {
  const tpl = oneIncarnation(await templateFacts());
  const b0 = Date.now();
  const facts = build(total, tpl);
  const buildSeconds = (Date.now() - b0) / 1000;
  const heapAfterFactsMB = heapMB();
  let heapPeakMB = heapAfterFactsMB;
  // Samples the heap while the (synchronous) analysis runs would need a worker; sample
  // right after instead, before its result is dropped, plus RSS for the true peak.
  const a0 = Date.now();
  const digest = new FindingsDigest();
  let loops: Loop[];
  let recreations: number;
  let writeSeconds: number | undefined;
  let reportBytes: number | undefined;
  let a1 = 0;
  if (mode === 'hold') {
    const result = analyzeFacts(facts, defaultAnalysisOptions());
    for (const r of result.recreations) digest.add(r);
    loops = result.loops;
    recreations = result.recreations.length;
    a1 = Date.now();
    heapPeakMB = Math.max(heapPeakMB, usedMB());
  } else if (mode === 'stream') {
    const result = streamFindings(facts, defaultAnalysisOptions(), (r) => digest.add(r));
    loops = result.loops;
    recreations = result.recreations;
    a1 = Date.now();
    heapPeakMB = Math.max(heapPeakMB, usedMB());
  } else {
    const spool = new RecreationSpool();
    try {
      const result = analyzeInto(facts, defaultAnalysisOptions(), {
        add: (r) => spool.add(r),
        clear: () => spool.truncate(0),
      });
      loops = result.loops;
      recreations = result.recreations;
      a1 = Date.now();
      heapPeakMB = Math.max(heapPeakMB, usedMB());
      const w0 = Date.now();
      const out = createWriteStream(process.env.REPORT_OUT ?? '/dev/null');
      await once(out, 'open');
      await writeJson({ recreations: spool, loops, fights: [], summary: { recreations } }, out);
      out.end();
      await once(out, 'finish');
      writeSeconds = (Date.now() - w0) / 1000;
      reportBytes = out.bytesWritten;
      heapPeakMB = Math.max(heapPeakMB, usedMB());
      let i = 0;
      for (const text of spool.texts()) digest.addText(text, i++);
    } finally {
      spool.close();
    }
  }
  const analyzeSeconds = (a1 - a0) / 1000;
  const resultSha1 = digest.finish(loops);
  // What the analysis keeps (its result and any caches) once its garbage is collected.
  const heapAfterAnalysisMB = heapMB();
  const out = {
    incarnations: total,
    mode,
    facts: facts.size,
    buildSeconds,
    analyzeSeconds,
    ...(writeSeconds !== undefined ? { writeSeconds, reportBytes } : {}),
    msPerIncarnation: (analyzeSeconds * 1000) / total,
    heapAfterFactsMB,
    heapPeakMB,
    heapAfterAnalysisMB,
    analysisKBPerIncarnation: ((heapAfterAnalysisMB - heapAfterFactsMB) * 1024) / total,
    recreations,
    loops: loops.length,
    resultSha1,
    maxRssKB: process.resourceUsage().maxRSS,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

/**
 * A digest of the findings, so a faster analysis can show it found exactly the same: the
 * SHA-1 of each recreation's JSON, taken in deletion-time order (stable, as analyzeFacts
 * sorts), then the loops. 28 bytes per recreation, whichever order they arrive in.
 */
class FindingsDigest {
  private at: number[] = [];
  private shas = Buffer.alloc(20 * 1024);
  private n = 0;

  add(r: Recreation): void {
    this.addText(JSON.stringify(r), epochMicros(r.deletedPod.deletedAt));
  }

  /** A recreation's JSON text and its sort key (the spool's texts come in order: their index). */
  addText(text: string, at: number): void {
    if ((this.n + 1) * 20 > this.shas.length) {
      const bigger = Buffer.alloc(this.shas.length * 2);
      this.shas.copy(bigger);
      this.shas = bigger;
    }
    createHash('sha1')
      .update(text)
      .digest()
      .copy(this.shas, this.n * 20);
    this.at.push(at);
    this.n++;
  }

  finish(loops: Loop[]): string {
    const order = Array.from({ length: this.n }, (_, i) => i);
    order.sort((a, b) => this.at[a] - this.at[b] || a - b);
    const h = createHash('sha1');
    for (const i of order) h.update(this.shas.subarray(i * 20, i * 20 + 20));
    h.update(JSON.stringify(loops));
    return h.digest('hex').slice(0, 16);
  }
}

const mode = process.argv[3] ?? 'stream';
if (mode !== 'stream' && mode !== 'hold' && mode !== 'spool')
  throw new Error(`mode ${mode}: stream, hold or spool`);
main(Number(process.argv[2] ?? '1000'), mode).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
