// --autoscaler-user (and autoscalerUsers in --config) through the analyze command: a resize by
// that user is an autoscaler's drift, by anyone else a change.
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { PassThrough } from 'stream';
import { runAnalyze } from '../../lib/cli/analyze-command';
import { parseConfigFile } from '../../lib/config/config-file';
import { created, event, storedPod } from './broker-pod-events';

const SCALER = 'system:serviceaccount:scaleops-system:scaleops-updater';
const TMP = mkdtempSync(path.join(tmpdir(), 'ka-drift-'));
const LOG = path.join(TMP, 'audit.log');
writeFileSync(
  LOG,
  [
    created(),
    event('patch', {
      user: SCALER,
      subresource: 'resize',
      second: 5,
      request: { spec: { containers: [{ name: 'kafka', resources: { requests: { cpu: '1500m' } } }] } },
      response: storedPod('101', (p) => (p.spec.containers[0].resources.requests.cpu = '1500m')),
    }),
  ]
    .map((e) => JSON.stringify(e))
    .join('\n') + '\n',
);

async function severities(args: string[]): Promise<string[]> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = '';
  stdout.on('data', (b: Buffer) => (text += b.toString()));
  stderr.resume();
  const code = await runAnalyze(['--input', LOG, '--format', 'json', '--quiet', ...args], {
    stdout,
    stderr,
    stdin: new PassThrough(),
  });
  expect(code).toBe(0);
  return (JSON.parse(text) as { drifts: Array<{ severity: string }> }).drifts.map((d) => d.severity);
}

describe('--autoscaler-user', () => {
  it.each([
    ['no flag', [], ['change']],
    ['the flag names the resizer', ['--autoscaler-user', SCALER], ['autoscaler']],
    ['the flag names someone else', ['--autoscaler-user', 'someone'], ['change']],
  ])('%s', async (_name, args, expected) => {
    expect(await severities(args)).toEqual(expected);
  });

  it('is read from the config file as autoscalerUsers', async () => {
    const file = path.join(TMP, 'config.yaml');
    writeFileSync(file, `autoscalerUsers: [${SCALER}]\n`);
    expect(parseConfigFile(`autoscalerUsers: [${SCALER}]`).autoscalerUsers).toEqual([SCALER]);
    expect(await severities(['--config', file])).toEqual(['autoscaler']);
  });
});
