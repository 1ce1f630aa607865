// Which records the analysis needs, decided as early and as cheaply as possible.
//
// Most of an audit log is unrelated traffic (leases, node status, reads). A record is
// dropped before JSON.parse only when its text *proves* it is an irrelevant audit event:
// it names an audit event (`auditID`, or a GKE `protoPayload`) and none of the words a
// relevant record must contain. Those words survive every wrapping: inside the escaped
// JSON strings of Fluent Bit, AKS and CloudWatch (`\"resource\":\"pods\"`, with `\/`
// escapes) and in GKE method names (`io.k8s.core.v1.pods.create`). A record that passes
// is parsed and judged on its fields.
//
// The test runs on the record's text, decoded once and then reused by JSON.parse:
// measured on 1 GB of audit lines, String.includes/RegExp cost about half of what five
// Buffer.indexOf calls per line cost, since each of those crosses into C++ (~0.5 us).
//
// Lone events in kube-apiserver's own layout, bare or escaped in a CloudWatch message, are
// decided before this, on their bytes (byte-relevance.ts), by these same rules; this text
// pre-filter serves every other layout.
import type { AuditEvent } from '../model/audit';
import {
  CR_RESOURCES,
  CR_TEXT_PIECES,
  hasMarkerText,
  isOperatorPodName,
  isKeptCrWrite,
  isUnitConfigWrite,
  mayBeOperatorPod,
  UNIT_CONFIG_RESOURCES,
} from '../operators/registry';
import { IGNORED_RESOURCES, isBuiltinPodController, isFightObjectWrite } from '../fights/relevance';

/**
 * NiFiKop's node Secrets, as a resource (`"secrets"`, `\"secrets\"`, `/secrets/`, GKE's
 * `.secrets.`): a bare `secrets` would also match names such as `vault-secrets-webhook` and
 * send their lines to the parser for nothing.
 */
const SECRETS_RESOURCE = 'secrets[\\\\"/.?]';

/**
 * A relevant record contains `pods`, `configmaps`, `secrets`, an operator's CR (koperator: `kafkacluster`)
 * or (zap lines) `msg`. Searched as shorter pieces of those words, which V8 scans about a third
 * faster: a necessary condition all the same, only with a few more records left to the parser.
 * With koperator alone: /ods|gmaps|fkaclus|msg/.
 */
const RELEVANT_WORD = new RegExp(['ods', 'gmaps', SECRETS_RESOURCE, ...CR_TEXT_PIECES, 'msg'].join('|'));

const READ_VERBS = new Set(['get', 'list', 'watch']);

/**
 * Writes (any verb but get/list/watch) to pods that may be an operator's (koperator's) and
 * their subresources, to the operators' cluster CRs themselves (KafkaClusters: the analysis
 * reads CR edits, never the operator's status updates) and to their per-member configuration
 * (koperator's per-broker ConfigMaps, the only ones a broker restarts for). The other ConfigMap and status writes were half of the facts of a
 * busy cluster, for nothing, and other teams' pods are most of its pod writes.
 */
export function isRelevantAuditEvent(ev: AuditEvent): boolean {
  const ref = ev.objectRef;
  const resource = ref?.resource;
  if (resource === undefined || READ_VERBS.has(ev.verb)) return false;
  if (resource === 'pods') return !isForeignPodWrite(ev);
  if (CR_RESOURCES.has(resource)) return isKeptCrWrite(resource, ref?.subresource);
  if (UNIT_CONFIG_RESOURCES.has(resource))
    return typeof ref?.name === 'string' && isUnitConfigWrite(resource, ref.name);
  return (
    typeof resource === 'string' && isFightObjectWrite(ev.verb, resource, ref?.subresource, ref?.apiGroup)
  );
}

/**
 * A write to a named pod that cannot be a koperator broker. koperator creates every broker
 * pod with generateName `<cluster>-<brokerId>-`, so a pod named otherwise is a broker only
 * by its labels or owner, and this event shows none. Kept whatever the name: creates (an
 * unnamed create's RequestReceived stage carries no body to judge, and its request must be
 * judged alike at every stage) and bindings (at Metadata level a binding names an unnamed
 * create; one dropped would leave its create to be paired with a broker's binding).
 */
function isForeignPodWrite(ev: AuditEvent): boolean {
  const name = ev.objectRef?.name;
  if (typeof name !== 'string' || ev.verb === 'create') return false;
  // Another operator's delete may be a recreate loop's cycle (lib/fights/recreate-loop.ts).
  if (
    ev.verb === 'delete' &&
    !ev.objectRef?.subresource &&
    !isBuiltinPodController(String(ev.user?.username))
  )
    return false;
  if (isOperatorPodName(name)) return false;
  return !mayBeOperatorPod(ev.requestObject) && !mayBeOperatorPod(ev.responseObject);
}

