// docs/cli.md shows what each command's --help prints, word for word: the page is the
// reference of every flag, so it must change when a command's help does.
import { readFileSync } from 'fs';
import * as path from 'path';
import { PassThrough, Readable } from 'stream';
import { main } from '../../lib/cli/main';

const CLI_MD = readFileSync(path.resolve(__dirname, '../../docs/cli.md'), 'utf8');

async function help(argv: string[]): Promise<string> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += d));
  const code = await main(argv, { stdout, stderr: new PassThrough(), stdin: Readable.from(['']) });
  expect(code).toBe(0);
  return out;
}

describe('docs/cli.md', () => {
  it.each([
    'koperator-audit --help',
    ...['analyze', 'explain-pod', 'local-pipeline', 'backfill'].map((c) => `koperator-audit ${c} --help`),
  ])('shows `%s` as the command prints it', async (title: string) => {
    const command = title.split(' ').slice(1, -1);
    const block = new RegExp(`### \`${title}\`\\n\\n\`\`\`text\\n([\\s\\S]*?)\\n\`\`\``).exec(CLI_MD)?.[1];
    // On a difference: paste the command's output (`node bin/koperator-audit.js … --help`).
    expect(block).toBe((await help([...command, '--help'])).replace(/\n$/, ''));
  });
});
