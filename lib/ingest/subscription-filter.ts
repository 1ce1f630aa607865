// What the ingest keeps (filter.ts), as a CloudWatch Logs subscription filter pattern: the
// stack subscribes each EKS audit log group with it, so what the analysis, the fight
// detectors and the drift detection can never use is not shipped, paid for and parsed.
//
// The pattern is a superset of isRelevantAuditEvent: CloudWatch's JSON patterns cannot say
// everything filter.ts says (ConfigMap names, other teams' pods, built-in deleters), and a
// record shipped in vain costs a few bytes, while one dropped here is lost for good.
// It is kept as a tree so that the tests can evaluate it against audit events, under both
// readings of the one rule AWS does not document: whether `!=` matches a missing field.
import { IGNORED_RESOURCES } from '../fights/relevance';
import {
  CR_RESOURCES,
  CR_STATUS_KEPT,
  OPERATOR_IMAGE_PIECES,
  OWN_RESOURCE_FOLDS,
  UNIT_CONFIG_RESOURCES,
} from '../operators/registry';

export type Pattern =
  | { op: '='; field: string; value: string }
  | { op: '!='; field: string; value: string }
  | { op: 'NOT EXISTS'; field: string }
  /** `field = %regex%`: CloudWatch's regex inside a JSON pattern, matched anywhere in the value. */
  | { op: '=~'; field: string; regex: string }
  | { op: '&&'; of: Pattern[] }
  | { op: '||'; of: Pattern[] };

/** PutSubscriptionFilter's limit on filterPattern (CloudWatch Logs API reference). */
export const MAX_FILTER_PATTERN_LENGTH = 1024;

const eq = (field: string, value: string): Pattern => ({ op: '=', field, value });
const ne = (field: string, value: string): Pattern => ({ op: '!=', field, value });
const and = (...of: Pattern[]): Pattern => ({ op: '&&', of });
const or = (...of: Pattern[]): Pattern => ({ op: '||', of });

const VERB = '$.verb';
const RESOURCE = '$.objectRef.resource';
const SUBRESOURCE = '$.objectRef.subresource';

/**
 * Resources a fight is never over (IGNORED_RESOURCES), folded with CloudWatch's leading and
 * trailing wildcards so that the pattern stays under 1,024 characters: `*reviews` (token and
 * access reviews), `endpoint*`, and the operators' folds of their own kinds (koperator's
 * `kafka*`: their API group a pattern cannot test for core-group objects lacking `apiGroup`).
 * Members' configuration objects (ConfigMaps) and the operators' CRs (KafkaClusters) are kept
 * by branches of their own.
 */
export function excludedResources(ignored: Iterable<string> = IGNORED_RESOURCES): string[] {
  const out = new Set<string>();
  for (const r of ignored) {
    if (UNIT_CONFIG_RESOURCES.has(r) || CR_RESOURCES.has(r)) continue;
    if (r.endsWith('reviews')) out.add('*reviews');
    else if (r.startsWith('endpoint')) out.add('endpoint*');
    else {
      const fold = OWN_RESOURCE_FOLDS.find((f) => r.startsWith(f.slice(0, -1)));
      out.add(fold ?? r);
    }
  }
  return [...out];
}

/**
 * Writes (no get, list or watch) to: pods and every subresource of theirs (recreations,
 * drift: bindings, evictions, ephemeral containers, resize, status); ConfigMaps (the
 * ingest keeps koperator's per-broker ones); KafkaClusters themselves; and every other
 * object a controller declares (Deployments, StatefulSets, webhook configurations, custom
 * resources, their `scale`), which is what field fights and hot loops are found in.
 */
export function auditFilterPattern(): Pattern {
  return and(
    ne(VERB, 'get'),
    ne(VERB, 'list'),
    ne(VERB, 'watch'),
    or(
      eq(RESOURCE, 'pods'),
      ...[...UNIT_CONFIG_RESOURCES].map((r) => eq(RESOURCE, r)),
      ...[...CR_RESOURCES].map((r) =>
        // A CR whose status is kept ships every subresource of it (a superset; the pattern is short).
        CR_STATUS_KEPT.has(r)
          ? eq(RESOURCE, r)
          : and(eq(RESOURCE, r), { op: 'NOT EXISTS', field: SUBRESOURCE }),
      ),
      and(
        ...excludedResources().map((r) => ne(RESOURCE, r)),
        or({ op: 'NOT EXISTS', field: SUBRESOURCE }, eq(SUBRESOURCE, 'scale')),
      ),
    ),
  );
}

