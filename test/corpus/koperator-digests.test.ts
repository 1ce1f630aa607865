// koperator's documents, byte for byte: the CLI's JSON over every shared corpus and the
// examples, digested section by section and held against the digests taken at main's commit
// 3598445 (before NiFiKop's profile joined the registries). A second operator must not move
// one byte of koperator's findings, nor of the summary's counts (what was read, kept, parsed).
// One change since, on purpose: scenarios/audit (audit logs without operator logs) has the
// summary warning that no operator log line was read (issue 29); its findings are as before.
//
// Only `summary.seconds` (timing) is dropped, and each input's absolute path is written
// `<input>` so the digests hold in any checkout. A change meant to alter koperator's
// documents rewrites the digests with KOPERATOR_AUDIT_WRITE_DIGESTS=1 and says why in its
// commit.
import { createHash } from 'crypto';
import { existsSync, readFileSync, writeFileSync } from 'fs';
import * as path from 'path';
import { PassThrough } from 'stream';
import { runAnalyze } from '../../lib/cli/analyze-command';
import { DRIFT, EXTERNAL, FIGHTS, SCENARIOS } from '../support/shared-corpus';

const DIGESTS = path.join(__dirname, 'koperator-digests.json');
const EXAMPLES = path.resolve(__dirname, '..', '..', 'examples', 'logs');
const INPUTS: Array<[string, string]> = [
  ['scenarios', SCENARIOS],
  ['scenarios/audit', path.join(SCENARIOS, 'audit')],
  ['fights', FIGHTS],
  ['drift', DRIFT],
  ['external', EXTERNAL],
  ['examples', EXAMPLES],
];

async function jsonOf(dir: string): Promise<string> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (b: Buffer) => (out += b.toString()));
  const code = await runAnalyze(['-f', dir, '-o', 'json', '--quiet'], {
    stdout,
    stderr: new PassThrough(),
    stdin: new PassThrough(),
  });
  if (code !== 0) throw new Error(`analyze -f ${dir} exited ${code}`);
  return out;
}

/** sha256 of each top-level section of the document, timing dropped and paths made relative. */
function sectionDigests(json: string, dir: string): Record<string, string> {
  const doc = JSON.parse(json.split(dir).join('<input>')) as Record<string, unknown>;
  delete (doc.summary as Record<string, unknown>).seconds;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(doc))
    out[k] = createHash('sha256').update(JSON.stringify(v)).digest('hex');
  return out;
}

describe('koperator documents are byte-identical to main 3598445', () => {
  const held = JSON.parse(readFileSync(DIGESTS, 'utf8')) as Record<string, Record<string, string>>;
  const written: Record<string, Record<string, string>> = { ...held };

  afterAll(() => {
    if (process.env.KOPERATOR_AUDIT_WRITE_DIGESTS === '1')
      writeFileSync(DIGESTS, `${JSON.stringify(written, null, 2)}\n`);
  });

  it('holds a digest for every input', () => {
    expect(Object.keys(held).sort()).toEqual(INPUTS.map(([name]) => name).sort());
  });

  for (const [name, dir] of INPUTS) {
    if (!existsSync(dir)) {
      it.skip(`${name}: not run, ${dir} is absent`, () => undefined);
      continue;
    }
    it(`${name}: every section as before`, async () => {
      const got = sectionDigests(await jsonOf(dir), dir);
      written[name] = got;
      if (process.env.KOPERATOR_AUDIT_WRITE_DIGESTS === '1') return;
      expect(got).toEqual(held[name]);
    });
  }
});
