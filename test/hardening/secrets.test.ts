// Secrets never leave: known, unique strings are planted in every place of the logs
// where a secret can sit, the whole pipeline runs over them, and no output that leaves
// the process (reports in every format, SNS messages, Slack payloads, the facts written
// to S3, the Athena findings history, stderr and console) may contain any of them. The same outputs must still carry
// the non-secret evidence (pod, webhook and user names, resource values), so this test
// fails both when something leaks and when the outputs stop saying anything.
//
// The base corpus is the shared scenario corpus (real formats, a webhook revert loop on
// events-kafka broker 5); the secrets are planted into its records and the result is
// re-encoded with sim/encode.ts into a temporary folder.
import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PassThrough, Readable } from 'stream';
import type { DriftAlert, FightAlert, LoopAlert, RecreationAlert } from '../../lib/alerts/types';
import { simulateFights, type FightWebhook } from '../../sim/fights';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { REDACTED, redactField } from '../../lib/analyze/redact';
import { encodeFacts } from '../../lib/facts/codec';
import { encodeRow, hourOfMs, rowsForHour } from '../../lib/history/findings-rows';
import { main } from '../../lib/cli/main';
import { createIngestStats, ingest } from '../../lib/ingest';
import { decodeLastApplied, encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../../lib/k8s/last-applied';
import type { AuditEvent } from '../../lib/model/audit';
import type { FindingsDocument } from '../../lib/model/findings';
import type { OperatorLine } from '../../lib/model/operator-line';
import { alertAttributes, alertSubject, buildSnsMessage, toAlertMessage } from '../../lib/notify/message';
import { buildChatNotification, buildChatSnsMessage } from '../../lib/notify/chat';
import { buildEmailText } from '../../lib/notify/email';
import { buildEventBridgeEntry } from '../../lib/notify/eventbridge';
import { buildSlackPayload } from '../../lib/notify/slack';
import { analyzeInputs, collectFacts } from '../../lib/pipeline/analyze-inputs';
import { REPORT_FORMATS, renderReport } from '../../lib/report';
import { encodeAudit, encodeOperator, type AuditContainer } from '../../sim/encode';
import { listLocal } from '../../lib/sources/local';
import { describeWithCorpus, SCENARIOS } from '../support/shared-corpus';

type Json = Record<string, unknown>;

/** Every planted secret, by where it was planted. Unique strings, found nowhere else. */
const SECRET = {
  secretData: 'plnt-secret-data-4b1f9e',
  secretStringData: 'plnt-secret-stringdata-77c2a0',
  secretLastApplied: 'plnt-secret-lastapplied-c03d51',
  saTokenSecret: 'plnt-sa-token-secret-e8a442',
  bearerAnnotation: 'plnt-bearer-annotation-19fe6c',
  tokenRequest: 'plnt-tokenrequest-token-5d7b13',
  configMapData: 'plnt-configmap-data-a61c90',
  configMapBinary: 'plnt-configmap-binary-2f8e37',
  configMapLastApplied: 'plnt-configmap-lastapplied-90b4de',
  awsAccessKeyId: 'ASIAPLNTACCESSKEY7Q2Z',
  awsSessionName: 'plnt-session-name-6e21bd',
  credentialId: 'plnt-credential-id-0ac7f3',
  impersonatedExtra: 'plnt-impersonated-extra-3c9d28',
  auditAnnotationBearer: 'plnt-audit-annotation-bearer-8a04f1',
  brokerEnvDesired: 'plnt-broker-env-desired-41d7aa',
  brokerEnvMutated: 'plnt-broker-env-mutated-ce5f02',
  removedEnv: 'plnt-webhook-removed-env-93a1f4',
  sidecarEnv: 'plnt-sidecar-env-7b39c6',
  operatorField: 'plnt-operator-field-d2e860',
  // Other controllers' fights (fights.md): their values never reach a fact or an output.
  fightDesiredEnv: 'plnt-fight-desired-env-5a1c77',
  fightInjectedEnv: 'plnt-fight-injected-env-0d93be',
  fightAnnotationA: 'plnt-fight-annotation-a-61f0c2',
  fightAnnotationB: 'plnt-fight-annotation-b-a4e7d9',
  // Live drift (drift.md): an env value a tamperer gave a debug container in a broker pod.
  tamperEnv: 'plnt-tamper-debug-env-6f28e1',
} as const;
type SecretKey = keyof typeof SECRET;

/**
 * Planted inside pod specs. Facts keep pod specs (minus managedFields) because the diff
 * needs them, so these may sit at rest in the facts bucket; SECURITY.md says so. They
 * must still never reach a report, an alert or a log line.
 */
const IN_POD_SPEC: ReadonlySet<SecretKey> = new Set([
  'tamperEnv',
  'brokerEnvDesired',
  'brokerEnvMutated',
  'removedEnv',
  'sidecarEnv',
]);

const LOOP_CLUSTER = 'events-kafka';
const LOOP_POD_PREFIX = 'events-kafka-5-';
const LOOP_WEBHOOK = 'affinity.spread.example.com';
const PLANTED_ENV = 'DB_PASSWORD';
/** Declared, then removed by the webhook: the diff reports it as a whole env var, {name, value}. */
const REMOVED_ENV = 'LEGACY_API_KEY';

/** The planted env vars as declared (last-applied and the request). */
function desiredEnv(): Json[] {
  return [
    { name: PLANTED_ENV, value: SECRET.brokerEnvDesired },
    { name: REMOVED_ENV, value: SECRET.removedEnv },
  ];
}

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objAt(v: unknown, ...keys: string[]): Json {
  let cur: unknown = v;
  for (const k of keys) {
    if (!isObj(cur)) throw new Error(`no object at ${keys.join('.')}`);
    cur = cur[k];
  }
  if (!isObj(cur)) throw new Error(`no object at ${keys.join('.')}`);
  return cur;
}

function containers(pod: unknown): Json[] {
  const list = objAt(pod, 'spec').containers;
  if (!Array.isArray(list)) throw new Error('pod without containers');
  return list.filter(isObj);
}

function envOf(container: Json): Json[] {
  if (!Array.isArray(container.env)) container.env = [];
  return container.env as Json[];
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** An audit event of a write by `user`, at the time of `like` (so it falls inside the corpus window). */
function writeEvent(
  like: AuditEvent,
  id: string,
  ref: Json,
  verb: string,
  bodies: { request?: unknown; response?: unknown },
): AuditEvent {
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'RequestResponse',
    auditID: id,
    stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/kafka/${String(ref.resource)}`,
    verb,
    user: { username: 'alice@example.com', groups: ['system:authenticated'] },
    objectRef: ref,
    responseStatus: { code: verb === 'create' ? 201 : 200 },
    requestObject: bodies.request,
    responseObject: bodies.response,
    requestReceivedTimestamp: like.requestReceivedTimestamp,
    stageTimestamp: like.stageTimestamp,
  };
}

/** Secret, ConfigMap and TokenRequest writes carrying secrets in their bodies and annotations. */
function secretBearingEvents(like: AuditEvent, n: number): AuditEvent[] {
  const id = (k: number): string => `5ec12e75-0000-4000-8000-${String(n * 10 + k).padStart(12, '0')}`;
  const secret = {
    kind: 'Secret',
    apiVersion: 'v1',
    metadata: {
      name: 'kafka-sasl-credentials',
      namespace: 'kafka',
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
          stringData: { password: SECRET.secretLastApplied },
        }),
        'example.com/authorization': `Bearer ${SECRET.bearerAnnotation}`,
      },
    },
    data: { password: b64(SECRET.secretData), token: b64(SECRET.saTokenSecret) },
    stringData: { 'client.properties': `sasl.password=${SECRET.secretStringData}` },
    type: 'kubernetes.io/service-account-token',
  };
  const configMap = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      // Named as koperator names a broker's ConfigMap (of no broker in these logs), so the
      // write is relevant and kept as a fact: its metadata only.
      name: 'pipeline-kafka-config-99',
      namespace: 'kafka',
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
          data: { password: SECRET.configMapLastApplied },
        }),
      },
    },
    data: { 'jaas.conf': `password="${SECRET.configMapData}";` },
    binaryData: { keystore: b64(SECRET.configMapBinary) },
  };
  const tokenRequest = {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    spec: { audiences: ['sts.amazonaws.com'], expirationSeconds: 3600 },
    status: { token: SECRET.tokenRequest, expirationTimestamp: '2026-11-02T11:30:00Z' },
  };
  return [
    writeEvent(
      like,
      id(1),
      { resource: 'secrets', namespace: 'kafka', name: 'kafka-sasl-credentials', apiVersion: 'v1' },
      'create',
      {
        request: secret,
        response: secret,
      },
    ),
    writeEvent(
      like,
      id(2),
      { resource: 'configmaps', namespace: 'kafka', name: 'pipeline-kafka-config-99', apiVersion: 'v1' },
      'update',
      {
        request: configMap,
        response: configMap,
      },
    ),
    writeEvent(
      like,
      id(3),
      {
        resource: 'serviceaccounts',
        namespace: 'kafka',
        name: 'kafka',
        subresource: 'token',
        apiVersion: 'v1',
      },
      'create',
      { request: { ...tokenRequest, status: {} }, response: tokenRequest },
    ),
  ];
}

/** The caller's credentials and impersonation, and an audit annotation with a bearer token, on every pod write. */
function plantIdentity(e: AuditEvent): void {
  e.user = {
    ...e.user,
    extra: {
      accessKeyId: [SECRET.awsAccessKeyId],
      sessionName: [SECRET.awsSessionName],
      'authentication.kubernetes.io/credential-id': [SECRET.credentialId],
    },
  };
  // The impersonated user's name is no secret: findings name it (findings-contract.md,
  // "Users"), so the plant impersonates the caller itself and only its extra is secret.
  e.impersonatedUser = {
    username: e.user.username,
    extra: { 'example.com/ticket': [SECRET.impersonatedExtra] },
  };
  e.annotations = {
    ...(e.annotations ?? {}),
    'example.com/authorization': `Bearer ${SECRET.auditAnnotationBearer}`,
  };
}

/** Adds the planted vars to the broker container's desired state (last-applied and the body). */
function plantDesiredEnv(pod: unknown): void {
  const meta = objAt(pod, 'metadata');
  const annotations = objAt(meta, 'annotations');
  const encoded = annotations[LAST_APPLIED_ANNOTATION];
  if (typeof encoded === 'string') {
    const d = decodeLastApplied(encoded);
    if (!d.ok) throw new Error(`corpus last-applied unreadable: ${d.reason}`);
    const kafka = containers(d.value).find((c) => c.name === 'kafka');
    if (kafka) envOf(kafka).push(...desiredEnv());
    annotations[LAST_APPLIED_ANNOTATION] = encodeLastApplied(d.value, d.encoding);
  }
  const kafka = containers(pod).find((c) => c.name === 'kafka');
  if (kafka) envOf(kafka).push(...desiredEnv());
}

/**
 * On every create of events-kafka broker 5: the desired pod gains DB_PASSWORD, the
 * looping affinity webhook also rewrites its value (so the env var becomes one of the
 * finding's fields, from → to) and removes LEGACY_API_KEY, and the Istio sidecar carries a
 * secret env value. Returns the planted env vars the stored pod ends up with.
 */
function plantPodCreate(e: AuditEvent): Json[] {
  const req = e.requestObject;
  const res = e.responseObject;
  plantDesiredEnv(req);
  plantDesiredEnv(res);
  const reqKafka = containers(req).findIndex((c) => c.name === 'kafka');
  const envIndex = envOf(containers(req)[reqKafka]).findIndex((v) => v.name === PLANTED_ENV);
  for (const c of containers(res)) {
    if (c.name === 'istio-proxy')
      envOf(c).push({ name: 'ISTIO_META_CLUSTER_TOKEN', value: SECRET.sidecarEnv });
  }
  const annotations = e.annotations ?? {};
  const key = Object.keys(annotations).find(
    (k) => k.startsWith('patch.webhook.') && annotations[k].includes(LOOP_WEBHOOK),
  );
  if (!key) return desiredEnv(); // not mutated by the looping webhook: desired and live agree
  const patch = JSON.parse(annotations[key]) as Json;
  (patch.patch as Json[]).push(
    {
      op: 'replace',
      path: `/spec/containers/${reqKafka}/env/${envIndex}/value`,
      value: SECRET.brokerEnvMutated,
    },
    { op: 'remove', path: `/spec/containers/${reqKafka}/env/${envIndex + 1}` },
  );
  annotations[key] = JSON.stringify(patch);
  const resKafka = containers(res).find((c) => c.name === 'kafka');
  const planted = resKafka ? envOf(resKafka).find((v) => v.name === PLANTED_ENV) : undefined;
  if (planted) planted.value = SECRET.brokerEnvMutated;
  if (resKafka) resKafka.env = envOf(resKafka).filter((v) => v.name !== REMOVED_ENV);
  return [{ name: PLANTED_ENV, value: SECRET.brokerEnvMutated }];
}

function podName(body: unknown): string | null {
  if (!isObj(body) || body.kind !== 'Pod' || !isObj(body.metadata)) return null;
  return typeof body.metadata.name === 'string' ? body.metadata.name : null;
}

/**
 * Every later body of a planted pod (the delete's response is the live pod the diff
 * reads) carries the same last-applied and the pod's live DB_PASSWORD value.
 */
function plantLaterBody(body: unknown, live: readonly Json[]): void {
  if (isObj(objAt(body, 'metadata').annotations)) {
    const annotations = objAt(body, 'metadata', 'annotations');
    const encoded = annotations[LAST_APPLIED_ANNOTATION];
    if (typeof encoded === 'string') {
      const d = decodeLastApplied(encoded);
      if (!d.ok) throw new Error(`corpus last-applied unreadable: ${d.reason}`);
      const kafka = containers(d.value).find((c) => c.name === 'kafka');
      if (kafka) envOf(kafka).push(...desiredEnv());
      annotations[LAST_APPLIED_ANNOTATION] = encodeLastApplied(d.value, d.encoding);
    }
  }
  const kafka =
    isObj(body) && isObj(body.spec) ? containers(body).find((c) => c.name === 'kafka') : undefined;
  if (kafka) envOf(kafka).push(...live.map((v) => ({ ...v })));
}

const TAMPER_CONTAINER = 'debugger-plnt1';

/**
 * `kubectl debug` into a broker pod of the loop (an update of pods/ephemeralcontainers, as a
 * 1.20 API server logs it), its container given an env value: a drift whose `to` is the
 * container, which must show without the value.
 */
function tamperEvent(like: AuditEvent): AuditEvent {
  const meta = (like.responseObject as Json).metadata as Json;
  const at = new Date(Date.parse(like.stageTimestamp) + 1500).toISOString().replace('Z', '000Z');
  const body = (resourceVersion: string) => ({
    kind: 'EphemeralContainers',
    apiVersion: 'v1',
    metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion },
    ephemeralContainers: [
      {
        name: TAMPER_CONTAINER,
        image: 'busybox:1.36',
        targetContainerName: 'kafka',
        env: [{ name: 'DEBUG_TOKEN', value: SECRET.tamperEnv }],
      },
    ],
  });
  return {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'RequestResponse',
    auditID: 'd1f7c0de-5eed-4a11-9e55-7a3b9e2f0c01',
    stage: 'ResponseComplete',
    requestURI: `/api/v1/namespaces/${String(meta.namespace)}/pods/${String(meta.name)}/ephemeralcontainers`,
    verb: 'update',
    user: { username: 'mallory@example.com', groups: ['system:authenticated'] },
    objectRef: {
      resource: 'pods',
      namespace: String(meta.namespace),
      name: String(meta.name),
      uid: String(meta.uid),
      apiVersion: 'v1',
      subresource: 'ephemeralcontainers',
    },
    responseStatus: { code: 200 },
    requestObject: body('1'),
    responseObject: body('2'),
    requestReceivedTimestamp: at,
    stageTimestamp: at,
  };
}

function isLoopPodCreate(e: AuditEvent): boolean {
  if (
    e.objectRef?.resource !== 'pods' ||
    e.objectRef.subresource ||
    e.verb !== 'create' ||
    e.stage !== 'ResponseComplete'
  )
    return false;
  if (!isObj(e.requestObject) || !isObj(e.responseObject)) return false;
  const name = objAt(e.responseObject, 'metadata').name;
  return typeof name === 'string' && name.startsWith(LOOP_POD_PREFIX);
}

interface Outputs {
  doc: FindingsDocument;
  /** Everything that leaves the process, by name. */
  texts: Record<string, string>;
  facts: string;
}

/** Containers the secret-bearing events are also written in, so every reader meets them. */
const EXTRA_CONTAINERS: readonly AuditContainer[] = [
  'audit-eventlist-pretty',
  'eks-cloudwatch-export',
  'eks-firehose-cwl',
  'fluent-bit-log',
  'aks-diagnostic',
  'gke-logentry',
];

async function buildCorpus(dir: string): Promise<void> {
  const stats = createIngestStats();
  const events: AuditEvent[] = [];
  const lines: OperatorLine[] = [];
  for await (const r of ingest(listLocal(SCENARIOS), stats, { relevantOnly: false })) {
    if (r.kind === 'audit') events.push(r.event);
    else lines.push(r.line);
  }
  const liveValue = new Map<string, Json[]>();
  for (const e of events) {
    if (e.objectRef?.resource === 'pods') plantIdentity(e);
    if (isLoopPodCreate(e)) liveValue.set(podName(e.responseObject) ?? '', plantPodCreate(e));
  }
  for (const e of events) {
    if (isLoopPodCreate(e)) continue;
    for (const body of [e.requestObject, e.responseObject]) {
      const live = liveValue.get(podName(body) ?? '');
      if (live) plantLaterBody(body, live);
    }
  }
  const planted = liveValue.size;
  // Guards the fixture itself: without the loop's creates the test would prove nothing.
  if (planted < 3) throw new Error(`only ${planted} creates of ${LOOP_POD_PREFIX}* in the corpus`);
  for (const l of lines) l.fields.saslPassword = SECRET.operatorField;
  const like = events.find(isLoopPodCreate) ?? events[0];
  await fs.writeFile(
    path.join(dir, 'audit.log.gz'),
    encodeAudit('audit-jsonl', [...events, ...secretBearingEvents(like, 0), tamperEvent(like)], {
      gzip: true,
    }),
  );
  for (const [i, c] of EXTRA_CONTAINERS.entries()) {
    await fs.writeFile(path.join(dir, `extra-${c}.log`), encodeAudit(c, secretBearingEvents(like, i + 1)));
  }
  await fs.writeFile(path.join(dir, 'operator.log'), encodeOperator('zap-json', lines));
  await fs.writeFile(
    path.join(dir, 'fights.log.gz'),
    encodeAudit('audit-jsonl', plantedFights(), { gzip: true }),
  );
}

const FIGHT_ENV = 'INJECTED_TOKEN';
const FIGHT_DESIRED_ENV = 'PGPASSWORD';
const FIGHT_WEBHOOK = 'secret-injector/inject.secrets.example.com';
const FIGHT_ANNOTATION = 'example.com/rotation-token';

/**
 * Another operator's recreate loop whose webhook injects a secret-valued env var into pods
 * that already carry one, and two controllers fighting over an annotation whose values are
 * secrets: the fights are found (their paths and names are evidence) and no value leaves.
 */
function plantedFights(): AuditEvent[] {
  const injector: FightWebhook = {
    configuration: 'secret-injector',
    webhook: 'inject.secrets.example.com',
    mutate: () => [
      {
        op: 'add',
        path: '/spec/containers/0/env/-',
        value: { name: FIGHT_ENV, value: SECRET.fightInjectedEnv },
      },
    ],
    fields: () => [`spec.containers[name=postgres].env[name=${FIGHT_ENV}]`],
  };
  return simulateFights({
    seed: 9,
    start: '2026-11-02T10:30:00Z',
    level: 'RequestResponse',
    gapSeconds: 60,
    fights: [
      {
        kind: 'recreate-loop',
        spec: {
          namespace: 'vault-db',
          user: 'system:serviceaccount:cnpg-system:cnpg-manager',
          owner: {
            apiVersion: 'postgresql.cnpg.io/v1',
            kind: 'Cluster',
            name: 'pg-vault',
            uid: 'c0ffee00-0000-4000-8000-000000000001',
          },
          name: 'pg-vault-1',
          labels: { 'cnpg.io/cluster': 'pg-vault' },
          containers: [
            {
              name: 'postgres',
              image: 'ghcr.io/cloudnative-pg/postgresql:16.4',
              env: [{ name: FIGHT_DESIRED_ENV, value: SECRET.fightDesiredEnv }],
            },
          ],
          webhooks: [injector],
          cycles: 5,
          periodSeconds: 20,
        },
      },
      {
        kind: 'annotation',
        spec: {
          namespace: 'vault-db',
          name: 'token-rotator',
          key: FIGHT_ANNOTATION,
          writers: [
            'system:serviceaccount:vault:rotator',
            'system:serviceaccount:argocd:argocd-application-controller',
          ],
          values: [SECRET.fightAnnotationA, SECRET.fightAnnotationB],
          rounds: 5,
          periodSeconds: 20,
        },
      },
    ],
  }).audit;
}

/** Runs `fn` with everything written to stderr, stdout and the console captured. */
async function capturing<T>(fn: () => Promise<T>): Promise<{ value: T; output: string }> {
  const chunks: string[] = [];
  const grab = (chunk: unknown): boolean => {
    chunks.push(
      typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk),
    );
    return true;
  };
  const spies = [
    jest.spyOn(process.stderr, 'write').mockImplementation(grab),
    jest.spyOn(process.stdout, 'write').mockImplementation(grab),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      jest.spyOn(console, m).mockImplementation((...args: unknown[]) => {
        chunks.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      }),
    ),
  ];
  try {
    const value = await fn();
    return { value, output: chunks.join('\n') };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

/** Runs the CLI as a user would, capturing everything it writes to stdout and stderr. */
async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const collect = (): { stream: PassThrough; text: () => string } => {
    const chunks: Buffer[] = [];
    const stream = new PassThrough();
    stream.on('data', (c: Buffer) => chunks.push(c));
    return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
  };
  const out = collect();
  const err = collect();
  const code = await main(argv, { stdout: out.stream, stderr: err.stream, stdin: Readable.from([]) });
  return { code, stdout: out.text(), stderr: err.text() };
}

function alertTexts(doc: FindingsDocument): Record<string, string> {
  const ctx = {
    window: { from: '2026-11-02T09:00:00Z', to: '2026-11-02T12:00:00Z' },
    report: { uri: 's3://reports/r.json' },
  };
  const out: Record<string, string> = {};
  const events: (LoopAlert | RecreationAlert | FightAlert | DriftAlert)[] = [
    // Every drift, whatever its severity: the tamperer's env value must not leak through any.
    ...(doc.drifts ?? []).map((d, i): DriftAlert => ({
      kind: 'drift',
      event: 'drift-detected',
      id: `d${i}`,
      cluster: 'eks',
      drift: d,
    })),
    ...(doc.fights ?? []).map((f, i): FightAlert => ({
      kind: 'fight',
      event: 'fight-started',
      id: `f${i}`,
      cluster: 'eks',
      threadId: `t${i}`,
      fight: f,
      totalCount: f.count,
    })),
    ...doc.recreations.map((r, i): RecreationAlert => ({
      kind: 'recreation',
      event: 'recreation',
      id: `r${i}`,
      cluster: 'eks',
      recreation: r,
    })),
    ...doc.loops.map((l, i): LoopAlert => {
      const latest =
        doc.recreations.filter((r) => r.kafkaCluster === l.kafkaCluster && r.brokerId === l.brokerId).pop() ??
        null;
      return {
        kind: 'loop',
        event: 'loop-started',
        id: `l${i}`,
        cluster: 'eks',
        loop: l,
        totalCount: l.count,
        latest,
      };
    }),
  ];
  for (const ev of events) {
    const m = toAlertMessage(ev, ctx);
    out[`sns ${ev.id}`] = JSON.stringify(buildSnsMessage(m));
    out[`slack ${ev.id}`] = JSON.stringify(buildSlackPayload(m));
    // The chat topic's one publish (custom notification + email text), and the EventBridge entry.
    const chat = buildChatNotification(m, {
      eksClusterArns: { eks: 'arn:aws:eks:us-east-1:123456789012:cluster/eks' },
    });
    const email = buildEmailText(m);
    out[`chat ${ev.id}`] = JSON.stringify(
      buildChatSnsMessage(m, { chat, email, subject: alertSubject(m), attributes: alertAttributes(m) }),
    );
    out[`email ${ev.id}`] = email;
    out[`eventbridge ${ev.id}`] = JSON.stringify(buildEventBridgeEntry(m, 'default'));
  }
  return out;
}

/** The JSON lines the analyze function writes for Athena, for every hour the findings touch. */
function athenaRows(doc: FindingsDocument): string {
  const times = [
    ...doc.recreations.map((r) => r.deletedPod.deletedAt),
    ...doc.loops.flatMap((l) => [l.firstAt, l.lastAt]),
    ...(doc.fights ?? []).flatMap((f) => [f.firstAt, f.lastAt]),
    ...(doc.drifts ?? []).map((d) => d.at),
  ].map((t) => Date.parse(t));
  const hours = new Set<string>();
  for (
    let t = Math.floor(Math.min(...times) / 3_600_000) * 3_600_000;
    t <= Math.max(...times);
    t += 3_600_000
  )
    hours.add(hourOfMs(t));
  const lines: string[] = [];
  for (const hour of hours)
    for (const row of rowsForHour(doc, {
      cluster: 'eks',
      hour,
      runAt: '2026-11-02T12:00:00Z',
      loopStartedAt: (l) => l.firstAt,
    }))
      lines.push(encodeRow(row));
  return lines.join('\n');
}

describeWithCorpus(SCENARIOS, 'secrets planted in the logs never leave the process', () => {
  let tmp = '';
  let out: Outputs;

  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'koperator-audit-secrets-'));
    await buildCorpus(tmp);
    const { value: doc, output } = await capturing(() => analyzeInputs([tmp], defaultAnalysisOptions(), {}));
    const texts: Record<string, string> = { 'stderr/stdout/console': output };
    for (const format of REPORT_FORMATS) {
      for (const color of [false, true]) {
        texts[`report ${format}${color ? ' (colour)' : ''}`] = renderReport(doc, format, {
          color,
          inputs: [tmp],
          generatedAt: '2026-11-02T12:00:00Z',
        });
      }
    }
    Object.assign(texts, alertTexts(doc));
    texts['athena findings history'] = athenaRows(doc);
    // The CLI itself, every format: its report on stdout, progress and summary on stderr.
    for (const format of REPORT_FORMATS) {
      const run = await cli(['analyze', '--input', tmp, '--format', format, '--no-progress']);
      if (run.code !== 0) throw new Error(`analyze --format ${format} exited ${run.code}: ${run.stderr}`);
      texts[`cli ${format} stdout`] = run.stdout;
      texts[`cli ${format} stderr`] = run.stderr;
    }
    const facts = await collectFacts(listLocal(tmp), createIngestStats());
    const encoded = encodeFacts({ source: tmp, etag: null, cluster: 'eks', hour: '2026-11-02-10' }, [
      ...facts.facts(),
    ]);
    out = { doc, texts, facts: encoded };
  }, 60_000);

  afterAll(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('found the planted env var as a field of the webhook loop (the plant reached a finding)', () => {
    const fields = out.doc.recreations
      .filter((r) => r.kafkaCluster === LOOP_CLUSTER)
      .flatMap((r) => r.fields);
    const planted = fields.filter((f) => f.path.includes(`env[name=${PLANTED_ENV}]`));
    expect(planted.length).toBeGreaterThan(0);
    // Both sides were values, both redacted: the webhook's rewrite is a from → to change.
    for (const f of planted)
      expect(JSON.stringify([f.from, f.to])).toMatch(/<redacted, changed>.*<redacted, changed>/);
    expect(planted.every((f) => f.by === `zone-spread-injector/${LOOP_WEBHOOK}`)).toBe(true);
    // The removed var is reported whole ({name, value}), the shape that once leaked.
    const removed = fields.filter((f) => f.path.endsWith(`env[name=${REMOVED_ENV}]`));
    expect(removed.length).toBeGreaterThan(0);
    for (const f of removed) expect([f.from, f.to]).toEqual([{ name: REMOVED_ENV, value: REDACTED }, null]);
    expect(out.doc.loops.some((l) => l.kafkaCluster === LOOP_CLUSTER && l.brokerId === '5')).toBe(true);
  });

  it('found the tamperer’s debug container as a drift, its env value redacted', () => {
    const drift = (out.doc.drifts ?? []).find((d) => d.kind === 'ephemeral-container');
    expect(drift?.by).toBe('mallory@example.com');
    expect(drift?.fields.map((f) => f.path)).toEqual([`spec.ephemeralContainers[name=${TAMPER_CONTAINER}]`]);
    expect(JSON.stringify(drift?.fields[0].to)).toContain(`"value":"${REDACTED}"`);
  });

  it('found the planted fights: the env var by name, the annotation by key, with their writers', () => {
    const fights = out.doc.fights ?? [];
    const loop = fights.find((f) => f.kind === 'recreate-loop' && f.target.name === 'pg-vault');
    expect(loop?.fields).toContain(`spec.containers[name=postgres].env[name=${FIGHT_ENV}]`);
    expect(loop?.mutators).toEqual([FIGHT_WEBHOOK]);
    const annotation = fights.find((f) => f.kind === 'field-fight' && f.target.name === 'token-rotator');
    expect(annotation?.fields).toEqual([`metadata.annotations[${JSON.stringify(FIGHT_ANNOTATION)}]`]);
    expect(annotation?.count).toBe(8);
  });

  const secretKeys = Object.keys(SECRET) as SecretKey[];
  it.each(secretKeys)('%s appears in no report, alert or log output', (key) => {
    const leaks = Object.entries(out.texts)
      .filter(([, text]) => text.includes(SECRET[key]))
      .map(([name]) => name);
    expect(leaks).toEqual([]);
  });

  it.each(secretKeys.filter((k) => !IN_POD_SPEC.has(k)))('%s is not in the facts written to S3', (key) => {
    expect(out.facts).not.toContain(SECRET[key]);
  });

  it('facts keep pod specs, env values included (documented in SECURITY.md)', () => {
    // The diff needs the pod as stored; this pins the documented behaviour so a change is deliberate.
    expect(out.facts).toContain(SECRET.brokerEnvDesired);
  });

  it('every output still carries the non-secret evidence', () => {
    const loop = out.doc.recreations.find((r) => r.kafkaCluster === LOOP_CLUSTER && r.brokerId === '5');
    const resource = out.doc.recreations
      .flatMap((r) => r.fields)
      .find((f) => f.path.includes('.resources.') && typeof f.to === 'string');
    expect(loop).toBeDefined();
    expect(resource).toBeDefined();
    const evidence = [
      loop!.deletedPod.name,
      LOOP_WEBHOOK,
      'system:serviceaccount:kafka:kafka-operator',
      PLANTED_ENV,
      REMOVED_ENV,
    ];
    const missing: string[] = [];
    for (const [name, text] of Object.entries(out.texts)) {
      // stderr carries progress and counts only; alerts are checked below.
      if (
        name.startsWith('stderr') ||
        name.endsWith('stderr') ||
        /^(sns|slack|chat|email|eventbridge) /.test(name)
      )
        continue;
      for (const e of evidence) if (!text.includes(e)) missing.push(`${name}: ${e}`);
    }
    for (const format of ['json', 'markdown', 'html'] as const) {
      if (!out.texts[`report ${format}`].includes(String(resource!.to)))
        missing.push(`report ${format}: ${String(resource!.to)}`);
    }
    expect(missing).toEqual([]);
    // The webhook loop's alerts name the webhook and the broker pod.
    const loopAlerts = Object.entries(out.texts).filter(
      ([name, text]) => /^(sns|slack|chat|email|eventbridge) l/.test(name) && text.includes(LOOP_CLUSTER),
    );
    expect(loopAlerts.map(([name]) => name.split(' ')[0]).sort()).toEqual([
      'chat',
      'email',
      'eventbridge',
      'slack',
      'sns',
    ]);
    for (const [, text] of loopAlerts) expect(text).toContain(LOOP_WEBHOOK);
    // Fights too: every report and every channel names the object, the env var and the webhook.
    const fightEvidence = ['pg-vault', FIGHT_ENV, FIGHT_WEBHOOK, 'token-rotator'];
    const fightMissing: string[] = [];
    for (const [name, text] of Object.entries(out.texts)) {
      if (!/^(report|cli \w+ stdout)/.test(name)) continue;
      for (const e of fightEvidence) if (!text.includes(e)) fightMissing.push(`${name}: ${e}`);
    }
    for (const [name, text] of Object.entries(out.texts)) {
      if (!/^(sns|slack|chat|email|eventbridge) f/.test(name)) continue;
      if (!text.includes('pg-vault') && !text.includes('token-rotator'))
        fightMissing.push(`${name}: no object`);
    }
    expect(fightMissing).toEqual([]);
    // The Athena history holds the tamperer's drift, its container named, its env value not.
    const driftRows = out.texts['athena findings history']
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.record_type === 'drift');
    expect(driftRows.map((r) => [r.written_by, r.drift_kind])).toContainEqual([
      'mallory@example.com',
      'ephemeral-container',
    ]);
    expect(driftRows.some((r) => String(r.drift_fields).includes(TAMPER_CONTAINER))).toBe(true);
    // The tamperer's debug container: every channel names the pod's container, who and the write.
    const driftAlerts = Object.entries(out.texts).filter(([name]) =>
      /^(sns|slack|chat|email|eventbridge) d/.test(name),
    );
    expect(driftAlerts.map(([name]) => name.split(' ')[0]).sort()).toEqual([
      'chat',
      'email',
      'eventbridge',
      'slack',
      'sns',
    ]);
    for (const [name, text] of driftAlerts) {
      expect({ name, container: text.includes(TAMPER_CONTAINER), who: text.includes('mallory') }).toEqual({
        name,
        container: true,
        who: true,
      });
    }
    expect(Object.keys(out.texts).filter((n) => /^slack f/.test(n)).length).toBe(
      (out.doc.fights ?? []).length,
    );
    expect(out.facts).toContain('alice@example.com'); // user names are kept, only names
    expect(out.facts).toContain('pipeline-kafka-config-99'); // the ConfigMap write is kept, as metadata
  });
});

describe('redactField on the shapes a diff reports env vars in', () => {
  const secret = { name: 'DB_PASSWORD', value: 'hunter2' };
  const allowed = { name: 'KAFKA_HEAP_OPTS', value: '-Xmx2G' };
  it.each([
    // The diff names an added or removed var by its element path, with the whole {name, value} as from/to.
    [
      'one env var added',
      'spec.containers[name=kafka].env[name=DB_PASSWORD]',
      null,
      secret,
      null,
      { name: 'DB_PASSWORD', value: REDACTED },
    ],
    [
      'one env var removed',
      'spec.containers[name=kafka].env[name=DB_PASSWORD]',
      secret,
      null,
      { name: 'DB_PASSWORD', value: REDACTED },
      null,
    ],
    [
      'an allowlisted var added',
      'spec.containers[name=kafka].env[name=KAFKA_HEAP_OPTS]',
      null,
      allowed,
      null,
      allowed,
    ],
    [
      'a whole env list',
      'spec.containers[name=kafka].env',
      [allowed],
      [allowed, secret],
      [allowed],
      [allowed, { name: 'DB_PASSWORD', value: REDACTED }],
    ],
    [
      'a container holding env',
      'spec.containers[name=sidecar]',
      null,
      { name: 'sidecar', env: [secret] },
      null,
      { name: 'sidecar', env: [{ name: 'DB_PASSWORD', value: REDACTED }] },
    ],
  ])('%s', (_label, path, from, to, wantFrom, wantTo) => {
    expect(redactField(path, from, to)).toEqual({ from: wantFrom, to: wantTo });
  });

  it('a value nested deeper than any pod is withheld, not walked (no stack overflow)', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    const out = redactField('spec.affinity', null, deep);
    expect(JSON.stringify(out.to)).toContain(REDACTED);
  });
});