/**
 * The operators' own lines in a Container Insights (or any Fluent Bit with its kubernetes
 * filter) application log group: the records of a container whose image names a replayed
 * operator. Every other application's lines stay behind, and so does the group's second
 * subscription slot's owner's share. A line that is not JSON, or lacks the metadata, is not
 * shipped: the deploy guide says the kubernetes filter is needed.
 */
export function operatorLogFilterPattern(pieces: readonly string[] = OPERATOR_IMAGE_PIECES): Pattern {
  // A regex, not `*piece*`: AWS documents wildcards in JSON values at an end only, and
  // the image's registry host comes first. One regex in all (AWS allows two per pattern).
  return { op: '=~', field: '$.kubernetes.container_image', regex: pieces.join('|') };
}

/**
 * The characters CloudWatch allows in a filter's regex ("Supported regular expressions"):
 * letters, digits, the symbols _ # = @ / ; , - and the operators ^ $ ? [ ] { } | \ * + .
 */
const CLOUDWATCH_REGEX = /^[A-Za-z0-9_#=@/;,\-^$?[\]{}|\\*+.]+$/;

function renderTerm(p: Pattern, parent: Pattern['op'] | null): string {
  switch (p.op) {
    case '=':
    case '!=':
      return `${p.field} ${p.op} ${JSON.stringify(p.value)}`;
    case 'NOT EXISTS':
      return `${p.field} NOT EXISTS`;
    case '=~':
      if (!CLOUDWATCH_REGEX.test(p.regex))
        throw new Error(
          `${JSON.stringify(p.regex)} holds characters CloudWatch's filter regex does not take`,
        );
      return `${p.field} = %${p.regex}%`;
    case '&&':
    case '||': {
      const inner = p.of.map((c) => renderTerm(c, p.op)).join(` ${p.op} `);
      // && binds tighter than ||: only an || inside an && needs parentheses, but they are
      // written for every nested group so that a reader need not know the precedence.
      return parent === null ? inner : `(${inner})`;
    }
  }
}

/** The pattern as PutSubscriptionFilter takes it. */
export function renderPattern(p: Pattern): string {
  const text = `{ ${renderTerm(p, null)} }`;
  if (text.length > MAX_FILTER_PATTERN_LENGTH)
    throw new Error(
      `filter pattern is ${text.length} characters, over CloudWatch's ${MAX_FILTER_PATTERN_LENGTH}`,
    );
  return text;
}

/**
 * How `!=` treats a field the event lacks. AWS documents `NOT EXISTS` for that and says
 * nothing of `!=`: `absent-fails` is the strict reading, `absent-matches` the loose one.
 */
export type AbsentField = 'absent-fails' | 'absent-matches';

function valueAt(ev: unknown, field: string): unknown {
  let v: unknown = ev;
  for (const k of field.replace(/^\$\./, '').split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** CloudWatch's string match: `*` only at the start or the end is a wildcard. */
function stringMatches(actual: string, want: string): boolean {
  const lead = want.startsWith('*');
  const trail = want.length > 1 && want.endsWith('*');
  const core = want.slice(lead ? 1 : 0, trail ? -1 : undefined);
  if (lead && trail) return actual.includes(core);
  if (lead) return actual.endsWith(core);
  if (trail) return actual.startsWith(core);
  return actual === want;
}

/** Whether CloudWatch would pass this (parsed JSON) log event through the pattern. */
export function patternMatches(p: Pattern, ev: unknown, absent: AbsentField): boolean {
  switch (p.op) {
    case '=': {
      const v = valueAt(ev, p.field);
      return (typeof v === 'string' || typeof v === 'number') && stringMatches(String(v), p.value);
    }
    case '!=': {
      const v = valueAt(ev, p.field);
      // An object or a list is not a value node: AWS says neither = nor != applies.
      if (v !== null && typeof v === 'object') return false;
      if (v === undefined) return absent === 'absent-matches';
      return !stringMatches(String(v), p.value);
    }
    case 'NOT EXISTS':
      return valueAt(ev, p.field) === undefined;
    case '=~': {
      const v = valueAt(ev, p.field);
      return typeof v === 'string' && new RegExp(p.regex).test(v);
    }
    case '&&':
      return p.of.every((c) => patternMatches(c, ev, absent));
    case '||':
      return p.of.some((c) => patternMatches(c, ev, absent));
  }
}
