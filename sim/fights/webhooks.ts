// Mutating webhooks that make other operators' pods differ from what the operator wants, each
// with the fields fights.md says a recreate loop reports for it (computed here from what the
// webhook adds, independently of the analyzer's diff).
import type { Operation } from 'fast-json-patch';
import { isObject, type JsonObject, type JsonValue } from '../json';
import type { WebhookDef } from '../webhooks';

export interface FightWebhook extends WebhookDef {
  /** The contract paths the webhook changes on this pod (as the operator sent it). */
  fields(pod: JsonObject): string[];
}

type Kind = 'containers' | 'initContainers';

function containersOf(pod: JsonObject, kind: Kind): JsonObject[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const list = spec[kind];
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** EKS pod identity (IRSA): AWS_* env vars, the token volume and its mount in every container. */
export function irsaInjector(opts: {
  configuration?: string;
  webhook?: string;
  region: string;
  roleArn: string;
}): FightWebhook {
  const mountPath = '/var/run/secrets/eks.amazonaws.com/serviceaccount';
  const env = [
    { name: 'AWS_STS_REGIONAL_ENDPOINTS', value: 'regional' },
    { name: 'AWS_DEFAULT_REGION', value: opts.region },
    { name: 'AWS_REGION', value: opts.region },
    { name: 'AWS_ROLE_ARN', value: opts.roleArn },
    { name: 'AWS_WEB_IDENTITY_TOKEN_FILE', value: `${mountPath}/token` },
  ];
  return {
    configuration: opts.configuration ?? 'pod-identity-webhook',
    webhook: opts.webhook ?? 'iam-for-pods.amazonaws.com',
    mutate(pod) {
      const ops: Operation[] = [
        {
          op: 'add',
          path: '/spec/volumes/0',
          value: {
            name: 'aws-iam-token',
            projected: {
              sources: [
                {
                  serviceAccountToken: {
                    audience: 'sts.amazonaws.com',
                    expirationSeconds: 86400,
                    path: 'token',
                  },
                },
              ],
              defaultMode: 420,
            },
          },
        },
      ];
      for (const kind of ['initContainers', 'containers'] as const) {
        containersOf(pod, kind).forEach((c, i) => {
          const base = `/spec/${kind}/${i}`;
          if (Array.isArray(c.env))
            for (const e of env) ops.push({ op: 'add', path: `${base}/env/-`, value: e });
          else ops.push({ op: 'add', path: `${base}/env`, value: env });
          ops.push({
            op: 'add',
            path: `${base}/volumeMounts/-`,
            value: { name: 'aws-iam-token', readOnly: true, mountPath },
          });
        });
      }
      return ops;
    },
    fields(pod) {
      const out = ['spec.volumes[name=aws-iam-token]'];
      for (const kind of ['initContainers', 'containers'] as const) {
        for (const c of containersOf(pod, kind)) {
          const at = `spec.${kind}[name=${String(c.name)}]`;
          for (const e of env) out.push(`${at}.env[name=${e.name}]`);
          out.push(`${at}.volumeMounts[mountPath=${mountPath}]`);
        }
      }
      return out;
    },
  };
}

/** A registry mirror: every container image rewritten to the mirror's host. */
export function imageSwap(opts: { configuration?: string; webhook?: string; mirror: string }): FightWebhook {
  const swapped = (image: string) => `${opts.mirror}/${image.replace(/^[^/]+\.[^/]+\//, '')}`;
  return {
    configuration: opts.configuration ?? 'imageswap-webhook',
    webhook: opts.webhook ?? 'imageswap.webhook.k8s.twr.io',
    mutate(pod) {
      return containersOf(pod, 'containers').flatMap((c, i): Operation[] =>
        typeof c.image === 'string' && !c.image.startsWith(opts.mirror)
          ? [{ op: 'replace', path: `/spec/containers/${i}/image`, value: swapped(c.image) }]
          : [],
      );
    },
    fields(pod) {
      return containersOf(pod, 'containers')
        .filter((c) => typeof c.image === 'string' && !c.image.startsWith(opts.mirror))
        .map((c) => `spec.containers[name=${String(c.name)}].image`);
    },
  };
}

/** A service-mesh sidecar injector: a proxy container, an init container and their volume. */
export function sidecarInjector(opts: {
  configuration?: string;
  webhook?: string;
  proxy: string;
}): FightWebhook {
  const proxy: JsonValue = {
    name: opts.proxy,
    image: 'cr.l5d.io/linkerd/proxy:stable-2.14.10',
    ports: [{ name: 'linkerd-proxy', containerPort: 4143, protocol: 'TCP' }],
    volumeMounts: [
      { name: 'linkerd-identity-end-entity', mountPath: '/var/run/linkerd/identity/end-entity' },
    ],
  };
  const init: JsonValue = {
    name: `${opts.proxy}-init`,
    image: 'cr.l5d.io/linkerd/proxy-init:v2.2.3',
    args: ['--incoming-proxy-port', '4143'],
  };
  const volume: JsonValue = { name: 'linkerd-identity-end-entity', emptyDir: { medium: 'Memory' } };
  return {
    configuration: opts.configuration ?? 'linkerd-proxy-injector-webhook-config',
    webhook: opts.webhook ?? 'linkerd-proxy-injector.linkerd.io',
    mutate(pod) {
      const spec = isObject(pod.spec) ? pod.spec : {};
      const ops: Operation[] = [{ op: 'add', path: '/spec/containers/0', value: proxy }];
      if (Array.isArray(spec.initContainers))
        ops.push({ op: 'add', path: '/spec/initContainers/-', value: init });
      else ops.push({ op: 'add', path: '/spec/initContainers', value: [init] });
      ops.push({ op: 'add', path: '/spec/volumes/-', value: volume });
      return ops;
    },
    fields() {
      return [
        `spec.containers[name=${opts.proxy}]`,
        `spec.initContainers[name=${opts.proxy}-init]`,
        'spec.volumes[name=linkerd-identity-end-entity]',
      ];
    },
  };
}
