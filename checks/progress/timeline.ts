import type { ProgressFinding, ProgressThresholds } from "../../schemas/trace.js";

/**
 * Steps beyond this many are not kept for the end-of-trace analyses (milestones that need the
 * end to be known, revert cycles): about 60 bytes each, so 60 MB at the limit. A longer trace
 * gets those findings for its first TIMELINE_LIMIT steps and says so in the finding.
 */
export const TIMELINE_LIMIT = 1_000_000;
const PREVIEW_CHARS = 80;
/** An idle tail shorter than this is no finding, whatever its share (runs too short to judge). */
export const IDLE_TAIL_MIN_STEPS = 10;

/**
 * A copy that owns its characters: a slice of a parsed record keeps the whole record alive in
 * V8 (a sliced string points into its parent), and a timeline keeps one per step.
 */
const own = (text: string): string =>
  text.length === 0 ? "" : `${text}\u0000`.slice(0, -1).split("").join("");

/** One answered step as the end-of-trace analyses need it. */
export interface TimelineStep {
  index: number;
  at: string;
  name: string;
  preview: string;
  passed: boolean;
  newFailure: boolean;
  newInformation: boolean;
  /** The restore event this step belongs to, -1 for none. */
  event: number;
  write: boolean;
}

/** A restore: one or more steps that put the agent's work back, with no work in between. */
export interface RestoreEvent {
  id: number;
  first: number;
  last: number;
  /** The work it undid was put back later (revert, run, re-apply: a baseline check). */
  cancelled: boolean;
}

/** Compact per-step facts: parallel arrays, so a long trace costs little per step. */
export class Timeline {
  private readonly index: number[] = [];
  private readonly at: string[] = [];
  /** Program names, interned: a few distinct ones repeat over the whole trace. */
  private readonly names = new Map<string, number>();
  private readonly nameList: string[] = [];
  private readonly name: number[] = [];
  private readonly preview: string[] = [];
  private readonly flags: number[] = [];
  private readonly event: number[] = [];
  readonly events: RestoreEvent[] = [];
  truncated = false;

  get length(): number {
    return this.index.length;
  }

  add(step: TimelineStep): void {
    if (this.index.length >= TIMELINE_LIMIT) {
      this.truncated = true;
      return;
    }
    this.index.push(step.index);
    this.at.push(step.at);
    const name = step.name.slice(0, 40);
    let id = this.names.get(name);
    if (id === undefined) {
      id = this.nameList.length;
      const owned = own(name);
      this.nameList.push(owned);
      this.names.set(owned, id);
    }
    this.name.push(id);
    this.preview.push(own(step.preview.slice(0, PREVIEW_CHARS)));
    this.flags.push(
      (step.passed ? 1 : 0) |
        (step.newFailure ? 2 : 0) |
        (step.newInformation ? 4 : 0) |
        (step.write ? 8 : 0),
    );
    this.event.push(step.event);
  }

  /** Opens or extends a restore event at this step; returns its id. */
  restore(step: number, extend: boolean): number {
    const last = this.events.at(-1);
    if (extend && last) {
      last.last = step;
      return last.id;
    }
    const id = this.events.length;
    this.events.push({ id, first: step, last: step, cancelled: false });
    return id;
  }

  cancel(ids: number[]): void {
    for (const id of ids) {
      const event = this.events[id];
      if (event) event.cancelled = true;
    }
  }

  /**
   * Milestones, known only at the end: a command that newly passed, a new failure mode, an
   * edit that survived to the end (`survivors`, step indexes).
   */
  milestones(survivors: ReadonlySet<number>): boolean[] {
    return this.index.map((index, i) => ((this.flags[i] ?? 0) & 3) !== 0 || survivors.has(index));
  }

  /** Longest stretch without a milestone, and the stretch still open at the end. */
  stretches(milestones: boolean[]): { longest: number; open: number } {
    let run = 0;
    let longest = 0;
    for (const milestone of milestones) {
      run = milestone ? 0 : run + 1;
      longest = Math.max(longest, run);
    }
    return { longest, open: run };
  }

