// The streamed JSON report is renderJson's text byte for byte, whatever the document holds,
// whether its recreations come from an array or the spool; it waits when the destination
// asks it to, and a destination's failure is an error, not a shorter report.
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { Writable } from 'stream';
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { RecreationSpool } from '../../lib/analyze/recreation-spool';
import { sortByKey } from '../../lib/analyze/sort-by-key';
import { epochMicros } from '../../lib/analyze/time';
import type { FindingsDocument, Recreation } from '../../lib/model/findings';
import { renderJson } from '../../lib/report/json';
import { writeJson } from '../../lib/report/json-stream';
import { simulateCluster } from '../../sim';
import { simulatedFacts } from '../support/sim-facts';
import { buildFixture, buildLarge } from './fixture';
import { buildLoopingFleet } from './looping-fleet';

/** Collects what is written; `slow` acknowledges each chunk a tick later, with a tiny buffer. */
class Collector extends Writable {
  readonly chunks: Buffer[] = [];
  writesWhileFull = 0;
  constructor(
    private readonly slow = false,
    private readonly failAfter = Infinity,
  ) {
    super({ highWaterMark: slow ? 16 : 16 * 1024 });
  }
  override write(chunk: unknown, ...rest: unknown[]): boolean {
    if (this.writableNeedDrain) this.writesWhileFull++;
    return (super.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    if (this.chunks.length >= this.failAfter) {
      done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      return;
    }
    this.chunks.push(chunk);
    if (this.slow) setImmediate(done);
    else done();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function simulated(seed: number, auditLevel: 'RequestResponse' | 'Metadata'): FindingsDocument {
  const facts = simulatedFacts(simulateCluster({ seed, start: '2026-11-03T08:00:00Z', auditLevel }));
  const { recreations, loops } = analyzeFacts(facts, defaultAnalysisOptions());
  return {
    recreations,
    loops,
    fights: [],
    summary: { facts: facts.length, recreations: recreations.length },
  };
}

/** Strings that would trip a writer that splices text: newlines, quotes, its own markers. */
function hostile(): FindingsDocument {
  const doc = buildFixture();
  const r0: Recreation = doc.recreations[0];
  const odd: Recreation = {
    ...r0,
    evidence: ['line\nbreak', '"recreations": []', '\u2028\u2029 \ud800 lone', '    ', ''],
    fields: [
      {
        path: 'metadata.annotations["a\\nb"]',
        from: undefined,
        to: { 2: 'b', 1: 'a', z: [], y: {} },
        by: null,
      },
      { path: 'spec', from: [undefined, null, -0, 1e21, 0.1], to: 'x', by: undefined as unknown as null },
    ],
    createdPod: undefined as unknown as null,
  };
  return {
    ...doc,
    recreations: [odd, ...doc.recreations],
    summary: {
      ...doc.summary,
      warnings: ['"recreations": [', '\n  ],'],
      inputs: ['"recreations": []'],
    },
  };
}

const docs: Array<[string, () => FindingsDocument]> = [
  ['empty', () => ({ recreations: [], loops: [], summary: {} })],
  ['no recreations, loops and fights kept', () => ({ ...buildFixture(), recreations: [] })],
  ['one recreation', () => ({ ...buildFixture(), recreations: buildFixture().recreations.slice(0, 1) })],
  ['the report fixture (every class, injections)', buildFixture],
  ['hostile strings and absent values', hostile],
  [
    'input errors and no fights key',
    () => {
      const { fights: _fights, ...rest } = buildFixture();
      return {
        ...rest,
        summary: { ...rest.summary, inputErrors: [{ input: '/x', reason: 'no such file' }] },
      };
    },
  ],
  ['a simulated cluster (seed 1, RequestResponse)', () => simulated(1, 'RequestResponse')],
  ['a simulated cluster (seed 2, Metadata)', () => simulated(2, 'Metadata')],
  ['3,000 recreations', () => buildLarge(3000)],
  [
    'a looping fleet',
    () =>
      buildLoopingFleet({
        loopingBrokers: 6,
        loopsPerBroker: 2,
        perLoop: 40,
        steadyBrokers: 3,
        perSteadyBroker: 5,
        otherWebhookEvery: 2,
        activeAtEnd: true,
      }),
  ],
];

const dir = mkdtempSync(path.join(tmpdir(), 'ka-json-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(docs)('%s', (_name, make) => {
  const doc = make();
  const want = renderJson(doc);

  it('from an array: renderJson byte for byte', async () => {
    const out = new Collector();
    await writeJson(doc, out);
    expect(out.text()).toBe(want);
  });

  it('from the spool, to a destination that is slow and asks to wait: the same bytes, never overfilled', async () => {
    const spool = new RecreationSpool({ dir, bufferBytes: 2048 });
    try {
      // Handed out backwards; the spool gives them back as analyzeFacts' sort would.
      const handedOut = [...doc.recreations].reverse();
      for (const r of handedOut) spool.add(r);
      const sorted = [...handedOut];
      sortByKey(sorted, (r) => epochMicros(r.deletedPod.deletedAt));
      const out = new Collector(true);
      await writeJson({ ...doc, recreations: spool }, out);
      expect(out.text()).toBe(renderJson({ ...doc, recreations: sorted }));
      expect(out.writesWhileFull).toBe(0);
    } finally {
      spool.close();
    }
  });
});

it('a destination that fails part-way rejects with its error', async () => {
  const doc = buildLarge(3000);
  expect(renderJson(doc).length).toBeGreaterThan(4 * 65536);
  const out = new Collector(false, 2);
  await expect(writeJson(doc, out)).rejects.toThrow('ENOSPC');
  expect(out.chunks.length).toBe(2);
});

it('a destination that fails on its last write rejects too', async () => {
  const doc = buildFixture();
  const out = new Collector(false, 0);
  await expect(writeJson(doc, out)).rejects.toThrow('ENOSPC');
});
