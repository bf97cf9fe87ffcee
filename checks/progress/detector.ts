import {
  type Budgets,
  type FindingKind,
  PROGRESS_REPORT_VERSION,
  type ProgressFinding,
  type ProgressReport,
  type ProgressThresholds,
  progressThresholdsSchema,
  type TraceFormat,
  type TraceStep,
} from "../../schemas/trace.js";
import { BoundedSet } from "./bounded-set.js";
import type { TraceEvent } from "./events.js";
import { shortHash } from "./hash.js";
import { Timeline } from "./timeline.js";
import { isStalled } from "./verdict.js";
import { Workspace } from "./workspace.js";

/** The defaults of every threshold; docs/progress.md justifies them with the benchmark. */
export const DEFAULT_PROGRESS_THRESHOLDS: ProgressThresholds = progressThresholdsSchema.parse({});

/** How many hashes each seen-set keeps (about 100 bytes each): bounded memory on any trace. */
export const SEEN_LIMIT = 200_000;

/** At most this many findings and infrastructure failures are listed in a report. */
export const REPORT_LIST_LIMIT = 100;

/** Open findings by tracker; a tracker's finding grows while its condition holds. */
class Segments {
  private readonly open = new Map<string, ProgressFinding>();
  readonly closed: ProgressFinding[] = [];
  dropped = 0;

  hit(tracker: string, finding: ProgressFinding): void {
    const current = this.open.get(tracker);
    if (current && finding.from_step <= current.to_step + 1) {
      current.to_step = finding.to_step;
      current.why = finding.why;
      return;
    }
    if (current) this.close(current);
    this.open.set(tracker, { ...finding });
  }

  miss(tracker: string): void {
    const current = this.open.get(tracker);
    if (current) this.close(current);
    this.open.delete(tracker);
  }

  /** Keeps the first REPORT_LIST_LIMIT findings; later ones are counted in `dropped`. */
  close(finding: ProgressFinding): void {
    if (this.closed.length < REPORT_LIST_LIMIT) this.closed.push(finding);
    else this.dropped++;
  }

  all(): ProgressFinding[] {
    return [...this.closed, ...this.open.values()].sort((a, b) => a.from_step - b.from_step);
  }
}

interface Mark {
  index: number;
  at: string;
}

/**
 * The per-trace detector: push every event a parser returns, in order, then read `report()`.
 * It keeps counters and bounded sets only, never the steps, so memory does not grow with the
 * trace. Pure: no I/O, no clock.
 */
export class ProgressDetector {
  private readonly t: ProgressThresholds;
  private readonly segments = new Segments();
  private readonly workspace = new Workspace();
  private readonly seen = new BoundedSet(SEEN_LIMIT);
  private readonly modelCallIds = new BoundedSet(SEEN_LIMIT);
  private readonly lastExit = new Map<string, number>();
  private records = 0;
  private steps = 0;
  private exitStatus: string | null = null;
  private readonly counters = {
    new_information: 0,
    no_new_information: 0,
    milestones: 0,
    steps_since_last_milestone: 0,
    longest_without_milestone: 0,
    longest_without_new_information: 0,
    reverts: 0,
  };
  private readonly budgets: Budgets = {
    model_calls: 0,
    tool_calls: 0,
    executed_tool_calls: 0,
    max_tool_calls_per_turn: 0,
    max_tool_calls_per_model_call: 0,
    turns: 0,
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    peak_context_tokens: 0,
    cost_usd: null,
  };
  private readonly infrastructure: ProgressReport["infrastructure_failures"] = [];
  private infrastructureCount = 0;
  private totals: {
    key: string;
    changes: number;
    input: number;
    cached: number;
    output: number;
  } | null = null;
  private declared: Record<"cost" | "calls" | "input" | "output", number | null> = {
    cost: null,
    calls: null,
    input: null,
    output: null,
  };
  private readonly crossed = new Set<string>();

  // Run state of the trackers.
  private noInfoRun = 0;
  private noInfoStart: Mark | null = null;
  private lastPair: string | null = null;
  private streak = 0;
  private streakStart: Mark | null = null;
  private lastAction: string | null = null;
  private reworded = 0;
  private rewordedStart: Mark | null = null;
  private readonly window: (Mark & { pair: string })[] = [];
  private readonly timeline = new Timeline();
  private readonly failures = new Map<string, string>();
  /** A write or a run since the last restore: a restore after it undoes work. */
  private workSinceRestore = false;
  private lastWasRestore = false;
  private turnCalls = 0;
  private modelCall: { id: string | null; calls: number } = { id: null, calls: 0 };

