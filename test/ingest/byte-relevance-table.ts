// The byte decision's table, shared by the JSON-lines and the escaped (CloudWatch) tests:
// [verb, resource, subresource, name, username, the verdict the rules want].
import { ByteVerdict } from '../../lib/ingest/byte-relevance';

export const RS = 'system:serviceaccount:kube-system:replicaset-controller';
export const RELEVANCE_ROWS: Array<
  [string, string, string | undefined, string | undefined, string | undefined, ByteVerdict]
> = [
  ['get', 'pods', undefined, 'orders-1-abcde', undefined, ByteVerdict.Irrelevant],
  ['watch', 'kafkaclusters', undefined, undefined, undefined, ByteVerdict.Irrelevant],
  ['update', 'leases', undefined, 'node-1', undefined, ByteVerdict.Irrelevant],
  ['update', 'kafkaclusters', 'status', 'orders', undefined, ByteVerdict.Irrelevant],
  ['patch', 'kafkaclusters', undefined, 'orders', undefined, ByteVerdict.Parse],
  ['update', 'configmaps', undefined, 'orders-config-3', undefined, ByteVerdict.Parse],
  ['update', 'configmaps', undefined, 'argocd-cm', undefined, ByteVerdict.Irrelevant],
  ['create', 'pods', undefined, undefined, RS, ByteVerdict.Parse],
  ['delete', 'pods', undefined, 'web-7d9f8c6b5-x2x4z', RS, ByteVerdict.Irrelevant],
  ['delete', 'pods', undefined, 'pg-main-2', 'system:serviceaccount:cnpg:cnpg', ByteVerdict.Parse],
  ['patch', 'pods', 'status', 'web-7d9f8c6b5-x2x4z', undefined, ByteVerdict.Irrelevant],
  ['patch', 'pods', 'status', 'orders-3-abcde', undefined, ByteVerdict.Parse],
  ['patch', 'deployments', undefined, 'checkout', undefined, ByteVerdict.Parse],
  ['update', 'deployments', 'status', 'checkout', undefined, ByteVerdict.Irrelevant],
  ['update', 'deployments', 'scale', 'checkout', undefined, ByteVerdict.Parse],
  ['create', 'tokenreviews', undefined, undefined, undefined, ByteVerdict.Irrelevant],
];
