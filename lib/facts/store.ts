// The facts of a whole analysis, held column by column instead of one object per fact.
//
// A day of a looping fleet is millions of audit facts, and as objects each costs ~330 bytes
// before its bodies (a 20-property object and three strings: two times and an auditID). Held
// here, the same fact is ~65 bytes: times as epoch microseconds, UUIDs as 128 bits, repeated
// strings (verbs, users, namespaces, pod names) as table indices, bodies as BodyTable values
// (their per-pod outer levels laid out flat, the interned parts below kept as they are).
// `fact(i)` gives back an object equal to the one added; the analysis asks for one broker's
// facts at a time, so only that many objects are ever alive.
//
// Columns come in fixed chunks, so growing never copies (nor holds twice) what is stored.
// Anything that does not fit a column exactly (a time in another shape, an ID that is not a
// lowercase UUID, an unexpected property, the 255th distinct verb) is kept as it came in a
// side table: the store is an encoding, never a normalisation.
import type { Fact, OperatorFact } from '../model/facts';
import type { SourceRef } from '../model/record';
import { epochMicros } from '../analyze/time';
import { mayBeOperatorPod } from '../operators/registry';
import { BodyTable, NO_BODY } from './body-table';

const KINDS = ['pod', 'kafkacluster', 'configmap', 'operator'] as const;
const KIND_CODE: Record<string, number> = { pod: 0, kafkacluster: 1, configmap: 2, operator: 3 };
/** Kind code of a fact of a type this store does not know: kept whole. */
const OTHER = 255;
const PATCH_TYPES = [undefined, 'json', 'merge', 'strategic-merge', 'apply'] as const;

/** The properties an audit fact's columns hold; any other goes to the side table. */
const AUDIT_KEYS = new Set([
  'type',
  'at',
  'doneAt',
  'src',
  'auditID',
  'stage',
  'level',
  'verb',
  'user',
  'namespace',
  'name',
  'uid',
  'subresource',
  'code',
  'request',
  'response',
  'patchType',
  'webhooks',
  'truncated',
  'gracePeriodSeconds',
]);

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;
/** A time's digits nibble when the time is in the side table. */
const ODD_TIME = 15;
/** Fraction digits of `at` (low nibble) and `doneAt` (high nibble). */
const FLAG_SIDE = 1;
const FLAG_TRUNCATED = 2;
const FLAG_GRACE = 4;

/** Strings held once, addressed by index; `limit` bounds the index to its column's width. */
class StringTable {
  /** From string to index, for adding; dropped by seal() and rebuilt if adding resumes. */
  private index: Map<string, number> | null = new Map();
  private readonly values: string[] = [];

  constructor(private readonly limit: number) {}

  /** The string's index, or -1 when the table is full (the caller keeps it aside). */
  idOf(s: string): number {
    const index = (this.index ??= new Map(this.values.map((v, i) => [v, i])));
    let id = index.get(s);
    if (id === undefined) {
      if (this.values.length >= this.limit) return -1;
      id = this.values.length;
      this.values.push(s);
      index.set(s, id);
    }
    return id;
  }

  seal(): void {
    this.index = null;
  }

  at(id: number): string {
    return this.values[id];
  }
}

/** Properties of one fact that no column holds. */
interface SideEntry {
  /** The whole fact, for operator lines (few, and shaped by what the operator logged). */
  fact?: Fact;
  at?: string;
  doneAt?: string;
  auditID?: string;
  /** String-valued properties (stage, verb, user...) whose table was full, or not a string. */
  strings?: Record<string, unknown>;
  truncated?: unknown;
  gracePeriodSeconds?: number;
  src?: SourceRef;
  code?: unknown;
  /** Properties outside the fact model, kept so that nothing added is lost. */
  extra?: Record<string, unknown>;
}

