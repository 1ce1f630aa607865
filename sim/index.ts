// The project's own simulator: koperator-style Kubernetes audit events and koperator log lines
// for one cluster timeline, with the ground truth in the findings contract's shape. Seeded and
// pure: the same options always give byte-identical output.
//
//   simulateCluster(opts)               one cluster, the chosen scenarios in order, plus noise
//                                       (and, with `nifikop`, NiFiKop's scenarios beside them)
//   noiseEvents(seed, start, count)     background traffic only, streamed (for benchmarks)
//   brokerPod(), livePodYaml() …        builders for other tests
import { buildDriftTruth } from './drift-truth';
import type { Drift } from '../lib/model/findings';
import type { AuditEvent } from '../lib/model/audit';
import type { Loop, Recreation } from '../lib/model/findings';
import type { OperatorLine } from '../lib/model/operator-line';
import { background } from './background';
import { seedWorld } from './fixtures';
import { NoiseSource } from './noise';
import { Rng } from './rng';
import { DEFAULT_SCENARIO_ORDER, LOOP_SCENARIOS, SCENARIOS, type ScenarioName } from './scenarios';
import { parseTime, SEC, type Micros } from './time';
import { buildTruth } from './truth';
import { World } from './world';
import { NIFIKOP_USER, simulateNifikop, type NifikopSimOptions } from './nifikop/scenarios';
import { nifikopTruth, type NifiTruthLoop, type NifiTruthRecreation } from './nifikop/truth';

export type { ScenarioName } from './scenarios';
export { DEFAULT_SCENARIO_ORDER, LOOP_SCENARIOS } from './scenarios';
export { noiseEvents, containsSimulatedSecret, SECRET_CANARY } from './noise';
export { brokerPod, kafkaClusterSpec, lastAppliedOf, stampLastApplied, type KafkaClusterSpec } from './pods';
export { apiDefaults } from './admission';
export { livePod, livePodYaml, type LivePodKind } from './live-pod';
export { renderZapLine } from './operator-log';
export { computeLoops } from './truth';
export { getPath, pathToPointer, pointerToPath } from './paths';
export { CLUSTERS } from './fixtures';
export {
  NIFI_SCENARIO_ORDER,
  NIFIKOP_USER,
  type NifiScenarioName,
  type NifikopSimOptions,
} from './nifikop/scenarios';
export type { NifiTruthLoop, NifiTruthRecreation } from './nifikop/truth';

export interface SimOptions {
  seed: number;
  /** RFC 3339 time the logs begin. */
  start: string;
  /** Namespace of the main KafkaClusters (default `kafka`). */
  namespace?: string;
  /** The operator's user name (default `system:serviceaccount:kafka-operator:kafka-operator`). */
  operatorUser?: string;
  /** Level the audit policy logs pod writes at; Metadata also runs koperator with --verbose from the start. */
  auditLevel?: 'RequestResponse' | 'Metadata';
  /**
   * About this fraction of the audit events is background noise, in [0, 1) (default 0.8);
   * NiFiKop's requests are left out of the count, so adding it adds no noise.
   */
  noiseRatio?: number;
  /** Scenarios to play, in order (default: all, DEFAULT_SCENARIO_ORDER). */
  scenarios?: ScenarioName[];
  /** Older koperator: `logger`/`Request.Namespace`/`Request.Name` keys and older messages. */
  operatorLogStyle?: 'current' | 'legacy';
  /** When the last scenario is a loop, leave it running so it is active at the end (default true). */
  endWithActiveLoop?: boolean;
  /**
   * NiFiKop of this version beside the KafkaClusters, in the same logs: its scenarios (each a
   * NifiCluster in its own namespace) from the start, its service account `NIFIKOP_USER`.
   */
  nifikop?: NifikopSimOptions;
}

export interface SimulatedLogs {
  /** Sorted by stageTimestamp. */
  audit: AuditEvent[];
  /** Sorted by ts. */
  operator: OperatorLine[];
  truth: {
    recreations: Recreation[];
    loops: Loop[];
    drifts: Drift[];
    /** NiFiKop's findings in the contract's shape for it (with `nifikop` only). */
    nifikop?: { recreations: NifiTruthRecreation[]; loops: NifiTruthLoop[] };
  };
  /** Every secret-like value the noise wrote (plain and base64 forms): none may reach a report. */
  secrets: string[];
}

export const DEFAULT_NAMESPACE = 'kafka';
export const DEFAULT_OPERATOR_USER = 'system:serviceaccount:kafka-operator:kafka-operator';
export const DEFAULT_NOISE_RATIO = 0.8;

function stableSort<T>(items: T[], key: (t: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i, k: key(item) }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .map((x) => x.item);
}

