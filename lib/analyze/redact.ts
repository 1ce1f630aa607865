// Findings leave the process (SNS, Slack, reports), so env values in them are shown only
// for names on an allowlist (by default Kafka's heap and JVM options, which are what a
// resource fight usually touches); any other value becomes a marker that says whether
// it changed. `valueFrom` references carry no secret and are shown as they are.
export const DEFAULT_ENV_ALLOWLIST = ['KAFKA_HEAP_OPTS', 'KAFKA_JVM_PERFORMANCE_OPTS', 'KAFKA_OPTS', 'JAVA_OPTS'];

export const REDACTED_CHANGED = '<redacted, changed>';
export const REDACTED = '<redacted>';

const ENV_VALUE_PATH = /\.env\[name=([^\]]*)\]\.value$/;

/** A field's from/to, redacted as the path and the allowlist require. */
export function redactField(
  path: string,
  from: unknown,
  to: unknown,
  allowlist: readonly string[] = DEFAULT_ENV_ALLOWLIST,
): { from: unknown; to: unknown } {
  const m = ENV_VALUE_PATH.exec(path);
  if (m) {
    if (allowlist.includes(m[1])) return { from, to };
    const marker = from === to ? REDACTED : REDACTED_CHANGED;
    return { from: from === undefined || from === null ? from : marker, to: to === undefined || to === null ? to : marker };
  }
  return { from: redactEnvIn(from, allowlist), to: redactEnvIn(to, allowlist) };
}

/** Redacts env var values anywhere inside a value (a whole container, an env list...). */
export function redactEnvIn(value: unknown, allowlist: readonly string[], underEnv = false): unknown {
  if (Array.isArray(value)) return value.map((v) => redactEnvIn(v, allowlist, underEnv));
  if (!value || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const isEnvVar = underEnv && typeof obj.name === 'string';
  for (const [k, v] of Object.entries(obj)) {
    if (isEnvVar && k === 'value' && !allowlist.includes(obj.name as string)) out[k] = REDACTED;
    else out[k] = redactEnvIn(v, allowlist, k === 'env');
  }
  return out;
}