/** 64 Ki facts' columns. */
class Chunk {
  readonly kind = new Uint8Array(CHUNK);
  readonly flags = new Uint8Array(CHUNK);
  /** Epoch microseconds of `at`. */
  readonly at = new Float64Array(CHUNK);
  /** `doneAt` − `at` in microseconds (the request's latency). */
  readonly done = new Int32Array(CHUNK);
  readonly digits = new Uint8Array(CHUNK);
  /** Four 32-bit words of UUID per fact. */
  readonly ids = new Uint32Array(CHUNK * 4);
  readonly stage = new Uint8Array(CHUNK);
  readonly level = new Uint8Array(CHUNK);
  readonly verb = new Uint8Array(CHUNK);
  readonly subresource = new Uint8Array(CHUNK);
  readonly patchType = new Uint8Array(CHUNK);
  readonly user = new Uint16Array(CHUNK);
  readonly namespace = new Uint16Array(CHUNK);
  readonly name = new Int32Array(CHUNK);
  readonly uid = new Int32Array(CHUNK);
  /** HTTP status; 0xffff for null. */
  readonly code = new Uint16Array(CHUNK);
  readonly grace = new Int32Array(CHUNK);
  readonly srcSource = new Int32Array(CHUNK);
  readonly srcLine = new Uint32Array(CHUNK);
  /** Bodies as BodyTable values (0: none). */
  readonly request = new Int32Array(CHUNK);
  readonly response = new Int32Array(CHUNK);
  readonly webhooks = new Int32Array(CHUNK);
}

/** Column codes for "null" in the narrow string columns. */
const NULL8 = 255;
const NULL16 = 0xffff;
const NULL32 = -1;

export class FactStore {
  private n = 0;
  private readonly chunks: Chunk[] = [];
  private readonly side = new Map<number, SideEntry>();
  /** Words of few values: stages, levels, verbs, subresources. */
  private readonly words = new StringTable(NULL8);
  /** Users and namespaces. */
  private readonly actors = new StringTable(NULL16);
  /** Pod names and uids: one or two per incarnation. */
  private readonly names = new StringTable(2 ** 31 - 1);
  private readonly sources = new StringTable(2 ** 31 - 1);
  private readonly bodies = new BodyTable();
  private readonly id = new Uint32Array(4);

  static of(facts: Iterable<Fact>): FactStore {
    const s = new FactStore();
    for (const f of facts) s.add(f);
    return s;
  }

  get size(): number {
    return this.n;
  }

  /**
   * Done adding (for now): drops the lookups that only adding needs. Pod names and uids
   * are two entries per incarnation, ~70 bytes each in a Map; adding again rebuilds them.
   */
  seal(): void {
    this.names.seal();
    this.sources.seal();
  }

