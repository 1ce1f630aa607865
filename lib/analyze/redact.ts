// Findings leave the process (SNS, Slack, reports), so env values in them are shown only
// for names on an allowlist (by default Kafka's heap and JVM options, which are what a
// resource fight usually touches); any other value becomes a marker that says whether
// it changed. `valueFrom` references carry no secret and are shown as they are.
export const DEFAULT_ENV_ALLOWLIST = [
  'KAFKA_HEAP_OPTS',
  'KAFKA_JVM_PERFORMANCE_OPTS',
  'KAFKA_OPTS',
  'JAVA_OPTS',
];

export const REDACTED_CHANGED = '<redacted, changed>';
export const REDACTED = '<redacted>';

const ENV_VALUE_PATH = /\.env\[name=([^\]]*)\]\.value$/;
/**
 * A field that is a whole env list (`...env`) or one env var (`...env[name=X]`): the
 * diff reports an added or removed var this way, so its `value` is an env value too.
 */
const ENV_LIST_OR_VAR_PATH = /\.env(\[name=[^\]]*\])?$/;
/**
 * Far deeper than any pod. A finding's value comes from the logs, which are untrusted:
 * past this depth it is withheld rather than walked, so no input can overflow the stack.
 */
const MAX_DEPTH = 64;

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
    return {
      from: from === undefined || from === null ? from : marker,
      to: to === undefined || to === null ? to : marker,
    };
  }
  const underEnv = ENV_LIST_OR_VAR_PATH.test(path);
  return { from: redactEnvIn(from, allowlist, underEnv), to: redactEnvIn(to, allowlist, underEnv) };
}

/** Redacts env var values anywhere inside a value (a whole container, an env list...). */
export function redactEnvIn(
  value: unknown,
  allowlist: readonly string[],
  underEnv = false,
  depth = 0,
): unknown {
  if (!value || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactEnvIn(v, allowlist, underEnv, depth + 1));
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const isEnvVar = underEnv && typeof obj.name === 'string';
  for (const [k, v] of Object.entries(obj)) {
    if (isEnvVar && k === 'value' && !allowlist.includes(obj.name as string)) out[k] = REDACTED;
    else out[k] = redactEnvIn(v, allowlist, k === 'env', depth + 1);
  }
  return out;
}
