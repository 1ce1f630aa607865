// Records every AWS SDK call the functions make while a test drives them, and which
// function made it: each handler runs inside `asFunction(name, ...)` (AsyncLocalStorage),
// and the clients' `send` is wrapped for the duration. Calls made outside a function (the
// test's own set-up, the emulated event source mappings) are not recorded. Test-only.
import { AsyncLocalStorage } from 'async_hooks';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';

export interface RawCall {
  fn: string;
  /** S3, SQS, SNS, SSM, EventBridge, SecretsManager */
  service: string;
  /** The SDK command's name less "Command": GetObject, ListObjectsV2, … */
  operation: string;
  input: Record<string, unknown>;
  /** 'ok', or the error's name and HTTP status (NoSuchKey 404). */
  outcome: string;
}

const current = new AsyncLocalStorage<string>();

export function asFunction<T>(fn: string, run: () => Promise<T>): Promise<T> {
  return current.run(fn, run);
}

type Send = (
  this: unknown,
  command: { constructor: { name: string }; input: object },
  ...rest: unknown[]
) => Promise<unknown>;

const CLIENTS: [string, { prototype: object }][] = [
  ['S3', S3Client],
  ['SQS', SQSClient],
  ['SNS', SNSClient],
  ['SSM', SSMClient],
  ['EventBridge', EventBridgeClient],
  ['SecretsManager', SecretsManagerClient],
];

/**
 * Starts recording; the returned function stops it and gives the calls. `fakeEventBridge`
 * answers PutEvents itself, since the emulator has no EventBridge: the call is still the
 * function's own, recorded as made.
 */
let active: RawCall[] | null = null;

/**
 * A pre-signed GET made by the running function: signing sends nothing, but whoever
 * follows the link is authorized as the signer's s3:GetObject.
 */
export function notePresigned(input: { Bucket?: string; Key?: string }): void {
  const fn = current.getStore();
  if (active && fn !== undefined)
    active.push({ fn, service: 'S3', operation: 'PresignGetObject', input: { ...input }, outcome: 'ok' });
}

export function recordCalls(opts: { fakeEventBridge?: boolean } = {}): () => RawCall[] {
  const calls: RawCall[] = [];
  active = calls;
  const restore: (() => void)[] = [];
  for (const [service, Client] of CLIENTS) {
    // `send` lives on the shared smithy Client prototype: wrap it on the service's own prototype.
    const proto = Client.prototype as { send: Send };
    const original = proto.send;
    const own = Object.prototype.hasOwnProperty.call(proto, 'send');
    proto.send = async function (this: unknown, command, ...rest) {
      const fn = current.getStore();
      if (fn === undefined) return original.call(this, command, ...rest);
      const call: RawCall = {
        fn,
        service,
        operation: command.constructor.name.replace(/Command$/, ''),
        input: { ...(command.input as Record<string, unknown>) },
        outcome: 'ok',
      };
      calls.push(call);
      if (service === 'EventBridge' && opts.fakeEventBridge) {
        const entries = (call.input.Entries as unknown[] | undefined) ?? [];
        return { FailedEntryCount: 0, Entries: entries.map((_, i) => ({ EventId: `recorded-${i}` })) };
      }
      try {
        return await original.call(this, command, ...rest);
      } catch (e) {
        const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
        call.outcome = `${err.name ?? 'Error'} ${err.$metadata?.httpStatusCode ?? ''}`.trim();
        throw e;
      }
    };
    restore.push(() => {
      if (own) proto.send = original;
      else delete (proto as { send?: Send }).send;
    });
  }
  return () => {
    active = null;
    for (const r of restore.reverse()) r();
    return calls;
  };
}