  add(fact: Fact): void {
    const i = this.n++;
    if ((i & MASK) === 0) this.chunks.push(new Chunk());
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const side: SideEntry = {};
    let hasSide = false;
    const kind = KIND_CODE[fact.type] as number | undefined;
    c.kind[j] = kind ?? OTHER;
    const atUs = this.timeOf(fact.at);
    if (atUs === null) {
      side.at = fact.at;
      hasSide = true;
      c.digits[j] = ODD_TIME;
    } else {
      c.at[j] = atUs;
      c.digits[j] = fractionDigits(fact.at);
    }
    const src = fact.src;
    const sourceId = typeof src?.source === 'string' ? this.sources.idOf(src.source) : -1;
    if (sourceId >= 0 && isUint32(src.line) && Object.keys(src).length === 2) {
      c.srcSource[j] = sourceId;
      c.srcLine[j] = src.line;
    } else {
      side.src = src;
      hasSide = true;
    }
    if (kind === undefined || kind === KIND_CODE.operator) {
      side.fact = fact;
      this.side.set(i, side);
      c.flags[j] = FLAG_SIDE;
      return;
    }
    // Typed as an audit fact: operator lines (and unknown kinds) returned above.
    const f = fact as Exclude<Fact, OperatorFact>;
    const doneUs = atUs === null ? null : this.timeOf(f.doneAt);
    const delta = doneUs === null ? NaN : doneUs - atUs!;
    if (doneUs !== null && delta >= -(2 ** 31) && delta < 2 ** 31) {
      c.done[j] = delta;
      c.digits[j] |= fractionDigits(f.doneAt) << 4;
    } else {
      side.doneAt = f.doneAt;
      hasSide = true;
      c.digits[j] |= ODD_TIME << 4;
    }
    if (this.readUuid(f.auditID)) c.ids.set(this.id, j * 4);
    else {
      side.auditID = f.auditID;
      hasSide = true;
    }
    const strings = (
      key: string,
      v: unknown,
      table: StringTable,
      col: Uint8Array | Uint16Array,
      nil: number,
    ) => {
      const id = v === null ? nil : typeof v === 'string' ? table.idOf(v) : -1;
      if (id >= 0) {
        col[j] = id;
        return;
      }
      col[j] = nil;
      (side.strings ??= {})[key] = v;
      hasSide = true;
    };
    strings('stage', f.stage, this.words, c.stage, NULL8);
    strings('level', f.level, this.words, c.level, NULL8);
    strings('verb', f.verb, this.words, c.verb, NULL8);
    strings('subresource', f.subresource, this.words, c.subresource, NULL8);
    strings('user', f.user, this.actors, c.user, NULL16);
    strings('namespace', f.namespace, this.actors, c.namespace, NULL16);
    c.name[j] = f.name === null ? NULL32 : this.nameId(f.name, side);
    c.uid[j] = f.uid === null ? NULL32 : this.nameId(f.uid, side, 'uid');
    if (side.strings) hasSide = true;
    if (f.code === null) c.code[j] = NULL16;
    else if (Number.isInteger(f.code) && f.code >= 0 && f.code < NULL16) c.code[j] = f.code;
    else {
      c.code[j] = NULL16;
      side.code = f.code;
      hasSide = true;
    }
    let flags = 0;
    if (f.type === 'pod') {
      // Bodies of pods that cannot be koperator's are neither interned by the projection nor
      // read past their labels: laying them out would cost time and save nothing.
      c.request[j] = this.bodies.encode(f.request, mayBeOperatorPod(f.request));
      c.response[j] = this.bodies.encode(f.response, mayBeOperatorPod(f.response));
      c.webhooks[j] = this.bodies.encode(f.webhooks);
      const pt = PATCH_TYPES.indexOf(f.patchType);
      c.patchType[j] = pt < 0 ? 0 : pt;
      if (pt < 0) {
        (side.extra ??= {}).patchType = f.patchType;
        hasSide = true;
      }
      if (f.truncated === true) flags |= FLAG_TRUNCATED;
      else if (f.truncated !== undefined) {
        side.truncated = f.truncated;
        hasSide = true;
      }
      const g = f.gracePeriodSeconds;
      if (g !== undefined) {
        if (Number.isInteger(g) && g >= -(2 ** 31) && g < 2 ** 31) {
          c.grace[j] = g;
          flags |= FLAG_GRACE;
        } else {
          side.gracePeriodSeconds = g;
          hasSide = true;
        }
      }
    }
    for (const k in f) {
      if (AUDIT_KEYS.has(k)) continue;
      (side.extra ??= {})[k] = (f as unknown as Record<string, unknown>)[k];
      hasSide = true;
    }
    if (hasSide) {
      flags |= FLAG_SIDE;
      this.side.set(i, side);
    }
    c.flags[j] = flags;
  }