  constructor(
    readonly format: TraceFormat,
    thresholds: Partial<ProgressThresholds> = {},
  ) {
    this.t = progressThresholdsSchema.parse({ ...DEFAULT_PROGRESS_THRESHOLDS, ...thresholds });
  }

  /** Counts one record read from the trace (whether or not it produced events). */
  record(): void {
    this.records++;
  }

  push(event: TraceEvent): void {
    switch (event.type) {
      case "step":
        this.step({ ...event.step, index: ++this.steps });
        break;
      case "model-call":
        if (event.id !== null && !this.modelCallIds.add(event.id)) break;
        this.budgets.model_calls++;
        if (event.usage) {
          this.budgets.input_tokens += event.usage.input_tokens;
          this.budgets.cached_input_tokens += event.usage.cached_input_tokens;
          this.budgets.output_tokens += event.usage.output_tokens;
          this.budgets.peak_context_tokens = Math.max(
            this.budgets.peak_context_tokens,
            event.usage.input_tokens,
          );
          if (event.usage.cost_usd !== null)
            this.budgets.cost_usd = (this.budgets.cost_usd ?? 0) + event.usage.cost_usd;
        }
        break;
      case "usage-total": {
        // Cumulative counters: the newest total replaces the last; a repeated total is one call.
        const key = shortHash(JSON.stringify(event.total));
        if (this.totals?.key === key) break;
        this.totals = {
          key,
          changes: (this.totals?.changes ?? 0) + 1,
          input: event.total.input_tokens,
          cached: event.total.cached_input_tokens,
          output: event.total.output_tokens,
        };
        if (event.last) {
          this.budgets.peak_context_tokens = Math.max(
            this.budgets.peak_context_tokens,
            event.last.input_tokens,
          );
        }
        break;
      }
      case "turn":
        this.budgets.turns++;
        this.turnCalls = 0;
        break;
      case "infrastructure":
        this.noteInfrastructure(event.kind, event.at, event.message);
        break;
      case "exit":
        this.exitStatus = event.status ?? this.exitStatus;
        this.declared = {
          cost: event.cost_usd,
          calls: event.model_calls,
          input: event.input_tokens ?? null,
          output: event.output_tokens ?? null,
        };
        break;
    }
    this.checkBudgets();
  }

  private step(step: TraceStep): void {
    const b = this.budgets;
    b.tool_calls++;
    if (step.result.hash !== null) b.executed_tool_calls++;
    this.turnCalls++;
    b.max_tool_calls_per_turn = Math.max(b.max_tool_calls_per_turn, this.turnCalls);
    if (step.model_call === null || step.model_call !== this.modelCall.id) {
      this.modelCall = { id: step.model_call, calls: 0 };
    }
    this.modelCall.calls++;
    b.max_tool_calls_per_model_call = Math.max(
      b.max_tool_calls_per_model_call,
      this.modelCall.calls,
    );

    // Never answered, or failed for infrastructure reasons: neither progress nor a stall.
    if (step.result.hash === null) return;
    if (step.infrastructure) {
      this.noteInfrastructure(step.infrastructure, step.at, `${step.name}: ${step.preview}`);
      return;
    }
    const mark = { index: step.index, at: step.at };
    const newInformation = this.workTree(step);

    // A command that newly passes: the same call failed before and exits 0 now. A new failure
    // mode: the same call fails in a way it never failed before.
    let passed = false;
    let newFailure = false;
    if (step.result.exit_code !== null) {
      const before = this.lastExit.get(step.args_hash);
      passed = step.result.exit_code === 0 && before !== undefined && before !== 0;
      if (this.lastExit.size < SEEN_LIMIT || this.lastExit.has(step.args_hash))
        this.lastExit.set(step.args_hash, step.result.exit_code);
    }
    if (step.failure !== null) {
      const seen = this.failures.get(step.args_hash);
      newFailure = seen !== undefined && !seen.split("\u0000").includes(step.failure);
      if (this.failures.size < SEEN_LIMIT || seen !== undefined)
        this.failures.set(step.args_hash, seen ? `${seen}\u0000${step.failure}` : step.failure);
    }
    this.timeline.add({
      index: step.index,
      at: step.at,
      name: step.name,
      preview: step.preview,
      passed,
      newFailure,
      newInformation,
      event: -1,
      write: step.kind === "write",
    });

    const c = this.counters;
    if (newInformation) {
      c.new_information++;
      this.noInfoRun = 0;
      this.noInfoStart = null;
    } else {
      c.no_new_information++;
      this.noInfoRun++;
      this.noInfoStart ??= mark;
      c.longest_without_new_information = Math.max(
        c.longest_without_new_information,
        this.noInfoRun,
      );
    }
    this.workspace.noteUse(step);
    this.detect(step, mark);
  }

