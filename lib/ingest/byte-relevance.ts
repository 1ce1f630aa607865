// Relevance decided on the raw bytes of one audit line, before any string of it exists.
//
// Most lines of an audit log are reads, leases and other teams' writes; decoding each into
// a string only to search it (the pre-filter of filter.ts) was a fifth of a gigabyte's
// ingestion, and the strings' garbage more. kube-apiserver writes an event's keys in one
// order, the ones relevance reads first: kind, apiVersion, level, auditID, stage,
// requestURI, verb, user, sourceIPs, userAgent, objectRef, then the bodies. One pass over
// those first few hundred bytes, tracking strings and nesting, finds the top-level verb,
// user.username and every member of objectRef by position; the rules of isRelevantAuditEvent
// (filter.ts) then run on them, unchanged. A line is rejected only when the rules reject
// the event those bytes parse to; a line the rules keep is parsed without the string
// pre-filter; anything unusual (whitespace, an escape in a value read, a container's key,
// another layout) is left to the string path, which decides as before.
//
// One assumption, shared with the string pre-filter: keys after objectRef do not repeat
// verb or objectRef (JSON.parse would take the last; kube-apiserver never writes a key twice).
//
// The same reading serves an event still escaped inside a JSON string (a CloudWatch Logs
// message, as Firehose delivers EKS audit logs): there every quote of the event is the
// two bytes `\"`, a backslash of the event is `\\`, and `/` may be `\/`. The scan is
// parameterised by that dialect (the quote token and the templates spelled with it), so
// the message is judged without being unescaped or decoded. Any other escape of the
// string (`\u0022` could spell a quote of the event, `\n` a raw control character) is
// unusual and left to the string path.
import {
  CR_RESOURCES,
  isOperatorPodName,
  isKeptCrWrite,
  isUnitConfigWrite,
  MARKER_TEXTS,
  UNIT_CONFIG_RESOURCES,
} from '../operators/registry';
import { isBuiltinPodController, isFightObjectWrite } from '../fights/relevance';

export const enum ByteVerdict {
  /** Not decided here: the string pre-filter and the parser decide. */
  Unsure = 0,
  /** An audit event the relevance rules reject: count it, never decode it. */
  Irrelevant = 1,
  /** An audit event the rules keep (or that needs its bodies): parse it. */
  Parse = 2,
}

const QUOTE = 0x22;
const BSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACK = 0x5b;
const RBRACK = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const SLASH = 0x2f;

/** How far into a line the head is searched for objectRef before the line is left to the string path. */
const HEAD_LIMIT = 8192;

const enum Key {
  Other,
  Kind,
  AuditID,
  Stage,
  Verb,
  User,
  ObjectRef,
  /** A key of a container (EventList, CloudWatch, GKE, AKS, Fluent Bit) or of a zap line. */
  Container,
}

const enum RefKey {
  Other,
  Resource,
  Subresource,
  Name,
  ApiGroup,
}

// --- small tokens (verbs, resources, names, users) as strings, without a C++ call each ---

const TOKEN_SLOTS = 4096;
const tokenHash = new Int32Array(TOKEN_SLOTS);
const tokenText: (string | null)[] = new Array<string | null>(TOKEN_SLOTS).fill(null);
const MAX_TOKEN = 253;

/**
 * The string of bytes [from, to), all ASCII (the caller checked), from a small cache
 * keyed by a hash of the bytes and verified against them: the same few verbs, resources
 * and users are most of a log's tokens.
 */