/** Returned by irrelevantEvents for one irrelevant GKE LogEntry (which has no auditID). */
export const ONE_GKE_ENTRY = -1;

function countOf(text: string, word: string): number {
  let n = 0;
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length)) n++;
  return n;
}

/**
 * How many audit events `text` provably holds, all of them irrelevant; 0 when that
 * cannot be proved (the record must be parsed), ONE_GKE_ENTRY for a GKE LogEntry.
 * `many`: the record may hold several events (EventList, CloudWatch payload), so count
 * them; otherwise the first `auditID` is enough.
 */
export function irrelevantEvents(text: string, many: boolean): number {
  if (!text.includes('auditID')) {
    if (!text.includes('protoPayload') || RELEVANT_WORD.test(text) || mayBeGkeFightWrite(text)) return 0;
    return ONE_GKE_ENTRY;
  }
  if (!RELEVANT_WORD.test(text)) {
    if (many) return mayHoldFightWrite(text) ? 0 : countOf(text, 'auditID');
    return mayBeFightWrite(text) ? 0 : 1;
  }
  // It names pods or config maps, but a read (get/list/watch) is irrelevant whatever it
  // names. Only a lone event has a top-level verb (containers nest theirs); a zap line
  // that happens to log a verb is left to the parser.
  // The verb first: it is near the start, while `"msg"` is absent from audit events and
  // would be searched for in the whole of every relevant one.
  if (isReadEvent(text) && !text.includes('"msg"')) return 1;
  if (!many && isForeignPodWriteText(text)) return 1;
  return 0;
}

const URI_KEY = ',"requestURI":"';
/** A core-API URI naming one pod: `/api/v1/namespaces/<ns>/pods/<name>[/<subresource>]`. */
const POD_URI = /^\/api\/v1\/namespaces\/[a-z0-9-]+\/pods\/([a-z0-9.-]+)(?:\/([a-z]+))?["?]/;

/**
 * isForeignPodWrite on the text of a lone event. Its top-level requestURI names the pod
 * (creates post to the collection, so they never match), the name is not a broker's, the
 * verb is not a create (a binding or eviction is one, posted to the pod's URI), and
 * nothing in the event can be an operator's marker: every label, owner and API group
 * mayBeOperatorPod looks for spells one of the profiles' markerTexts (koperator's:
 * `kafka`/`Kafka` or `brokerId`). Other teams' pod
 * deletes and status patches, with their full pod bodies, are then dropped unparsed.
 */
function isForeignPodWriteText(text: string): boolean {
  if (text.charCodeAt(0) !== 0x7b) return false;
  const at = text.indexOf(URI_KEY);
  if (at < 0 || at > 4096) return false;
  // No bracket before the key: it is a top-level key (the argument of verbBeforeAnyBracket).
  BRACKET.lastIndex = 1;
  const bracket = BRACKET.exec(text);
  if (bracket !== null && bracket.index < at) return false;
  const from = at + URI_KEY.length;
  const m = POD_URI.exec(text.slice(from, from + 400));
  if (m === null || isOperatorPodName(m[1])) return false;
  const verb = topLevelVerb(text);
  if (verb === null || verb === 'create') return false;
  // Another operator's delete may be a recreate loop's cycle; Kubernetes' own never is.
  if (verb === 'delete' && m[2] === undefined && !isBuiltinPodController(firstValue(USERNAME, text) ?? ''))
    return false;
  return !hasMarkerText(text);
}

// The event's objectRef, in plain or escaped JSON (`"objectRef":{"resource":"x",...}`, or with
// `\\"` quotes inside a container's string): a flat object, so it ends at the first `}`.
// kube-apiserver writes it before any body, so the first is the event's own, and reading
// resource and subresource inside it never mistakes a managedFields entry for them.
const OBJECT_REF = /"objectRef\\?":\s*\{[^}]*\}/;
const RESOURCE = /"resource\\?":\s*\\?"([^"\\]*)/;
const RESOURCES = /"resource\\?":\s*\\?"([^"\\]*)/g;
const SUBRESOURCE = /"subresource\\?":\s*\\?"([^"\\]*)/;
const VERB = /"verb\\?":\s*\\?"([^"\\]*)/;
const USERNAME = /"username\\?":\s*\\?"([^"\\]*)/;
const METHOD = /"methodName\\?":\s*\\?"([^"\\]*)/;

function firstValue(re: RegExp, text: string): string | null {
  const m = re.exec(text);
  return m === null ? null : m[1];
}

