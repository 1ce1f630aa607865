// The pod status the kubelet reports (pods/status patches), for each phase of a broker's life.
import { createHash } from 'crypto';
import type { Container, ContainerStatus, Pod, PodCondition, PodStatus } from 'kubernetes-types/core/v1';
import { toJson, type JsonObject } from './json';
import { qosClass } from './admission';
import type { Rng } from './rng';
import { fmtSeconds, type Micros } from './time';

export type PodPhaseView = 'initializing' | 'running' | 'oom-killed' | 'terminating';

export interface StatusContext {
  hostIP: string;
  podIP: string;
  startedAt: Micros;
  now: Micros;
  /** containerd ids by container name, stable for the pod's life. */
  containerIDs: Record<string, string>;
}

/** A stable, fake image digest (a real one is a content hash, so it must not vary per pod). */
export function imageID(image: string): string {
  const repo = image.replace(/:[^/:]+$/, '');
  return `${repo}@sha256:${createHash('sha256').update(image).digest('hex')}`;
}

function condition(
  type: string,
  status: boolean,
  at: Micros,
  reason?: string,
  message?: string,
): PodCondition {
  return {
    type,
    status: status ? 'True' : 'False',
    lastProbeTime: null as unknown as string,
    lastTransitionTime: fmtSeconds(at),
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

/**
 * The pod status the kubelet would report for a phase of the broker's life. `lastProbeTime`
 * is null on the wire (a zero metav1.Time), hence the cast.
 */
export function podStatus(pod: Pod, view: PodPhaseView, ctx: StatusContext): PodStatus {
  const containers = pod.spec?.containers ?? [];
  const inits = pod.spec?.initContainers ?? [];
  const started = fmtSeconds(ctx.startedAt);
  const initDone = view !== 'initializing';
  const ready = view === 'running';
  const unready = containers
    .filter((c) => !(view === 'running' || (view === 'oom-killed' && c.name !== 'kafka')))
    .map((c) => c.name);
  const notReadyMsg = `containers with unready status: [${unready.join(' ')}]`;
  const conditions: PodCondition[] = [
    condition('PodReadyToStartContainers', view !== 'terminating', ctx.startedAt),
    condition(
      'Initialized',
      initDone,
      ctx.startedAt,
      initDone ? undefined : 'ContainersNotInitialized',
      initDone ? undefined : `containers with incomplete status: [${inits.map((c) => c.name).join(' ')}]`,
    ),
    condition(
      'Ready',
      ready,
      ready ? ctx.startedAt : ctx.now,
      ready ? undefined : 'ContainersNotReady',
      ready ? undefined : notReadyMsg,
    ),
    condition(
      'ContainersReady',
      ready,
      ready ? ctx.startedAt : ctx.now,
      ready ? undefined : 'ContainersNotReady',
      ready ? undefined : notReadyMsg,
    ),
    condition('PodScheduled', true, ctx.startedAt),
  ];
  // A container is waiting, running or terminated; the kubelet reports every state with the
  // same fields in the same order, so only the state and its details differ.
  const status = (c: Container, init: boolean): ContainerStatus => {
    const id = ctx.containerIDs[c.name];
    const base = { name: c.name, image: c.image ?? '', restartCount: 0, lastState: {} };
    const waiting: ContainerStatus = {
      ...base,
      imageID: '',
      ready: false,
      started: false,
      state: { waiting: { reason: 'PodInitializing' } },
    };
    const terminated = (exitCode: number, reason: string, finishedAt: string): ContainerStatus => ({
      ...base,
      imageID: imageID(c.image ?? ''),
      containerID: id,
      ready: false,
      started: false,
      state: { terminated: { exitCode, reason, startedAt: started, finishedAt, containerID: id } },
    });
    if (init) return initDone ? terminated(0, 'Completed', started) : waiting;
    if (view === 'initializing') return waiting;
    if ((view === 'oom-killed' && c.name === 'kafka') || view === 'terminating') {
      const oom = view === 'oom-killed';
      return terminated(oom ? 137 : 143, oom ? 'OOMKilled' : 'Error', fmtSeconds(ctx.now));
    }
    return {
      ...base,
      imageID: imageID(c.image ?? ''),
      containerID: id,
      ready: true,
      started: true,
      state: { running: { startedAt: started } },
    };
  };
  return {
    phase: view === 'initializing' ? 'Pending' : 'Running',
    conditions,
    hostIP: ctx.hostIP,
    hostIPs: [{ ip: ctx.hostIP }],
    podIP: ctx.podIP,
    podIPs: [{ ip: ctx.podIP }],
    startTime: started,
    initContainerStatuses: inits.map((c) => status(c, true)),
    containerStatuses: containers.map((c) => status(c, false)),
    qosClass: pod.status?.qosClass ?? qosClass(pod),
  };
}

/** The kubelet's status patch body: strategic merge, keyed by uid, with the conditions' order. */
export function statusPatchBody(uid: string, status: PodStatus): JsonObject {
  const s = toJson(status);
  delete s.qosClass;
  return {
    metadata: { uid },
    status: {
      '$setElementOrder/conditions': (status.conditions ?? []).map((c) => ({ type: c.type })),
      ...s,
    },
  };
}

export function newContainerIDs(pod: Pod, rng: Rng): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])])
    ids[c.name] = `containerd://${rng.hex(64)}`;
  return ids;
}
