// Scenario 12: people and controllers change running broker pods out of band (drift.md). On
// clickstream-kafka, which koperator 0.30.0-rc1 runs (the intent diff leaves such changes be):
// an image swapped with `kubectl set image` that stands, another controller's annotation (not
// a drift: koperator does not declare it), a declared label removed, and an image swap that a
// later JSON patch puts back. On geo-kafka broker 0, an image swap that the pre-fix three-way
// diff reverts by re-creating the pod, then a debug container in its successor.
import type { DriftField } from '../../lib/model/findings';
import { CLUSTERS } from '../fixtures';
import { addEphemeralContainer, patchPod, setImage } from '../kube';
import { operatorRestart } from '../operator';
import { getPath } from '../paths';
import type { LivePod, World } from '../world';
import type { SimDrift } from '../drift-truth';
import { controller, person, secs, type Scenario } from './common';

const KAFKA_IMAGE = 'spec.containers[name=kafka].image';

function declaredAt(pod: LivePod, path: string): unknown {
  return getPath(pod.lastApplied, path) ?? null;
}

function imageSwap(
  world: World,
  pod: LivePod,
  by: ReturnType<typeof person>,
  at: number,
  image: string,
): SimDrift {
  const field: DriftField = { path: KAFKA_IMAGE, declared: declaredAt(pod, KAFKA_IMAGE), to: image };
  const rec = setImage(world, pod, by, at, 'kafka', image);
  return {
    pod,
    at: rec.receivedAt,
    auditID: rec.auditID,
    by: by.username,
    verb: 'patch',
    subresource: '',
    kind: 'image',
    severity: 'tamper',
    fields: [field],
    preFixWouldRevert: true,
  };
}

export const liveDrift: Scenario = (ctx, start) => {
  const { world, rng } = ctx;
  const bob = person(world, 'bob@example.com');
  const carol = person(world, 'carol@example.com');
  const annotator = controller(world, 'monitoring', 'pod-annotator', 'pod-annotator/v1.4.0');
  let t = start;

  // 1. kubectl set image, left standing.
  const stands = world.broker(CLUSTERS.clickstream, 0);
  world.drifts.push(imageSwap(world, stands, bob, t, 'ghcr.io/adobe/kafka:2.13-4.0.0'));

  // 2. Another controller's annotation, on the drifted pod and on a clean one: no drift.
  t += secs(rng, 10, 30);
  for (const pod of [stands, world.broker(CLUSTERS.clickstream, 2)])
    patchPod(world, pod, annotator, (t += secs(rng, 1, 3)), {
      type: 'merge',
      body: { metadata: { annotations: { 'monitoring.example.com/scraped-by': 'vmagent-0' } } },
    });

  // 4. A declared label removed.
  t += secs(rng, 10, 30);
  const unlabelled = world.broker(CLUSTERS.clickstream, 2);
  const label = 'metadata.labels.isControllerNode';
  const declaredLabel = declaredAt(unlabelled, label);
  const removal = patchPod(world, unlabelled, carol, t, {
    type: 'merge',
    body: { metadata: { labels: { isControllerNode: null } } },
  });
  world.drifts.push({
    pod: unlabelled,
    at: removal.receivedAt,
    auditID: removal.auditID,
    by: carol.username,
    verb: 'patch',
    subresource: '',
    kind: 'metadata',
    severity: 'change',
    fields: [{ path: label, declared: declaredLabel, to: null }],
    preFixWouldRevert: true,
  });

  // 5. An image swap that a later JSON patch puts back.
  t += secs(rng, 10, 30);
  const swapped = world.broker(CLUSTERS.clickstream, 3);
  const drift = imageSwap(world, swapped, bob, t, 'ghcr.io/adobe/kafka:2.13-3.9.1-hotfix1');
  const idx = (swapped.live.spec?.containers ?? []).findIndex((c) => c.name === 'kafka');
  const back = patchPod(world, swapped, carol, (t += secs(rng, 40, 90)), {
    type: 'json',
    ops: [{ op: 'replace', path: `/spec/containers/${idx}/image`, value: drift.fields[0].declared }],
  });
  world.drifts.push({ ...drift, revertedBy: { at: back.receivedAt, auditID: back.auditID } });

  // 6. Before the fix: the three-way diff sees the swapped image and re-creates the pod.
  t += secs(rng, 10, 30);
  world.drifts.push(
    imageSwap(world, world.broker(CLUSTERS.geo, 0), bob, t, 'ghcr.io/adobe/kafka:2.13-4.0.0'),
  );
  const r = operatorRestart(world, CLUSTERS.geo, '0', t + secs(rng, 2, 6));
  t = r.readyAt + secs(rng, 5, 15);

  // 3. kubectl debug on the successor (a pod the logs show created, so even at Metadata level
  // it is known as a broker): an ephemeral container, whatever it holds.
  const debugged = world.broker(CLUSTERS.geo, 0);
  const debugger_ = {
    name: `debugger-${world.rng.nameSuffix()}`,
    image: 'busybox:1.36',
    targetContainerName: 'kafka',
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
  };
  const debug = addEphemeralContainer(world, debugged, carol, t, debugger_);
  world.drifts.push({
    pod: debugged,
    at: debug.receivedAt,
    auditID: debug.auditID,
    by: carol.username,
    verb: 'update',
    subresource: 'ephemeralcontainers',
    kind: 'ephemeral-container',
    severity: 'tamper',
    fields: [{ path: `spec.ephemeralContainers[name=${debugger_.name}]`, declared: null, to: debugger_ }],
    preFixWouldRevert: false,
  });

  return t + secs(rng, 2, 6);
};
