// Container runtimes split log lines longer than 16 KiB into partial records (CRI `P`,
// Fluent Bit `_p: "P"`), ending with a final one (`F`). This rejoins them per stream,
// never beyond `maxBytes` (then the whole line is dropped and reported once).

interface Pending {
  parts: Buffer[];
  bytes: number;
  line: number;
  tooLong: boolean;
}

export type Joined = { kind: 'line'; bytes: Buffer; line: number } | { kind: 'too-long'; line: number };

export class PartialLines {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly maxBytes: number) {}

  get active(): boolean {
    return this.pending.size > 0;
  }

  has(key: string): boolean {
    return this.pending.has(key);
  }

  /** Keeps a `P` part (copied: the caller's buffer is reused). */
  add(key: string, part: Buffer, line: number): void {
    let p = this.pending.get(key);
    if (!p) {
      p = { parts: [], bytes: 0, line, tooLong: false };
      this.pending.set(key, p);
    }
    if (p.tooLong) return;
    p.bytes += part.length;
    if (p.bytes > this.maxBytes) {
      p.tooLong = true;
      p.parts = [];
      return;
    }
    p.parts.push(Buffer.from(part));
  }

  /** The `F` part closes the line; returns it whole, or null when nothing was pending. */
  finish(key: string, last: Buffer): Joined | null {
    const p = this.pending.get(key);
    if (!p) return null;
    this.pending.delete(key);
    if (p.tooLong || p.bytes + last.length > this.maxBytes) return { kind: 'too-long', line: p.line };
    return { kind: 'line', bytes: Buffer.concat([...p.parts, last]), line: p.line };
  }

  /** Lines still open at end of file: whatever was received, for a last attempt. */
  drain(): Joined[] {
    const out: Joined[] = [];
    for (const p of this.pending.values()) {
      out.push(
        p.tooLong
          ? { kind: 'too-long', line: p.line }
          : { kind: 'line', bytes: Buffer.concat(p.parts), line: p.line },
      );
    }
    this.pending.clear();
    return out;
  }
}