  /** What repeated in steps [from, to): the programs used most, and the first call's preview. */
  private excerpt(from: number, to: number): string {
    const counts = new Map<string, number>();
    for (let i = from; i < to; i++) {
      const name = this.nameList[this.name[i] ?? -1] ?? "?";
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const top = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, n]) => `${name} ×${n}`)
      .join(", ");
    return `${top}; first: ${this.preview[from] ?? ""}`;
  }

  /**
   * Stretches of at least `steps_without_milestone` calls after the last milestone (or the
   * start) that reached none (seed 001: a run that reaches a milestone and then idles).
   */
  noMilestone(milestones: boolean[], t: ProgressThresholds): ProgressFinding[] {
    const found: ProgressFinding[] = [];
    let start = 0;
    const total = milestones.length;
    const close = (end: number) => {
      const length = end - start;
      // Seed 001: the part of the run after its last milestone (from the start when it reached
      // none) that reaches no other, when it is most of the run.
      const idleTail =
        end === total &&
        t.idle_tail_share > 0 &&
        length >= IDLE_TAIL_MIN_STEPS &&
        length / Math.max(1, total) >= t.idle_tail_share;
      if (length < t.steps_without_milestone && !idleTail) return;
      let stale = 0;
      for (let i = start; i < end; i++) if (((this.flags[i] ?? 0) & 4) === 0) stale++;
      if (stale / length < t.no_milestone_stale_share) return;
      const undone = this.events.filter(
        (e) => !e.cancelled && e.first >= (this.index[start] ?? 0),
      ).length;
      found.push({
        kind: "no-milestone",
        from_step: this.index[start] ?? 0,
        to_step: this.index[end - 1] ?? 0,
        at: this.at[start] ?? "",
        why: `${length} tool calls without a milestone (no command newly passing, no new failure, no edit that survived to the end)${start > 0 ? " after the last one" : ""}${idleTail ? (start === 0 ? ": the whole run" : `: the last ${Math.round((100 * length) / Math.max(1, total))}% of the run`) : ""}; ${stale} brought nothing new${undone > 0 ? `, ${undone} restores of earlier work` : ""}${this.truncated ? ` (only the first ${TIMELINE_LIMIT} calls were kept)` : ""}`,
        excerpt: this.excerpt(start, end).slice(0, 400),
      });
    };
    milestones.forEach((milestone, i) => {
      if (!milestone) return;
      close(i);
      start = i + 1;
    });
    close(milestones.length);
    return found;
  }

  /**
   * Restore events (not baseline checks) since the last command that newly passed; from the
   * threshold on, one finding that grows with each further restore.
   */
  revertCycles(t: ProgressThresholds): ProgressFinding[] {
    const found: ProgressFinding[] = [];
    const byStep = new Map(this.index.map((index, i) => [index, i]));
    let count = 0;
    let from: number | null = null;
    let eventIndex = 0;
    const live = this.events.filter((e) => !e.cancelled);
    let current: ProgressFinding | null = null;
    for (let i = 0; i < this.index.length; i++) {
      const flags = this.flags[i] ?? 0;
      if (flags & 1) {
        count = 0;
        from = null;
        current = null;
      }
      if (flags & 8) from ??= i;
      const event = live[eventIndex];
      if (!event || event.last !== this.index[i]) continue;
      eventIndex++;
      count++;
      if (count < t.reverts) continue;
      const start = from ?? byStep.get(event.first) ?? i;
      if (current) {
        current.to_step = this.index[i] ?? 0;
        current.why = `the agent restored earlier work ${count} times (git checkout/restore/stash, a copy back, an undo) and no command newly passed`;
        continue;
      }
      current = {
        kind: "revert-cycle",
        from_step: this.index[start] ?? 0,
        to_step: this.index[i] ?? 0,
        at: this.at[start] ?? "",
        why: `the agent restored earlier work ${count} times (git checkout/restore/stash, a copy back, an undo) and no command newly passed`,
        excerpt: this.restoreExcerpt(live, eventIndex - count, eventIndex, byStep).slice(0, 400),
      };
      found.push(current);
    }
    return found;
  }

  private restoreExcerpt(
    live: RestoreEvent[],
    from: number,
    to: number,
    byStep: Map<number, number>,
  ): string {
    return live
      .slice(Math.max(0, from), to)
      .map((e) => `step ${e.first}: ${this.preview[byStep.get(e.first) ?? -1] ?? ""}`)
      .slice(0, 3)
      .join(" | ");
  }
}