  /**
   * Applies the step to the work tree and tells whether it brought new information. A restore
   * right after another, with no work between, is the same clean-up (one event); a restore that
   * is later undone by putting the work back was a baseline check (its event is cancelled).
   */
  private workTree(step: TraceStep): boolean {
    const touches =
      step.kind === "write" || step.revert || step.restores.length > 0 || step.unstash;
    if (!touches) {
      const key =
        step.kind === "read"
          ? `read\u0000${step.result.hash}`
          : step.kind === "command" || step.kind === "search"
            ? `cmd\u0000${step.name}\u0000${step.result.hash}`
            : `other\u0000${step.args_hash}\u0000${step.result.hash}`;
      if (step.kind === "command") this.workSinceRestore = true;
      this.lastWasRestore = false;
      return this.seen.add(key);
    }
    const explicit = Boolean(step.revert) || step.restores.length > 0;
    const events = this.timeline.events;
    const event = this.lastWasRestore ? (events.at(-1)?.id ?? events.length) : events.length;
    const applied = this.workspace.apply(step, event);
    this.timeline.cancel(applied.redid);
    // A restore: an explicit one (checkout, a copy back, an undo) that undid work or came after
    // work we cannot see (a script's edits), or the old text written back by an editor.
    const undoing = applied.undid && (explicit || step.write?.after != null);
    const counts = undoing || (explicit && this.workSinceRestore);
    if (counts || (explicit && this.lastWasRestore)) {
      this.timeline.restore(step.index, this.lastWasRestore);
      this.lastWasRestore = true;
    } else if (!explicit) {
      this.lastWasRestore = false;
    }
    if (!counts && !this.lastWasRestore) this.workspace.forgetStash(event);
    if (explicit) {
      this.workSinceRestore = false;
      return false;
    }
    this.workSinceRestore = true;
    return applied.changed && !undoing;
  }

  private detect(step: TraceStep, mark: Mark): void {
    const t = this.t;
    const s = this.segments;
    const finding = (kind: FindingKind, from: Mark, why: string): ProgressFinding => ({
      kind,
      from_step: from.index,
      to_step: mark.index,
      at: from.at,
      why,
      excerpt: step.preview,
    });

    // Identical call and (volatile-stripped) result, in a row.
    const pair = `${step.args_hash}:${step.result.hash}`;
    if (pair === this.lastPair) this.streak++;
    else {
      this.streak = 1;
      this.streakStart = mark;
    }
    this.lastPair = pair;
    if (this.streak >= t.identical_streak && this.streakStart) {
      s.hit(
        "identical",
        finding(
          "identical-streak",
          this.streakStart,
          `the same call (${step.name}) returned the same result ${this.streak} times in a row`,
        ),
      );
    } else s.miss("identical");

    // The same action reworded (numbers, ids and quoted text masked) whose result says nothing
    // beyond what the call itself said: a no-op restated on every call (seed 002's variants).
    const action = `${step.action_hash}:${step.echo_free_hash}`;
    const quiet = step.kind !== "write" && !step.result.error;
    if (quiet && action === this.lastAction) this.reworded++;
    else {
      this.reworded = quiet ? 1 : 0;
      this.rewordedStart = mark;
    }
    this.lastAction = quiet ? action : null;
    if (
      this.reworded >= t.identical_streak + 2 &&
      this.rewordedStart &&
      this.streak < this.reworded
    ) {
      s.hit(
        "reworded",
        finding(
          "identical-streak",
          this.rewordedStart,
          `the same action (${step.name}), reworded, ran ${this.reworded} times in a row and its output said nothing beyond the call's own words`,
        ),
      );
    } else s.miss("reworded");

    // Short cycles: A-B-A-B (period 2) or A-B-C-A-B-C (period 3), results unchanged.
    this.window.push({ ...mark, pair });
    if (this.window.length > 3 * t.cycle_repeats) this.window.shift();
    let cycled = false;
    for (const period of [2, 3]) {
      const length = period * t.cycle_repeats;
      if (this.window.length < length) continue;
      const tail = this.window.slice(-length);
      const distinct = new Set(tail.slice(0, period).map((m) => m.pair)).size;
      if (distinct < 2) continue;
      if (tail.every((m, i) => i < period || m.pair === tail[i - period]?.pair)) {
        const first = tail[0] as Mark;
        s.hit(
          "cycle",
          finding(
            "short-cycle",
            first,
            `a cycle of ${period} different calls repeated ${t.cycle_repeats} times with the same results`,
          ),
        );
        cycled = true;
        break;
      }
    }
    if (!cycled) s.miss("cycle");

    // No new information in a row.
    if (this.noInfoRun >= t.no_new_information && this.noInfoStart) {
      s.hit(
        "no-info",
        finding(
          "no-new-information",
          this.noInfoStart,
          `${this.noInfoRun} tool calls in a row brought no new information (results, reads and file states seen before)`,
        ),
      );
    } else s.miss("no-info");
  }