  /** The fact added `i`-th, as an object equal to it (bodies are the very objects added). */
  fact(i: number): Fact {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const flags = c.flags[j];
    const side = flags & FLAG_SIDE ? this.side.get(i) : undefined;
    if (side?.fact) return side.fact;
    const s = side?.strings;
    const type = KINDS[c.kind[j]];
    const at = side?.at ?? formatTime(c.at[j], c.digits[j] & 15);
    const f: Record<string, unknown> = {
      type,
      at,
      doneAt: side?.doneAt ?? formatTime(c.at[j] + c.done[j], c.digits[j] >>> 4),
      src: side?.src ?? { source: this.sources.at(c.srcSource[j]), line: c.srcLine[j] },
      auditID: side?.auditID ?? formatUuid(c.ids, j * 4),
      stage: s && 'stage' in s ? s.stage : this.word(c.stage[j]),
      level: s && 'level' in s ? s.level : this.word(c.level[j]),
      verb: s && 'verb' in s ? s.verb : this.word(c.verb[j]),
      user: s && 'user' in s ? s.user : this.actor(c.user[j]),
      namespace: s && 'namespace' in s ? s.namespace : this.actor(c.namespace[j]),
      name: s && 'name' in s ? s.name : this.nameAt(c.name[j]),
      uid: s && 'uid' in s ? s.uid : this.nameAt(c.uid[j]),
      subresource: s && 'subresource' in s ? s.subresource : this.word(c.subresource[j]),
      code: side && 'code' in side ? side.code : c.code[j] === NULL16 ? null : c.code[j],
    };
    if (type === 'pod') {
      if (c.request[j] !== NO_BODY) f.request = this.bodies.decode(c.request[j]);
      if (c.response[j] !== NO_BODY) f.response = this.bodies.decode(c.response[j]);
      if (c.patchType[j] !== 0) f.patchType = PATCH_TYPES[c.patchType[j]];
      if (c.webhooks[j] !== NO_BODY) f.webhooks = this.bodies.decode(c.webhooks[j]);
      if (flags & FLAG_TRUNCATED) f.truncated = true;
      else if (side && 'truncated' in side) f.truncated = side.truncated;
      if (flags & FLAG_GRACE) f.gracePeriodSeconds = c.grace[j];
      else if (side?.gracePeriodSeconds !== undefined) f.gracePeriodSeconds = side.gracePeriodSeconds;
    }
    if (side?.extra) Object.assign(f, side.extra);
    return f as unknown as Fact;
  }

  /** Every fact, in the order added. */
  *facts(): IterableIterator<Fact> {
    for (let i = 0; i < this.n; i++) yield this.fact(i);
  }

  // Column reads for the analysis's passes over every fact, which must not build objects.

  type(i: number): Fact['type'] {
    const k = this.chunks[i >>> CHUNK_BITS].kind[i & MASK];
    return k === OTHER ? this.side.get(i)!.fact!.type : KINDS[k];
  }

  /**
   * When the fact took effect, in epoch microseconds (NaN when unreadable): `doneAt` (or
   * `at` when empty) for audit facts, `at` for operator lines, as the analysis orders them.
   */
  effectiveMicros(i: number): number {
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    const k = c.kind[j];
    const side = c.flags[j] & FLAG_SIDE ? this.side.get(i) : undefined;
    if (k === OTHER || k === KIND_CODE.operator)
      return side?.at !== undefined ? epochMicros(side.at) : c.at[j];
    if (side?.doneAt !== undefined) return side.doneAt ? epochMicros(side.doneAt) : this.atMicrosOf(i);
    return c.at[j] + c.done[j];
  }

  /** Whether the time `effectiveMicros` reads is written as an empty string. */
  effectiveTimeIsEmpty(i: number): boolean {
    const side = this.sideOf(i);
    if (!side) return false;
    const k = this.chunks[i >>> CHUNK_BITS].kind[i & MASK];
    if (k === OTHER || k === KIND_CODE.operator) return side.at === '';
    return side.doneAt === '' && side.at === '';
  }

  /** `at` in epoch microseconds (NaN when unreadable). */
  atMicrosOf(i: number): number {
    const side = this.sideOf(i);
    return side?.at !== undefined ? epochMicros(side.at) : this.chunks[i >>> CHUNK_BITS].at[i & MASK];
  }

  stageOf(i: number): string | null {
    return this.stringOf(i, 'stage') as string | null;
  }

  verbOf(i: number): string | null {
    return this.stringOf(i, 'verb') as string | null;
  }

  /** The audit level (None, Metadata, Request, RequestResponse) of an audit fact. */
  levelOf(i: number): string | null {
    return this.stringOf(i, 'level') as string | null;
  }

  namespaceOf(i: number): string | null {
    return this.stringOf(i, 'namespace') as string | null;
  }

  nameOf(i: number): string | null {
    return this.stringOf(i, 'name') as string | null;
  }