function token(buf: Buffer, from: number, to: number): string {
  let h = 0x811c9dc5 | 0;
  for (let i = from; i < to; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  const slot = (h ^ (h >>> 15)) & (TOKEN_SLOTS - 1);
  const known = tokenText[slot];
  if (known !== null && tokenHash[slot] === h && known.length === to - from) {
    let same = true;
    for (let i = 0; i < known.length; i++) {
      if (known.charCodeAt(i) !== buf[from + i]) {
        same = false;
        break;
      }
    }
    if (same) return known;
  }
  const s = buf.toString('latin1', from, to);
  tokenHash[slot] = h;
  tokenText[slot] = s;
  return s;
}

// --- the scan's results, kept in module state: no allocation per line ---

let verbFrom = -1;
let verbTo = -1;
/** user.username's bytes, read only for the one rule that needs it (-1: none). */
let userFrom = -1;
let userTo = -1;
let userSeen = false;
let hasAuditID = false;
let hasStage = false;
let stageFrom = -1;
let stageTo = -1;
let refSeen = false;
let refResource = -1;
let refResourceTo = -1;
let refSub = -1;
let refSubTo = -1;
let refName = -1;
let refNameTo = -1;
let refGroup = -1;
let refGroupTo = -1;

// --- the dialect: an event's own bytes, or the event escaped inside a JSON string ---

/** True while judging an escaped event: its quote is the two bytes `\"`. */
let esc = false;
/** The length of a quote token: 1, or 2 when escaped. */
let QL = 1;

/** A quote token at `i`. */
function isQuote(buf: Buffer, i: number): boolean {
  return esc ? buf[i] === BSLASH && buf[i + 1] === QUOTE : buf[i] === QUOTE;
}

function keyOf(buf: Buffer, from: number, len: number): Key {
  const c = buf[from];
  switch (len) {
    case 3: // log, msg
      return (c === 0x6c && buf[from + 1] === 0x6f && buf[from + 2] === 0x67) ||
        (c === 0x6d && buf[from + 1] === 0x73 && buf[from + 2] === 0x67)
        ? Key.Container
        : Key.Other;
    case 4:
      if (c === 0x6b && buf[from + 1] === 0x69 && buf[from + 2] === 0x6e && buf[from + 3] === 0x64)
        return Key.Kind;
      if (c === 0x76 && buf[from + 1] === 0x65 && buf[from + 2] === 0x72 && buf[from + 3] === 0x62)
        return Key.Verb;
      if (c === 0x75 && buf[from + 1] === 0x73 && buf[from + 2] === 0x65 && buf[from + 3] === 0x72)
        return Key.User;
      // date: Fluent Bit's wrapper key (object-reader.ts names those records apart).
      if (c === 0x64 && buf[from + 1] === 0x61 && buf[from + 2] === 0x74 && buf[from + 3] === 0x65)
        return Key.Container;
      return Key.Other;
    case 5: // stage, items
      if (is(buf, from, STAGE)) return Key.Stage;
      return is(buf, from, ITEMS) ? Key.Container : Key.Other;
    case 7:
      return is(buf, from, AUDIT_ID) ? Key.AuditID : Key.Other;
    case 9: // objectRef, logEvents
      if (is(buf, from, OBJECT_REF)) return Key.ObjectRef;
      return is(buf, from, LOG_EVENTS) ? Key.Container : Key.Other;
    case 10:
      return is(buf, from, PROPERTIES) ? Key.Container : Key.Other;
    case 11:
      return is(buf, from, MESSAGE_TYPE) ? Key.Container : Key.Other;
    case 12:
      return is(buf, from, PROTO_PAYLOAD) ? Key.Container : Key.Other;
    default:
      return Key.Other;
  }
}

const STAGE = Buffer.from('stage');
const ITEMS = Buffer.from('items');
const AUDIT_ID = Buffer.from('auditID');
const OBJECT_REF = Buffer.from('objectRef');
const LOG_EVENTS = Buffer.from('logEvents');
const PROPERTIES = Buffer.from('properties');
const MESSAGE_TYPE = Buffer.from('messageType');
const PROTO_PAYLOAD = Buffer.from('protoPayload');
const RESOURCE = Buffer.from('resource');
const SUBRESOURCE = Buffer.from('subresource');
const API_GROUP = Buffer.from('apiGroup');
const USERNAME = Buffer.from('username');
const EVENT = Buffer.from('Event');
const REQUEST_RECEIVED = Buffer.from('RequestReceived');

function is(buf: Buffer, from: number, word: Buffer): boolean {
  for (let i = 0; i < word.length; i++) if (buf[from + i] !== word[i]) return false;
  return true;
}

/**
 * The closing quote (token) of the string whose content starts at `i`, escapes honoured;
 * -1 if none before `end`. Escaped, the event's own escapes are `\\` and the character
 * after it, itself written as a byte or `\"`, `\\`, `\/`; the string's `\/` is a
 * slash; anything else of the string's (a `\u` that may spell a quote, a control
 * character, a raw quote, which no valid string holds) is unusual: -1.
 */
function stringEnd(buf: Buffer, i: number, end: number): number {
  for (; i < end; i++) {
    const b = buf[i];
    if (b === QUOTE) return esc ? -1 : i;
    if (b === BSLASH) {
      if (!esc) {
        i++;
        continue;
      }
      const c = buf[i + 1];
      if (c === QUOTE) return i + 1 < end ? i : -1;
      if (c === SLASH) {
        i++;
        continue;
      }
      if (c !== BSLASH || i + 2 >= end) return -1;
      // The event's escape: the character it escapes comes next, one byte or a pair.
      i += 2;
      const d = buf[i];
      if (d === BSLASH) {
        const e = buf[i + 1];
        if (e !== QUOTE && e !== BSLASH && e !== SLASH) return -1;
        i++;
      } else if (d === QUOTE || d < 0x20) {
        return -1;
      }
    }
  }
  return -1;
}

/** The closing quote (token) of a string that must hold no escape and only ASCII; -1 otherwise. */
function plainEnd(buf: Buffer, i: number, end: number): number {
  for (; i < end; i++) {
    const b = buf[i];
    if (b === QUOTE) return esc ? -1 : i;
    if (b === BSLASH) return esc && buf[i + 1] === QUOTE && i + 1 < end ? i : -1;
    if (b >= 0x80) return -1;
  }
  return -1;
}

/** The position after the JSON value starting at `i` (any type), -1 when it does not end before `end`. */
function valueEnd(buf: Buffer, i: number, end: number): number {
  if (isQuote(buf, i)) {
    const q = stringEnd(buf, i + QL, end);
    return q < 0 ? -1 : q + QL;
  }
  const c = buf[i];
  if (c === LBRACE || c === LBRACK) {
    let depth = 0;
    for (; i < end; i++) {
      const b = buf[i];
      if (b === QUOTE || b === BSLASH) {
        // Outside a string only a quote token may start one.
        if (!isQuote(buf, i)) return -1;
        i = stringEnd(buf, i + QL, end);
        if (i < 0) return -1;
        i += QL - 1;
      } else if (b === LBRACE || b === LBRACK) {
        depth++;
      } else if (b === RBRACE || b === RBRACK) {
        if (--depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  for (; i < end; i++) {
    const b = buf[i];
    if (b === COMMA || b === RBRACE || b === RBRACK) return i;
    if (b === QUOTE || b === BSLASH || b === LBRACE || b === LBRACK || b <= 0x20) return -1;
  }
  return -1;
}

/**
 * objectRef's members from `i` (its `{`): the values read (resource, subresource, name,
 * apiGroup) plain strings, the others any string (a repeated key overwrites, as
 * JSON.parse does). The position after its `}`, or -1 for anything else, which leaves
 * the line to the string path.
 */
function readObjectRef(buf: Buffer, i: number, end: number): number {
  refSeen = true;
  refResource = refSub = refName = refGroup = -1;
  i++;
  if (buf[i] === RBRACE) return i + 1;
  for (;;) {
    if (!isQuote(buf, i)) return -1;
    const ks = i + QL;
    const kq = plainEnd(buf, ks, end);
    if (kq < 0 || buf[kq + QL] !== COLON) return -1;
    const klen = kq - ks;
    let k = RefKey.Other;
    if (klen === 8 && is(buf, ks, RESOURCE)) k = RefKey.Resource;
    else if (klen === 11 && is(buf, ks, SUBRESOURCE)) k = RefKey.Subresource;
    else if (
      klen === 4 &&
      buf[ks] === 0x6e &&
      buf[ks + 1] === 0x61 &&
      buf[ks + 2] === 0x6d &&
      buf[ks + 3] === 0x65
    )
      k = RefKey.Name;
    else if (klen === 8 && is(buf, ks, API_GROUP)) k = RefKey.ApiGroup;
    const v = kq + QL + 1;
    if (!isQuote(buf, v)) return -1;
    const vs = v + QL;
    // A value not read may hold escapes (`apps\/v1` in an escaped event).
    const vq = k === RefKey.Other ? stringEnd(buf, vs, end) : plainEnd(buf, vs, end);
    if (vq < 0 || vq - vs > MAX_TOKEN) return -1;
    if (k === RefKey.Resource) {
      refResource = vs;
      refResourceTo = vq;
    } else if (k === RefKey.Subresource) {
      refSub = vs;
      refSubTo = vq;
    } else if (k === RefKey.Name) {
      refName = vs;
      refNameTo = vq;
    } else if (k === RefKey.ApiGroup) {
      refGroup = vs;
      refGroupTo = vq;
    }
    i = vq + QL;
    if (buf[i] === RBRACE) return i + 1;
    if (buf[i] !== COMMA) return -1;
    i++;
  }
}

/** user's `username` (other members skipped whatever their type); -1 for an unusual layout. */
function readUser(buf: Buffer, i: number, end: number): number {
  userSeen = true;
  userFrom = -1;
  i++;
  if (buf[i] === RBRACE) return i + 1;
  for (;;) {
    if (!isQuote(buf, i)) return -1;
    const ks = i + QL;
    const kq = plainEnd(buf, ks, end);
    if (kq < 0 || buf[kq + QL] !== COLON) return -1;
    const v = kq + QL + 1;
    if (kq - ks === 8 && is(buf, ks, USERNAME)) {
      if (!isQuote(buf, v)) return -1;
      const vq = plainEnd(buf, v + QL, end);
      if (vq < 0 || vq - v - QL > MAX_TOKEN) return -1;
      userFrom = v + QL;
      userTo = vq;
      i = vq + QL;
    } else {
      i = valueEnd(buf, v, end);
      if (i < 0) return -1;
    }
    if (buf[i] === RBRACE) return i + 1;
    if (buf[i] !== COMMA) return -1;
    i++;
  }
}

/**
 * The next occurrence of a needle at or after a position of a buffer, remembered: the
 * lines of one buffer (a decompressed chunk) ask in increasing order, so each needle costs
 * one native search per occurrence, not one per line (each of which would cross into C++
 * and, for a line without the needle, scan on into the lines after it).
 */
class NextOf {
  private buf: Buffer | null = null;
  private from = 0;
  private at = -1;

  constructor(private readonly needle: Buffer) {}

  find(buf: Buffer, from: number): number {
    if (buf !== this.buf || from < this.from || (this.at >= 0 && this.at < from)) {
      this.buf = buf;
      this.from = from;
      this.at = buf.indexOf(this.needle, from);
    }
    return this.at;
  }
}

/** One way of writing an event: its templates spelled with its quote token. */
interface Dialect {
  escaped: boolean;
  /** `,"objectRef":{`, searched from its rare `j` (at `refJ`) then checked whole. */
  objectRefKey: Buffer;
  refJ: number;
  objectRef: NextOf;
  /** kube-apiserver's first keys up to level's value; `alt` with the slash escaped. */
  open: Buffer;
  openAlt: Buffer | null;
  auditID: Buffer;
  stage: Buffer;
  uri: Buffer;
  verb: Buffer;
  user: Buffer;
}

function dialect(escaped: boolean): Dialect {
  const spell = (s: string) => Buffer.from(escaped ? s.replace(/"/g, '\\"') : s);
  const objectRefKey = spell(',"objectRef":{');
  const refJ = objectRefKey.indexOf('j');
  const open = '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"';
  return {
    escaped,
    objectRefKey,
    refJ,
    objectRef: new NextOf(objectRefKey.subarray(refJ)),
    open: spell(open),
    openAlt: escaped ? spell(open.replace('/', '\\/')) : null,
    auditID: spell('","auditID":"'),
    stage: spell('","stage":"'),
    uri: spell('","requestURI":"'),
    verb: spell('","verb":"'),
    user: spell('","user":{"username":"'),
  };
}

const PLAIN = dialect(false);
const ESCAPED = dialect(true);
let d = PLAIN;

/**
 * Whether [from, to), which the scan did not read (it searched past it), reads the same
 * however it is unescaped: escaped, a `\u00XX` of the string could spell a quote,
 * backslash, bracket or letter of the event, and so its structure or a key (a `\u` of a
 * character beyond ASCII cannot). Searched for as `u00`, as objectRef is, from its second
 * byte: a search for a needle that starts with a backslash stops at every quote of an
 * escaped event (measured on 100 MB of Firehose: 54 ms, against 17 ms).
 */
const unicodeEscape = new NextOf(Buffer.from('u00'));
function unreadSpanIsPlain(buf: Buffer, from: number, to: number): boolean {
  if (!esc) return true;
  const u = unicodeEscape.find(buf, from);
  return u < 0 || u >= to;
}

/** The position of objectRef's key after [from, limit) that the scan skips, or -1. */
function objectRefAfter(buf: Buffer, from: number, limit: number): number {
  const at = d.objectRef.find(buf, from + d.refJ) - d.refJ;
  return at > from && at < limit && is(buf, at, d.objectRefKey) && unreadSpanIsPlain(buf, from, at) ? at : -1;
}

/** kubeHead's answer for a read, whose verb is all the rules need. */
const HEAD_OF_READ = -2;

/** get, list or watch in [from, to). */
function isReadVerb(buf: Buffer, from: number, to: number): boolean {
  switch (to - from) {
    case 3:
      return buf[from] === 0x67 && buf[from + 1] === 0x65 && buf[from + 2] === 0x74;
    case 4:
      return buf[from] === 0x6c && buf[from + 1] === 0x69 && buf[from + 2] === 0x73 && buf[from + 3] === 0x74;
    case 5:
      return is(buf, from, WATCH);
    default:
      return false;
  }
}
const WATCH = Buffer.from('watch');

/**
 * kube-apiserver's head read as the template it is, key after key without looking keys
 * up (the general walk below costs twice as much): the position of objectRef's key, with
 * verb, username, auditID and stage noted, HEAD_OF_READ for a read (verb, auditID and
 * stage noted), or -1 for any other layout.
 */
function kubeHead(buf: Buffer, start: number, limit: number): number {
  let v: number;
  if (is(buf, start, d.open)) v = start + d.open.length;
  else if (d.openAlt !== null && is(buf, start, d.openAlt)) v = start + d.openAlt.length;
  else return -1;
  let q = plainEnd(buf, v, limit);
  if (q < 0 || !is(buf, q, d.auditID)) return -1;
  v = q + d.auditID.length;
  q = plainEnd(buf, v, limit);
  if (q <= v || !is(buf, q, d.stage)) return -1;
  v = q + d.stage.length;
  q = plainEnd(buf, v, limit);
  if (q <= v || !is(buf, q, d.uri)) return -1;
  stageFrom = v;
  stageTo = q;
  q = stringEnd(buf, q + d.uri.length, limit);
  if (q < 0 || !is(buf, q, d.verb)) return -1;
  v = q + d.verb.length;
  q = plainEnd(buf, v, limit);
  if (q <= v || q - v > MAX_TOKEN || !is(buf, q, d.user)) return -1;
  verbFrom = v;
  verbTo = q;
  if (isReadVerb(buf, v, q)) {
    // Irrelevant whatever it names: its objectRef is not looked for.
    hasAuditID = hasStage = true;
    return HEAD_OF_READ;
  }
  v = q + d.user.length;
  q = plainEnd(buf, v, limit);
  if (q < 0 || q - v > MAX_TOKEN) return -1;
  const at = objectRefAfter(buf, q, limit);
  if (at < 0) return -1;
  hasAuditID = hasStage = true;
  userSeen = true;
  userFrom = v;
  userTo = q;
  return at + 1;
}

/**
 * Walks the top-level members of the object at `start` up to and including objectRef
 * (or to its end). False when the layout is not one this can read exactly.
 */
function scanHead(buf: Buffer, start: number, end: number): boolean {
  verbFrom = -1;
  userSeen = false;
  userFrom = -1;
  hasAuditID = false;
  hasStage = false;
  refSeen = false;
  if (buf[start] !== LBRACE) return false;
  const limit = Math.min(end, start + HEAD_LIMIT);
  let i = kubeHead(buf, start, limit);
  if (i === HEAD_OF_READ) return true;
  if (i < 0) {
    verbFrom = -1;
    userSeen = false;
    userFrom = -1;
    hasAuditID = hasStage = false;
    i = start + 1;
  }
  for (;;) {
    if (!isQuote(buf, i)) return false;
    // A key spelled with an escape could be any key once parsed: not read here.
    const ks = i + QL;
    const kq = plainEnd(buf, ks, limit);
    if (kq < 0 || buf[kq + QL] !== COLON) return false;
    const key = keyOf(buf, ks, kq - ks);
    const v = kq + QL + 1;
    const vs = v + QL;
    switch (key) {
      case Key.Container:
        return false;
      case Key.Kind: {
        // An EventList is a container; only an Event (or no kind) is one event.
        if (!isQuote(buf, v)) return false;
        const vq = stringEnd(buf, vs, limit);
        if (vq !== vs + 5 || !is(buf, vs, EVENT)) return false;
        i = vq + QL;
        break;
      }
      case Key.AuditID:
      case Key.Stage: {
        // Required strings (toAuditEvent); a non-empty value, as str() wants.
        if (!isQuote(buf, v) || isQuote(buf, vs)) return false;
        const vq = stringEnd(buf, vs, limit);
        if (vq < 0) return false;
        if (key === Key.AuditID) hasAuditID = true;
        else {
          hasStage = true;
          stageFrom = vs;
          stageTo = vq;
        }
        i = vq + QL;
        break;
      }
      case Key.Verb: {
        if (!isQuote(buf, v)) return false;
        const vq = plainEnd(buf, vs, limit);
        if (vq < 0 || vq === vs || vq - vs > MAX_TOKEN) return false;
        verbFrom = vs;
        verbTo = vq;
        i = vq + QL;
        break;
      }
      case Key.User: {
        if (buf[v] !== LBRACE) return false;
        // kube-apiserver's layout: username first, then groups, extra, sourceIPs and the
        // user agent, hundreds of bytes nothing here reads. The objectRef after them is
        // found by one search of the buffer shared by all its lines (as the string
        // pre-filter finds it: the first `"objectRef":{` is the event's own).
        const un = v + 1;
        if (
          isQuote(buf, un) &&
          is(buf, un + QL, USERNAME) &&
          isQuote(buf, un + QL + 8) &&
          buf[un + 2 * QL + 8] === COLON
        ) {
          const q = un + 2 * QL + 9;
          const vq = isQuote(buf, q) ? plainEnd(buf, q + QL, limit) : -1;
          // Searched from its `j` (rare in JSON) then checked whole: a search for a needle
          // that starts with a comma stops at every comma (measured: 40 % slower).
          const at = vq >= 0 && vq - q - QL <= MAX_TOKEN ? objectRefAfter(buf, vq, limit) : -1;
          if (at >= 0) {
            userSeen = true;
            userFrom = q + QL;
            userTo = vq;
            i = at + 1;
            continue;
          }
        }
        i = readUser(buf, v, limit);
        if (i < 0) return false;
        break;
      }
      case Key.ObjectRef:
        if (buf[v] !== LBRACE) return false;
        i = readObjectRef(buf, v, limit);
        if (i < 0) return false;
        break;
      default:
        i = valueEnd(buf, v, limit);
        if (i < 0) return false;
    }
    const c = buf[i];
    if (key === Key.ObjectRef && (c === COMMA || c === RBRACE)) return true;
    // The whole object was read: it must end the line.
    if (c === RBRACE) return i === end - 1;
    if (c !== COMMA) return false;
    i++;
  }
}

const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'watch']);
/** The operators' pod markers (koperator: `afka`, `brokerId`), as bytes. */
const MARKERS: readonly Buffer[] = MARKER_TEXTS.map((t) => Buffer.from(t));
/** What an escape that spells an ASCII letter (`\u0061`) holds; see unicodeEscape. */
const ASCII_ESCAPE = Buffer.from('u00');

/**
 * The relevance of one lone audit event from its bytes [start, end) (a framed JSON line):
 * isRelevantAuditEvent's answer where the bytes show it exactly, Unsure elsewhere.
 */
export function judgeAuditBytes(buf: Buffer, start: number, end: number): ByteVerdict {
  esc = false;
  QL = 1;
  d = PLAIN;
  return judge(buf, start, end);
}

/**
 * judgeAuditBytes for an event escaped in a JSON string, [start, end) the string's
 * content without its quotes (a CloudWatch message as scanCwlPayload finds it). A message
 * that does not end its event (CloudWatch cuts long ones, `...[Truncated...]`) is left to
 * the string path, which names why it cannot be parsed.
 */
export function judgeEscapedAuditBytes(buf: Buffer, start: number, end: number): ByteVerdict {
  if (buf[end - 1] !== RBRACE) return ByteVerdict.Unsure;
  esc = true;
  QL = 2;
  d = ESCAPED;
  return judge(buf, start, end);
}

function judge(buf: Buffer, start: number, end: number): ByteVerdict {
  if (!scanHead(buf, start, end)) return ByteVerdict.Unsure;
  // Not an audit event by toAuditEvent's first checks (or not read yet): the parser says why.
  if (!hasAuditID || !hasStage || verbFrom < 0) return ByteVerdict.Unsure;
  const verb = token(buf, verbFrom, verbTo);
  if (READ_VERBS.has(verb)) return ByteVerdict.Irrelevant;
  if (!refSeen || refResource < 0) return ByteVerdict.Irrelevant;
  const resource = token(buf, refResource, refResourceTo);
  const sub = refSub >= 0 && refSubTo > refSub ? token(buf, refSub, refSubTo) : null;
  if (resource === 'pods') return podVerdict(buf, verb, sub, start, end);
  if (CR_RESOURCES.has(resource))
    return isKeptCrWrite(resource, sub) ? ByteVerdict.Parse : ByteVerdict.Irrelevant;
  if (UNIT_CONFIG_RESOURCES.has(resource))
    return refName >= 0 && isUnitConfigWrite(resource, token(buf, refName, refNameTo))
      ? ByteVerdict.Parse
      : ByteVerdict.Irrelevant;
  const group = refGroup >= 0 ? token(buf, refGroup, refGroupTo) : null;
  if (!isFightObjectWrite(verb, resource, sub, group)) return ByteVerdict.Irrelevant;
  // The text pre-filter drops a fight write's first stage when its line names none of
  // the operators' words (filter.ts): that line is left to it, to be judged exactly so.
  return stageTo - stageFrom === REQUEST_RECEIVED.length && is(buf, stageFrom, REQUEST_RECEIVED)
    ? ByteVerdict.Unsure
    : ByteVerdict.Parse;
}

const POD_RESOURCE = Buffer.from('"resource":"pods"');
const ESCAPED_POD_RESOURCE = Buffer.from('\\"resource\\":\\"pods\\"');

/**
 * Whether the event judgeAuditBytes or judgeEscapedAuditBytes last judged, [start, end),
 * names `pods` in its objectRef (whatever its verb): from the scan where it read objectRef,
 * else (a read is decided on its verb alone) by a search of the line. It tells a log stream
 * that carries pod events at all from one that never names a pod.
 */
export function judgedResourceIsPods(buf: Buffer, start: number, end: number): boolean {
  if (refSeen) return refResource >= 0 && token(buf, refResource, refResourceTo) === 'pods';
  return buf.subarray(start, end).includes(esc ? ESCAPED_POD_RESOURCE : POD_RESOURCE);
}

/** isForeignPodWrite (filter.ts) on the bytes: Irrelevant only for a foreign pod's write. */
function podVerdict(buf: Buffer, verb: string, sub: string | null, start: number, end: number): ByteVerdict {
  if (refName < 0 || verb === 'create') return ByteVerdict.Parse;
  if (verb === 'delete' && sub === null) {
    // The user is read before objectRef; a layout with it later is left to the string path.
    if (!userSeen) return ByteVerdict.Unsure;
    if (!isBuiltinPodController(userFrom < 0 ? 'undefined' : token(buf, userFrom, userTo)))
      return ByteVerdict.Parse;
  }
  if (isOperatorPodName(token(buf, refName, refNameTo))) return ByteVerdict.Parse;
  // mayBeOperatorPod of both bodies, as the string pre-filter proves it: every label,
  // owner and API group it looks for spells a profile's marker text (koperator's:
  // `kafka`/`Kafka` or `brokerId`), and only an
  // escape of an ASCII letter (`\u00XX`, plain or escaped) could spell them otherwise.
  // Searched within the line's own view: a search of the whole buffer would run on to the
  // next kafka line, which may be the end of the chunk.
  const line = buf.subarray(start, end);
  for (const m of MARKERS) if (line.includes(m)) return ByteVerdict.Parse;
  return line.includes(ASCII_ESCAPE) ? ByteVerdict.Parse : ByteVerdict.Irrelevant;
}