  /** The first few are listed; the rest only counted, so the report stays small. */
  private noteInfrastructure(kind: string, at: string, message: string): void {
    this.infrastructureCount++;
    if (this.infrastructure.length < REPORT_LIST_LIMIT)
      this.infrastructure.push({ kind, at, message: message.slice(0, 300) });
  }

  private checkBudgets(): void {
    const b = this.currentBudgets();
    const t = this.t;
    const limits: [string, number, number | null][] = [
      ["model calls", b.model_calls, t.max_model_calls],
      ["tool calls", b.tool_calls, t.max_tool_calls],
      ["tool calls in one turn", b.max_tool_calls_per_turn, t.max_tool_calls_per_turn],
      ["billed input tokens", b.input_tokens, t.max_input_tokens],
      ["context tokens in one call", b.peak_context_tokens, t.max_context_tokens],
      ["cost in USD", b.cost_usd ?? 0, t.max_cost_usd],
    ];
    for (const [name, used, limit] of limits) {
      if (limit === null || used <= limit || this.crossed.has(name)) continue;
      this.crossed.add(name);
      this.segments.close({
        kind: "budget",
        from_step: this.steps,
        to_step: this.steps,
        at: `step ${this.steps}`,
        why: `${name}: ${Number(used.toFixed(4))} is over the limit of ${limit}`,
        excerpt: null,
      });
    }
  }

  private currentBudgets(): Budgets {
    const b = { ...this.budgets };
    if (this.totals) {
      b.input_tokens = Math.max(b.input_tokens, this.totals.input);
      b.cached_input_tokens = Math.max(b.cached_input_tokens, this.totals.cached);
      b.output_tokens = Math.max(b.output_tokens, this.totals.output);
      b.model_calls = Math.max(b.model_calls, this.totals.changes);
    }
    if (this.declared.input !== null)
      b.input_tokens = Math.max(b.input_tokens, this.declared.input);
    if (this.declared.output !== null)
      b.output_tokens = Math.max(b.output_tokens, this.declared.output);
    if (this.declared.calls !== null) b.model_calls = Math.max(b.model_calls, this.declared.calls);
    if (this.declared.cost !== null && this.declared.cost >= (b.cost_usd ?? 0))
      b.cost_usd = this.declared.cost;
    if (b.cost_usd !== null) b.cost_usd = Math.round(b.cost_usd * 1e6) / 1e6;
    return b;
  }

  report(): ProgressReport {
    const survivors = this.workspace.survivors();
    const milestones = this.timeline.milestones(survivors);
    const { longest, open } = this.timeline.stretches(milestones);
    this.counters.milestones = milestones.filter(Boolean).length;
    this.counters.longest_without_milestone = longest;
    this.counters.steps_since_last_milestone = open;
    this.counters.reverts = this.timeline.events.filter((e) => !e.cancelled).length;
    for (const found of [
      ...this.timeline.noMilestone(milestones, this.t),
      ...this.timeline.revertCycles(this.t),
    ])
      this.segments.close(found);
    const findings = this.segments.all();
    return {
      version: PROGRESS_REPORT_VERSION,
      format: this.format,
      records: this.records,
      steps: this.steps,
      exit_status: this.exitStatus,
      counters: { ...this.counters },
      budgets: this.currentBudgets(),
      infrastructure_failures: this.infrastructure,
      infrastructure_failure_count: this.infrastructureCount,
      findings,
      findings_not_listed: this.segments.dropped,
      // The verdict rests on the milestone criterion only; loops are evidence (verdict.ts).
      stalled: isStalled(findings),
      thresholds: this.t,
    };
  }
}