  uidOf(i: number): string | null {
    return this.stringOf(i, 'uid') as string | null;
  }

  subresourceOf(i: number): string | null {
    return this.stringOf(i, 'subresource') as string | null;
  }

  userOf(i: number): string | null {
    return this.stringOf(i, 'user') as string | null;
  }

  codeOf(i: number): number | null {
    const side = this.sideOf(i);
    if (side && 'code' in side) return side.code as number | null;
    const v = this.chunks[i >>> CHUNK_BITS].code[i & MASK];
    return v === NULL16 ? null : v;
  }

  /** The request body, built afresh (as `fact(i)` builds it). */
  requestOf(i: number): unknown {
    return this.bodies.decode(this.chunks[i >>> CHUNK_BITS].request[i & MASK]);
  }

  /** The response body, built afresh (as `fact(i)` builds it). */
  responseOf(i: number): unknown {
    return this.bodies.decode(this.chunks[i >>> CHUNK_BITS].response[i & MASK]);
  }

  /**
   * For every audit fact, the index of the first fact with the same auditID (the stages of
   * one request share it); -1 for operator lines. An open-addressing table over the UUID
   * words, so grouping millions of facts makes no strings.
   */
  firstOfRequest(): Int32Array {
    const first = new Int32Array(this.n).fill(-1);
    let slots = 1024;
    while (slots < this.n * 2) slots *= 2;
    const table = new Int32Array(slots).fill(-1);
    const others = new Map<string, number>();
    for (let i = 0; i < this.n; i++) {
      const c = this.chunks[i >>> CHUNK_BITS];
      const k = c.kind[i & MASK];
      if (k === OTHER || k === KIND_CODE.operator) continue;
      const odd = this.sideOf(i)?.auditID;
      if (odd !== undefined) {
        const seen = others.get(odd);
        if (seen === undefined) others.set(odd, i);
        first[i] = seen ?? i;
        continue;
      }
      const ids = c.ids;
      const a = (i & MASK) * 4;
      let h = Math.imul(ids[a] ^ Math.imul(ids[a + 1], 0x9e3779b1) ^ ids[a + 2] ^ ids[a + 3], 0x85ebca6b);
      h = (h ^ (h >>> 15)) & (slots - 1);
      for (;;) {
        const other = table[h];
        if (other === -1) {
          table[h] = i;
          first[i] = i;
          break;
        }
        const o = this.chunks[other >>> CHUNK_BITS].ids;
        const b = (other & MASK) * 4;
        if (
          ids[a] === o[b] &&
          ids[a + 1] === o[b + 1] &&
          ids[a + 2] === o[b + 2] &&
          ids[a + 3] === o[b + 3]
        ) {
          first[i] = other;
          break;
        }
        h = (h + 1) & (slots - 1);
      }
    }
    return first;
  }

  private sideOf(i: number): SideEntry | undefined {
    return this.chunks[i >>> CHUNK_BITS].flags[i & MASK] & FLAG_SIDE ? this.side.get(i) : undefined;
  }

  private stringOf(
    i: number,
    key: 'stage' | 'level' | 'verb' | 'namespace' | 'name' | 'uid' | 'subresource' | 'user',
  ): unknown {
    const s = this.sideOf(i)?.strings;
    if (s && key in s) return s[key];
    const c = this.chunks[i >>> CHUNK_BITS];
    const j = i & MASK;
    switch (key) {
      case 'stage':
        return this.word(c.stage[j]);
      case 'level':
        return this.word(c.level[j]);
      case 'verb':
        return this.word(c.verb[j]);
      case 'subresource':
        return this.word(c.subresource[j]);
      case 'namespace':
        return this.actor(c.namespace[j]);
      case 'user':
        return this.actor(c.user[j]);
      case 'name':
        return this.nameAt(c.name[j]);
      case 'uid':
        return this.nameAt(c.uid[j]);
    }
  }

  private word(id: number): string | null {
    return id === NULL8 ? null : this.words.at(id);
  }

  private actor(id: number): string | null {
    return id === NULL16 ? null : this.actors.at(id);
  }

