// `npx tsx scripts/measure-ingest-cost.ts [--size 200MB] [--format firehose|jsonl]`: the
// cost figure in infra/README-deploy.md, measured. Generates the benchmark's audit log
// (bench/generate.ts: 92.5 % noise, cached in bench/data/), uploads it to the emulator,
// runs the unchanged ingest handler on its S3 notification, and converts the handler's
// CPU time into Lambda GB-seconds: ingestion is single-threaded, so at up to 1,769 MB (one
// vCPU) a function with M MB gets M/1,769 of a vCPU and bills M/1,024 GB, i.e.
// cpu seconds x 1,769/1,024 GB-seconds whatever M is.
import { pointHandlersAt } from '../lib/local-aws/handler-env';
import { performance } from 'perf_hooks';
import { readFile } from 'fs/promises';
import { ensureBenchFile, parseSize, type BenchFormat } from '../bench/generate';
import { enqueueObjects, listObjects } from '../lib/aws/backfill';
import { startFauxqs } from '../lib/local-aws/fauxqs-server';
import { createLocalStack, driveSqsHandler, localClients, uploadObject } from '../lib/local-aws/local-stack';
import { helpRequested } from './usage';

const USAGE = `Usage: npx tsx scripts/measure-ingest-cost.ts [--size 200MB] [--format firehose|jsonl]

Runs the ingest handler on a generated audit log in the local emulator and prints what
it would cost on Lambda (infra/README-deploy.md's figure).
  -h, --help   this text
`;

/** us-east-1 Lambda prices (arm64, as the stack deploys): per GB-second and per request. */
const ARM_GB_SECOND_USD = 0.0000133334;
const REQUEST_USD = 0.2 / 1e6;

async function main(): Promise<void> {
  helpRequested(process.argv.slice(2), USAGE);
  const arg = (name: string, dflt: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1]! : dflt;
  };
  const size = parseSize(arg('--size', '200MB'));
  const format = arg('--format', 'firehose') as BenchFormat;
  const file = await ensureBenchFile({ size, format, seed: 1, log: (s) => console.error(s) });
  const fx = await startFauxqs();
  try {
    const clients = localClients(fx.clientConfig);
    const stack = await createLocalStack(clients, { bucket: 'cost' });
    await uploadObject(clients.s3, 'cost', 'logs/bench/audit.gz', await readFile(file.path));
    await enqueueObjects(
      clients.sqs,
      stack.ingestQueueUrl,
      listObjects(clients.s3, { bucket: 'cost', prefix: 'logs/' }),
      {
        region: fx.region,
      },
    );
    // The ingest alone: no analysis asked for on evidence (no queue), as measured before.
    pointHandlersAt(fx, { ...stack, bucket: 'cost' }, { ANALYSIS_QUEUE_URL: '', TOPIC_ARN: '' });
    const { handler } = await import('../functions/ingest');
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await driveSqsHandler(clients.sqs, stack.ingestQueueUrl, stack.ingestQueueArn, handler);
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(cpu0);
    const cpu = (c.user + c.system) / 1e6;
    const gb = file.uncompressedBytes / 1e9;
    const gbSeconds = (cpu / gb) * (1769 / 1024);
    console.log(
      JSON.stringify(
        {
          file: file.path,
          format,
          uncompressedGB: +gb.toFixed(3),
          compressedMB: +(file.compressedBytes / 1e6).toFixed(1),
          failures: r.failures.flat().length,
          wallSeconds: +wall.toFixed(2),
          cpuSecondsPerGB: +(cpu / gb).toFixed(2),
          lambdaGBSecondsPerGB: +gbSeconds.toFixed(2),
          usdPerGB: +(gbSeconds * ARM_GB_SECOND_USD + REQUEST_USD).toFixed(6),
        },
        null,
        1,
      ),
    );
  } finally {
    await fx.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