export function simulateCluster(opts: SimOptions): SimulatedLogs {
  const start = parseTime(opts.start);
  const namespace = opts.namespace ?? DEFAULT_NAMESPACE;
  const operatorUser = opts.operatorUser ?? DEFAULT_OPERATOR_USER;
  const noiseRatio = opts.noiseRatio ?? DEFAULT_NOISE_RATIO;
  if (!(noiseRatio >= 0 && noiseRatio < 1))
    throw new Error(`noiseRatio must be in [0, 1), got ${noiseRatio}`);
  const podLevel = opts.auditLevel ?? 'RequestResponse';
  const root = new Rng(opts.seed);
  const world = new World({
    seed: opts.seed,
    start,
    namespace,
    metadataNamespace: namespace === 'telemetry' ? 'telemetry-metadata' : 'telemetry',
    operatorUser,
    podLevel,
    logStyle: opts.operatorLogStyle ?? 'current',
  });
  // With pod bodies out of the audit log, the operator's verbose diff lines are the only record
  // of the three states, so a Metadata-level cluster runs koperator with --verbose throughout.
  if (podLevel === 'Metadata') world.verboseFrom = start;
  seedWorld(world);

  const names = [...new Set(opts.scenarios ?? DEFAULT_SCENARIO_ORDER)];
  let t: Micros = start + root.fork('timeline').int(60, 150) * SEC;
  let end = t;
  let leftRunning = false;
  names.forEach((name, i) => {
    const last = i === names.length - 1;
    const leaveRunning = last && LOOP_SCENARIOS.has(name) && opts.endWithActiveLoop !== false;
    end = SCENARIOS[name]({ world, rng: root.fork(`scenario:${name}`), leaveRunning }, t);
    leftRunning = leaveRunning;
    t = end + root.fork(`gap:${i}`).int(120, 300) * SEC;
  });
  // NiFiKop runs beside koperator from the start, played after koperator's scenarios so that
  // their events are the same as without it (the background and the noise then differ).
  const beforeNifi = world.audit.length;
  const nifi = opts.nifikop
    ? simulateNifikop(world, opts.nifikop, start + root.fork('nifikop').int(20, 60) * SEC)
    : null;
  const nifiEvents = world.audit.length - beforeNifi;
  const kafkaEnd = leftRunning ? end : end + root.fork('tail').int(60, 150) * SEC;
  const dataEnd = nifi ? Math.max(kafkaEnd, nifi.end) : kafkaEnd;
  background(world, start, dataEnd);

  const signal = world.audit.filter((e) => parseTime(e.stageTimestamp) <= dataEnd);
  const noiseCount = Math.round(((signal.length - nifiEvents) * noiseRatio) / (1 - noiseRatio));
  const noise: AuditEvent[] = [];
  const secrets: string[] = [];
  if (noiseCount > 0) {
    const span = Math.max(SEC, dataEnd - start);
    const source = new NoiseSource(root.fork('noise'), {
      start,
      eventsPerSecond: (noiseCount / span) * SEC,
      nodes: world.nodes,
      policy: world.policy,
      brokerPodAt: (at) => {
        const alive = world.podLifetimes.filter((l) => l.from <= at && at < l.to);
        return alive.length > 0 ? alive[Math.floor((at / 7919) % alive.length)] : undefined;
      },
      onSecret: (v) => secrets.push(v),
    });
    for (const e of source.events()) {
      if (noise.length >= noiseCount || parseTime(e.stageTimestamp) > dataEnd) break;
      noise.push(e);
    }
  }

  const audit = stableSort([...signal, ...noise], (e) => parseTime(e.stageTimestamp));
  const operator = stableSort(
    [...world.log.lines, ...(nifi?.lines ?? [])].filter((l) => parseTime(l.ts) <= dataEnd),
    (l) => parseTime(l.ts),
  );
  const newest = Math.max(
    parseTime(audit[audit.length - 1]?.stageTimestamp ?? opts.start),
    parseTime(operator[operator.length - 1]?.ts ?? opts.start),
  );
  const haystack = JSON.stringify(signal) + JSON.stringify(operator);
  const truth = buildTruth({
    recreations: world.recreations,
    haystack,
    podsAtMetadata: (ns) => world.podsAtMetadata(ns),
    operatorUser,
    newestEventAt: newest,
  });
  // A drift names the uid the audit events show (its pod is read from them, not from koperator's log).
  const auditText = JSON.stringify(signal);
  const drifts = buildDriftTruth(
    world.drifts,
    world.recreations,
    (ns) => world.podsAtMetadata(ns),
    (text) => auditText.includes(text),
  );
  // Only the values that made it into the emitted events (the stream stops mid-way).
  const noiseText = JSON.stringify(noise);
  const nifikop = nifi
    ? nifikopTruth(nifi.recreations, {
        haystack,
        podsAtMetadata: (ns) => world.podsAtMetadata(ns),
        operatorUser: NIFIKOP_USER,
        newestEventAt: newest,
      })
    : undefined;
  return {
    audit,
    operator,
    truth: { ...truth, drifts, ...(nifikop ? { nifikop } : {}) },
    secrets: [...new Set(secrets)].filter((v) => noiseText.includes(v)),
  };
}
