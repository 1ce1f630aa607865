// How koperator names and labels broker pods (pkg/resources/kafka/pod.go): generateName
// `<cluster>-<brokerId>-` (`<cluster>-controller-<id>-` for KRaft controllers), labels
// app=kafka, kafka_cr=<cluster>, brokerId=<id>, and a controller owner reference to the
// KafkaCluster. Labels and owner references are authoritative; the name is only read when
// the logs hold nothing else (Metadata-level audit), and the caller must say so.

import type { UnitIdentity } from '../operators/profile';

export interface BrokerIdentity {
  kafkaCluster: string;
  brokerId: string;
}

/** A broker as a member of koperator's profile. */
export function unitOfBroker(b: BrokerIdentity | null): UnitIdentity | null {
  return b === null ? null : { cluster: b.kafkaCluster, unit: b.brokerId };
}

interface PodMeta {
  labels?: Record<string, unknown>;
  ownerReferences?: Array<Record<string, unknown>>;
}

function metaOf(pod: unknown): PodMeta | null {
  if (!pod || typeof pod !== 'object') return null;
  const meta = (pod as Record<string, unknown>).metadata;
  return meta && typeof meta === 'object' ? (meta as PodMeta) : null;
}

export function kafkaClusterOwner(pod: unknown): string | null {
  const owners = metaOf(pod)?.ownerReferences;
  if (!Array.isArray(owners)) return null;
  const owner = owners.find((o) => o && o.kind === 'KafkaCluster' && typeof o.name === 'string');
  return owner ? (owner.name as string) : null;
}

/** The broker a pod belongs to, from its labels or owner reference. */
export function brokerOfPod(pod: unknown): BrokerIdentity | null {
  const labels = metaOf(pod)?.labels;
  const brokerId = labels && typeof labels.brokerId === 'string' ? labels.brokerId : null;
  if (brokerId === null) return null;
  const cluster = labels && typeof labels.kafka_cr === 'string' ? labels.kafka_cr : kafkaClusterOwner(pod);
  return cluster ? { kafkaCluster: cluster, brokerId } : null;
}

/** The broker a pod name points at, by koperator's generateName pattern. */
export function brokerOfPodName(name: string): BrokerIdentity | null {
  const m = /^(.+?)-(?:controller-)?(\d+)-[a-z0-9]{5}$/.exec(name);
  return m ? { kafkaCluster: m[1], brokerId: m[2] } : null;
}

/**
 * Whether a pod could be one of koperator's by anything it shows (labels, owner, name), for
 * work worth doing only for broker pods. Not an identification: brokerOfPod is.
 */
export function mayBeKoperatorPod(pod: unknown): boolean {
  const meta = metaOf(pod) as (PodMeta & { name?: unknown; generateName?: unknown }) | null;
  if (!meta) return false;
  const labels = meta.labels ?? {};
  if (labels.app === 'kafka' || labels.kafka_cr !== undefined || labels.brokerId !== undefined) return true;
  if (kafkaClusterOwner(pod) !== null) return true;
  if (typeof meta.name === 'string' && brokerOfPodName(meta.name) !== null) return true;
  return typeof meta.generateName === 'string' && /-(?:controller-)?\d+-$/.test(meta.generateName);
}

/** koperator's per-broker configuration ConfigMap. */
export function brokerConfigMapName(cluster: string, brokerId: string): string {
  return `${cluster}-config-${brokerId}`;
}