/**
 * Whether one audit event's text may be a write a fight detector reads (lib/fights/relevance.ts):
 * false only when its objectRef shows a resource or subresource that rules it out, or its verb
 * is a read. An event with no objectRef (a non-resource URL) is never one.
 */
function mayBeFightWrite(text: string): boolean {
  const line = kubeLineMayBeFightWrite(text);
  if (line !== undefined) return line;
  const fast = fastObjectRef(text);
  if (fast !== undefined) {
    if (fast === null || IGNORED_RESOURCES.has(fast.resource)) return false;
    if (fast.subresource !== null && fast.subresource !== 'scale') return false;
    const verb = topLevelVerb(text);
    return verb === null || !READ_VERBS.has(verb);
  }
  const ref = OBJECT_REF.exec(text);
  if (ref === null) return false;
  const resource = firstValue(RESOURCE, ref[0]);
  if (resource === null || IGNORED_RESOURCES.has(resource)) return false;
  const sub = firstValue(SUBRESOURCE, ref[0]);
  if (sub !== null && sub !== '' && sub !== 'scale') return false;
  const verb = firstValue(VERB, text);
  return verb === null || !READ_VERBS.has(verb);
}

/** The next `/` in [from, end), or end. */
function segmentEnd(text: string, from: number, end: number): number {
  for (let i = from; i < end; i++) if (text.charCodeAt(i) === 0x2f) return i;
  return end;
}

const VERB_AFTER_URI = '","verb":"';
const URI_KEY_FROM = 64;
const FIRST_STAGE = '"stage":"RequestReceived"';

/**
 * mayBeFightWrite for a line in kube-apiserver's layout, read by index alone: its requestURI
 * (the fourth key) and the verb right after it, then the resource and subresource the URI
 * names. This runs on most lines of a cluster's log (every one that names no pod), so it
 * allocates at most the resource's name. Undefined when the layout is not that one.
 */
function kubeLineMayBeFightWrite(text: string): boolean | undefined {
  if (text.charCodeAt(0) !== 0x7b) return undefined;
  // kind, apiVersion, level, auditID and stage come first: at least ~100 characters.
  const at = text.indexOf(URI_KEY, URI_KEY_FROM);
  if (at < 0 || at > 1024) return undefined;
  const from = at + URI_KEY.length;
  // Leases are half of a cluster's audit lines, and all of that group is leases.
  if (text.startsWith('/apis/coordination.k8s.io/', from)) return false;
  // kube-apiserver logs bodies and the response code on a request's last stage only; its
  // first stage tells a fight detector nothing the last one does not (the stage is the key
  // before requestURI).
  if (text.startsWith(FIRST_STAGE, at - FIRST_STAGE.length)) return false;
  const close = text.indexOf('"', from);
  if (close < 0 || !text.startsWith(VERB_AFTER_URI, close)) return undefined;
  const v = close + VERB_AFTER_URI.length;
  if (text.startsWith('get"', v) || text.startsWith('list"', v) || text.startsWith('watch"', v)) return false;
  // An escape in the path (`\/` in AKS's JSON) is left to the objectRef readers. Both
  // searched back from the URI's end: forwards, a URI without them would send indexOf
  // through the whole event.
  if (text.lastIndexOf('\\', close) >= from) return undefined;
  const q = text.lastIndexOf('?', close);
  const end = q >= from ? q : close;
  let p: number;
  if (text.startsWith('/api/v1/', from)) p = from + 8;
  else if (text.startsWith('/apis/', from)) {
    const g = text.indexOf('/', from + 6);
    const ver = g < 0 || g >= end ? -1 : text.indexOf('/', g + 1);
    if (ver < 0 || ver >= end) return false;
    p = ver + 1;
  } else return false;
  if (p >= end) return false;
  if (text.startsWith('namespaces/', p)) {
    const n = text.indexOf('/', p + 11);
    if (n >= 0 && n < end) p = n + 1;
  }
  const r = segmentEnd(text, p, end);
  if (IGNORED_RESOURCES.has(text.slice(p, r))) return false;
  if (r >= end) return true;
  const name = segmentEnd(text, r + 1, end);
  if (name >= end) return true;
  // A subresource: only `scale` (spec.replicas of its parent) is a write a fight rests on.
  return segmentEnd(text, name + 1, end) - (name + 1) === 5 && text.startsWith('scale', name + 1);
}

const REF_KEY = '"objectRef":{"resource":"';
const SUB_KEY = '"subresource":"';

/**
 * The objectRef of a kube-apiserver line read with indexOf alone (measured: the regex took
 * 5% of a 1 GB run's CPU): null when the line has none, undefined when its layout is not
 * kube-apiserver's (resource first), which the regexes then read.
 */
