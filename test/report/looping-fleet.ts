// Generates findings documents shaped like the benchmark's (bench/generate.ts over 1 GB:
// brokers that loop for a few minutes every twenty-odd minutes, all day, plus brokers with
// a steady trickle of intent changes), at any size, so the report is tested at 3,000 and
// at 100,000 recreations without a stored fixture. Deterministic for a given seed.
import { loopRecommendation } from '../../lib/koperator/recommendation';
import type { Classification, FindingsDocument, Loop, Recreation } from '../../lib/model/findings';

export interface FleetShape {
  /** Brokers that loop. */
  loopingBrokers: number;
  /** Loops per looping broker, one after another. */
  loopsPerBroker: number;
  /** Recreations per loop. */
  perLoop: number;
  /** Brokers with only scattered intent changes, and how many each. */
  steadyBrokers: number;
  perSteadyBroker: number;
  /** Loops whose mutator is a second webhook, every n-th looping broker (0: none). */
  otherWebhookEvery?: number;
  /** The last loop of the last broker is still going at the end of the logs. */
  activeAtEnd?: boolean;
  seed?: number;
}

const OPERATOR = 'system:serviceaccount:kafka:kafka-operator';
const RIGHTSIZER = 'kube-rightsizer-webhook/pods.rightsizer.dev';
const SPREADER = 'zone-spread-injector/affinity.spread.example.com';
const CPU = 'spec.containers[name=kafka].resources.requests.cpu';
const MEMORY = 'spec.containers[name=kafka].resources.requests.memory';
const AFFINITY = 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution';

/** The advice the analysis gives for such a loop: its webhook's rewrite at admission. */
export function adviceFor(mutator: string, fields: string[]): string {
  return loopRecommendation(
    'external-mutation-revert',
    fields.map((path) => ({ path, by: mutator, via: 'admission' as const })),
  );
}

/** mulberry32: small, seeded, good enough for jitter. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function buildLoopingFleet(shape: FleetShape): FindingsDocument {
  const rand = prng(shape.seed ?? 1);
  const start = Date.parse('2026-11-02T00:00:00Z');
  const iso = (ms: number): string => new Date(ms).toISOString();
  const recreations: Recreation[] = [];
  const loops: Loop[] = [];
  let serial = 0;
  const pod = (cluster: string, id: string): string =>
    `${cluster}-${id}-${(serial++).toString(36).padStart(5, '0').slice(-5)}`;

  for (let b = 0; b < shape.loopingBrokers; b++) {
    const id = String(b + 5);
    const other = !!shape.otherWebhookEvery && b % shape.otherWebhookEvery === shape.otherWebhookEvery - 1;
    const mutator = other ? SPREADER : RIGHTSIZER;
    const fields = other ? [AFFINITY] : [CPU, MEMORY];
    let t = start + b * 5 * 60000 + Math.floor(rand() * 10000);
    let name = pod('clickstream-kafka', id);
    for (let l = 0; l < shape.loopsPerBroker; l++) {
      const first = t;
      let last = t;
      const gaps: number[] = [];
      for (let i = 0; i < shape.perLoop; i++) {
        const next = pod('clickstream-kafka', id);
        recreations.push({
          namespace: 'kafka',
          kafkaCluster: 'clickstream-kafka',
          brokerId: id,
          deletedPod: { name, uid: `uid-${name}`, deletedAt: iso(t), deletedBy: OPERATOR },
          createdPod: { name: next, uid: `uid-${next}`, createdAt: iso(t + 900) },
          classification: 'external-mutation-revert',
          fields: fields.map((path) => ({
            path,
            from: '1',
            to: `${Math.floor(rand() * 900)}m`,
            by: mutator,
          })),
          wouldRestart: { threeWayMerge: true, intentDiff: false },
          evidence: [`audit:${name}-delete`, `operator:pod-diff:${name}`],
        });
        name = next;
        last = t;
        const gap = 8000 + Math.floor(rand() * 2000);
        gaps.push(gap);
        t += gap;
      }
      const isLast = b === shape.loopingBrokers - 1 && l === shape.loopsPerBroker - 1;
      loops.push({
        namespace: 'kafka',
        kafkaCluster: 'clickstream-kafka',
        brokerId: id,
        classification: 'external-mutation-revert',
        count: shape.perLoop,
        firstAt: iso(first),
        lastAt: iso(last),
        periodSeconds:
          Math.round(gaps.slice(0, -1).reduce((s, g) => s + g, 0) / Math.max(1, gaps.length - 1) / 100) / 10,
        fields,
        mutators: [mutator],
        active: !!shape.activeAtEnd && isLast,
        recommendation: adviceFor(mutator, fields),
      });
      t = last + (20 + Math.floor(rand() * 8)) * 60000;
    }
  }

  const end = recreations.reduce((m, r) => Math.max(m, Date.parse(r.deletedPod.deletedAt)), start + 3600000);
  for (let b = 0; b < shape.steadyBrokers; b++) {
    const id = String(b);
    for (let i = 0; i < shape.perSteadyBroker; i++) {
      const at = start + Math.floor(((i + rand() * 0.2) / shape.perSteadyBroker) * (end - start));
      const name = pod('ledger-kafka', id);
      const next = pod('ledger-kafka', id);
      const classification: Classification = 'intent-change';
      recreations.push({
        namespace: 'kafka',
        kafkaCluster: 'ledger-kafka',
        brokerId: id,
        deletedPod: { name, uid: `uid-${name}`, deletedAt: iso(at), deletedBy: OPERATOR },
        createdPod: { name: next, uid: `uid-${next}`, createdAt: iso(at + 1500) },
        classification,
        fields: [
          {
            path: 'spec.containers[name=kafka].image',
            from: 'kafka:3.7.0',
            to: 'kafka:3.7.1',
            by: 'ci@example.com',
          },
        ],
        wouldRestart: { threeWayMerge: true, intentDiff: true },
        evidence: [`audit:${name}-delete`],
      });
    }
  }
  recreations.sort((a, b) => Date.parse(a.deletedPod.deletedAt) - Date.parse(b.deletedPod.deletedAt));
  return {
    recreations,
    loops,
    summary: {
      inputs: ['s3://audit-logs/eks/prod/'],
      files: { read: 24, empty: 0, foreign: 0, errors: 0 },
      bytes: { read: 113000000, decompressed: 1073741824 },
      audit: { read: recreations.length * 250, kept: recreations.length * 24, irrelevant: 0, excluded: 0 },
      operator: { read: 0, kept: 0, excluded: 0 },
      skipped: {},
      details: [],
    },
  };
}

/** The benchmark's 1 GB shape: 2,989 recreations, 115 loops on 5 of 8 brokers. */
export const BENCH_1GB: FleetShape = {
  loopingBrokers: 5,
  loopsPerBroker: 23,
  perLoop: 25,
  steadyBrokers: 3,
  perSteadyBroker: 38,
  activeAtEnd: true,
};

/** 100,000 recreations: 50 brokers looping 80 times each, two webhooks. */
export const FLEET_100K: FleetShape = {
  loopingBrokers: 50,
  loopsPerBroker: 80,
  perLoop: 25,
  steadyBrokers: 0,
  perSteadyBroker: 0,
  otherWebhookEvery: 5,
  activeAtEnd: true,
};
