/**
 * A set that forgets its oldest entries past a limit, so a trace of any length is read in
 * bounded memory. Forgetting can only make an old repeat look new (a missed flag), never flag
 * new work.
 */
export class BoundedSet {
  private readonly entries = new Map<string, true>();
  constructor(private readonly limit: number) {}

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Adds the key; returns whether it was new. */
  add(key: string): boolean {
    if (this.entries.has(key)) return false;
    this.entries.set(key, true);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return true;
  }

  get size(): number {
    return this.entries.size;
  }
}