function fastObjectRef(text: string): { resource: string; subresource: string | null } | null | undefined {
  const at = text.indexOf(REF_KEY);
  if (at < 0) return text.includes('objectRef') ? undefined : null;
  const from = at + REF_KEY.length;
  const to = text.indexOf('"', from);
  const end = text.indexOf('}', from);
  if (to < 0 || end < 0 || to > end) return undefined;
  const sub = text.indexOf(SUB_KEY, to);
  if (sub < 0 || sub > end) return { resource: text.slice(from, to), subresource: null };
  const subFrom = sub + SUB_KEY.length;
  const subTo = text.indexOf('"', subFrom);
  if (subTo < 0 || subTo > end) return undefined;
  return { resource: text.slice(from, to), subresource: text.slice(subFrom, subTo) };
}

/** mayBeFightWrite for a container of several events (verbs cannot be paired with resources). */
function mayHoldFightWrite(text: string): boolean {
  RESOURCES.lastIndex = 0;
  for (let m = RESOURCES.exec(text); m !== null; m = RESOURCES.exec(text)) {
    if (!IGNORED_RESOURCES.has(m[1])) return true;
  }
  return false;
}

/** mayBeFightWrite for a GKE LogEntry, from its methodName (`io.k8s.apps.v1.deployments.scale.update`). */
function mayBeGkeFightWrite(text: string): boolean {
  const method = firstValue(METHOD, text);
  if (method === null) return false;
  const parts = method.split('.');
  const verb = parts[parts.length - 1];
  if (READ_VERBS.has(verb) || parts.includes('status')) return false;
  return !parts.some((p) => IGNORED_RESOURCES.has(p));
}

/**
 * The words test alone, for text that cannot be read structurally yet (a JSON string
 * still escaped inside its container): an audit event naming none of the words.
 */
export function lacksRelevantWords(text: string): boolean {
  return text.includes('auditID') && !RELEVANT_WORD.test(text) && !mayBeFightWrite(text);
}

const QUOTE = 0x22;
const BSLASH = 0x5c;
const VERB_KEY = '"verb":"';

/**
 * The value of the top-level `verb` key of a JSON object, when it can be read without
 * parsing: the key must be found at depth 1 (not inside a body, not inside a string)
 * within the first `limit` characters. kube-apiserver writes `verb` as the seventh key,
 * so for its events this reads a few hundred characters. Null when unsure.
 */
export function topLevelVerb(text: string, limit = 4096): string | null {
  const fast = verbBeforeAnyBracket(text, limit);
  if (fast !== undefined) return fast;
  const end = Math.min(text.length, limit);
  let depth = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (depth === 1 && text.startsWith(VERB_KEY, i)) {
        const from = i + VERB_KEY.length;
        const to = text.indexOf('"', from);
        // A verb never holds escapes; one that seems to is not trusted.
        if (to < 0 || text.lastIndexOf('\\', to) >= from) return null;
        return text.slice(from, to);
      }
      // Skip the string (key or value), honouring escapes.
      for (i++; i < end; i++) {
        const s = text.charCodeAt(i);
        if (s === BSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return null;
}

const COMMA_VERB_KEY = ',"verb":"';
const BRACKET = /[[\]{}]/g;

/**
 * topLevelVerb's answer without walking the strings, for compact objects whose `verb`
 * key comes before any bracket (kube-apiserver's order); undefined when that is not the
 * layout. In valid JSON `,"verb":"` cannot lie inside a string (its quotes would end
 * the string, and a closing quote is never followed by a letter), so it is a key; with
 * no bracket between the opening brace and it, that key is at depth 1. One regex search
 * for the first bracket instead of a loop over ~200 characters per line: measured, the
 * loop was 7% of JSON-lines ingestion.
 */
function verbBeforeAnyBracket(text: string, limit: number): string | null | undefined {
  if (text.charCodeAt(0) !== 0x7b) return undefined;
  const at = text.indexOf(COMMA_VERB_KEY);
  if (at < 0 || at + 1 >= limit) return undefined;
  BRACKET.lastIndex = 1;
  const bracket = BRACKET.exec(text);
  if (bracket !== null && bracket.index < at) return undefined;
  const from = at + COMMA_VERB_KEY.length;
  const to = text.indexOf('"', from);
  // Anything unusual (no closing quote, an escape in the verb) is left to the full walk.
  if (to < 0 || text.lastIndexOf('\\', to) >= from) return undefined;
  return text.slice(from, to);
}

/** A single audit event whose top-level verb is a read: irrelevant whatever its resource. */
export function isReadEvent(text: string): boolean {
  const verb = topLevelVerb(text);
  return verb !== null && READ_VERBS.has(verb);
}
