// An error nobody anticipated: one line and exit 5, the stack only behind --debug.
import * as path from 'path';
import { PassThrough, Readable, Writable } from 'stream';
import { main } from '../../lib/cli/main';

const EXAMPLES = path.resolve(__dirname, '../../examples/logs');

async function crash(argv: string[]): Promise<{ code: number; stderr: string }> {
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (d) => (err += d));
  // A stdout that breaks as no real one should: the one way to reach the unexpected path.
  const stdout = new Writable({ write: (_c, _e, done) => done() });
  stdout.write = () => {
    throw new Error('stdout broke');
  };
  const code = await main(argv, { stdout, stderr, stdin: Readable.from([]) });
  return { code, stderr: err };
}

describe('unexpected errors', () => {
  const argv = ['analyze', '--input', EXAMPLES, '--format', 'json'];

  it('are one line and exit 5 without --debug', async () => {
    const r = await crash(argv);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      'koperator-audit analyze: unexpected error: stdout broke (run again with --debug for the stack, and please report it)\n',
    );
  });

  it('print the stack with --debug, wherever it is given', async () => {
    const r = await crash(['--debug', ...argv]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /^koperator-audit analyze: unexpected error: stdout broke\nError: stdout broke\n\s+at /,
    );
  });
});