  private nameAt(id: number): string | null {
    return id === NULL32 ? null : this.names.at(id);
  }

  /** A pod name or uid's index; a value that is not a string is kept aside. */
  private nameId(v: unknown, side: SideEntry, key: 'name' | 'uid' = 'name'): number {
    if (typeof v === 'string') return this.names.idOf(v);
    (side.strings ??= {})[key] = v;
    return NULL32;
  }

  /** `t` as epoch microseconds when the columns can write it back exactly, else null. */
  private timeOf(t: unknown): number | null {
    if (typeof t !== 'string') return null;
    const us = epochMicros(t);
    if (Number.isNaN(us)) return null;
    const digits = fractionDigits(t);
    if (digits === ODD_TIME || formatTime(us, digits) !== t) return null;
    return us;
  }

  /** A lowercase UUID into `this.id`, digit by digit; false for any other ID. */
  private readUuid(id: string): boolean {
    if (typeof id !== 'string' || id.length !== 36) return false;
    let word = 0;
    let digits = 0;
    for (let k = 0; k < 36; k++) {
      const ch = id.charCodeAt(k);
      if (k === 8 || k === 13 || k === 18 || k === 23) {
        if (ch !== DASH) return false;
        continue;
      }
      const v = ch >= 48 && ch <= 57 ? ch - 48 : ch >= 97 && ch <= 102 ? ch - 87 : -1;
      if (v < 0) return false;
      word = (word << 4) | v;
      if (++digits % 8 === 0) this.id[digits / 8 - 1] = word >>> 0;
    }
    return true;
  }
}

function isUint32(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

/** Fraction digits of a `…SS[.f…]Z` time (0-6), or ODD_TIME for any other length. */
function fractionDigits(t: string): number {
  if (t.length === 20) return 0;
  const d = t.length - 21;
  return d >= 1 && d <= 6 ? d : ODD_TIME;
}

// IDs and times are written into a scratch buffer and read back as one string: built by
// concatenation they would be ropes (a node per piece), several times the size of the flat
// strings JSON.parse gives, and a million recreations keep four IDs and two times each.
const idText = Buffer.alloc(36);
/** Holds the cached day in its first 11 bytes between calls. */
const timeText = Buffer.alloc(32);
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 45;

function formatUuid(ids: Uint32Array, at: number): string {
  let o = 0;
  for (let w = 0; w < 4; w++) {
    const v = ids[at + w];
    for (let shift = 28; shift >= 0; shift -= 4) {
      if (o === 8 || o === 13 || o === 18 || o === 23) idText[o++] = DASH;
      idText[o++] = HEX_DIGITS[(v >>> shift) & 15];
    }
  }
  return idText.toString('latin1', 0, 36);
}

const DAY_SECONDS = 86_400;
// Facts are mostly of the same day: its `YYYY-MM-DDT` is made once.
let lastDay = NaN;

function put2(o: number, n: number): void {
  timeText[o] = 48 + Math.floor(n / 10);
  timeText[o + 1] = 48 + (n % 10);
}

/** Epoch microseconds as `YYYY-MM-DDTHH:MM:SS[.f…]Z` with `digits` fraction digits. */
function formatTime(us: number, digits: number): string {
  const second = Math.floor(us / 1e6);
  const day = Math.floor(second / DAY_SECONDS);
  if (day !== lastDay) {
    lastDay = day;
    timeText.write(new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 11), 0, 'latin1');
  }
  const s = second - day * DAY_SECONDS;
  put2(11, Math.floor(s / 3600));
  timeText[13] = 58;
  put2(14, Math.floor(s / 60) % 60);
  timeText[16] = 58;
  put2(17, s % 60);
  let o = 19;
  if (digits > 0) {
    timeText[o++] = 46;
    let frac = us - second * 1e6;
    for (let d = 5; d >= 0; d--) {
      if (d < digits) timeText[o + d] = 48 + (frac % 10);
      frac = Math.floor(frac / 10);
    }
    o += digits;
  }
  timeText[o++] = 90;
  return timeText.toString('latin1', 0, o);
}
