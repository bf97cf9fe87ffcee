import type { TraceStep } from "../../schemas/trace.js";
import { shortHash } from "./hash.js";

/** A state of one file: the base commit's, absent, or a token per known content or edit. */
const BASE = "base";
const ABSENT = "absent";
/** States kept per file and files watched for use: bounded memory on any trace. */
const HISTORY_LIMIT = 2000;
const WATCHED_LIMIT = 2000;

interface Entry {
  step: number;
  token: string;
}

/** Edits a step undid, kept so that putting them back (a baseline check) can be recognised. */
interface Undone {
  event: number;
  entries: Entry[];
}

/**
 * Where scratch files live: the top of the work tree or a temp dir (`reproduce.py`, `fix_v3.py`,
 * `/tmp/check.py`). A file the agent creates deeper in the tree (a module, a test) is work.
 */
const isScratch = (path: string) => {
  const relative = path.replace(/^\.\//, "");
  return (
    !relative.includes("/") || /^\/tmp\/|^\/var\/tmp\//.test(relative) || /^\/[^/]+$/.test(relative)
  );
};

/** What applying one step did to the work tree as the trace shows it. */
export interface Applied {
  /** The step put some earlier edit of the agent's back (a restore, an undo, a return). */
  undid: boolean;
  /** The step changed the tree to a state not seen right before. */
  changed: boolean;
  /** The step put back edits an earlier restore had undone (stash pop, the same edit again). */
  redid: number[];
}

/**
 * The work tree as far as the trace shows it, one history per file: each edit pushes a state,
 * and a step that brings a file back to a state it had (`git checkout`, `cp f.orig f`, an undo,
 * the old text written again) undoes every edit after that state. Edits still standing at the
 * end are the ones that survived; restores that were later put back were baseline checks.
 */
export class Workspace {
  private readonly histories = new Map<string, { base: string; entries: Entry[] }>();
  private readonly lastEditArgs = new Map<string, string>();
  private readonly copies = new Map<string, { path: string; token: string }>();
  private readonly undone = new Map<string, Undone>();
  private readonly uses = new Map<string, { name: string; steps: number[] }>();
  private stash: Map<string, string> | null = null;
  private stashEvent = -1;
  /** Steps whose every edit was later undone (and not put back). */
  readonly undoneSteps = new Set<number>();

  private history(path: string, created: boolean, base?: string) {
    let history = this.histories.get(path);
    if (!history) {
      history = { base: base ?? (created ? ABSENT : BASE), entries: [] };
      this.histories.set(path, history);
      if (history.base === ABSENT && this.uses.size < WATCHED_LIMIT) {
        this.uses.set(path, { name: path.split("/").pop() ?? path, steps: [] });
      }
    }
    return history;
  }

  /** The stash made with this event id opened no restore event: its pop cancels nothing. */
  forgetStash(event: number): void {
    if (this.stashEvent === event) this.stashEvent = -1;
  }

  /** Notes the calls that name a file the agent created (it ran or read it). */
  noteUse(step: TraceStep): void {
    if (step.kind === "write") return;
    for (const use of this.uses.values()) {
      if (use.steps.length < 8 && step.args.includes(use.name)) use.steps.push(step.index);
    }
  }

  /** A file the agent created was used at least twice after this step. */
  usedAfter(path: string, step: number): boolean {
    return (this.uses.get(path)?.steps.filter((s) => s > step).length ?? 0) >= 2;
  }

  private token(path: string): string {
    const history = this.histories.get(path);
    return history?.entries.at(-1)?.token ?? history?.base ?? BASE;
  }

  /** Moves `path` to `token`: back to an earlier state undoes the edits after it. */
  private move(
    path: string,
    token: string,
    step: number,
    event: number,
    created = false,
    base?: string,
  ) {
    const history = this.history(path, created, base);
    const result: Applied = { undid: false, changed: false, redid: [] };
    if (this.token(path) === token) return result;
    result.changed = true;
    const previous =
      token === history.base ? 0 : history.entries.findIndex((e) => e.token === token) + 1;
    if (previous > 0 || token === history.base) {
      const removed = history.entries.splice(previous);
      for (const entry of removed) this.undoneSteps.add(entry.step);
      if (removed.length > 0) {
        result.undid = true;
        this.undone.set(path, { event, entries: removed });
      }
      return result;
    }
    const lost = this.undone.get(path);
    if (lost && lost.entries.at(-1)?.token === token) {
      // The undone work came back as it was: the restore was a check, not an abandonment.
      history.entries.push(...lost.entries);
      for (const entry of lost.entries) this.undoneSteps.delete(entry.step);
      this.undone.delete(path);
      result.redid.push(lost.event);
      return result;
    }
    history.entries.push({ step, token });
    if (history.entries.length > HISTORY_LIMIT) history.entries.shift();
    return result;
  }

  /** Applies one step; `event` names the restore event the step would be part of. */
  apply(step: TraceStep, event: number): Applied {
    const result: Applied = { undid: false, changed: false, redid: [] };
    const merge = (part: Applied) => {
      result.undid ||= part.undid;
      result.changed ||= part.changed;
      result.redid.push(...part.redid);
    };
    for (const copy of step.copies) {
      this.copies.set(copy.to, { path: copy.from, token: this.token(copy.from) });
    }
    if (step.unstash && this.stash) {
      for (const [path, token] of this.stash) merge(this.move(path, token, step.index, event));
      if (this.stashEvent >= 0) result.redid.push(this.stashEvent);
      this.stash = null;
    }
    if (step.revert) {
      const all = step.revert.includes("*");
      if (all && /\bstash\b/.test(step.preview)) {
        this.stash = new Map([...this.histories.keys()].map((p) => [p, this.token(p)]));
        this.stashEvent = event;
      }
      const paths = all ? [...this.histories.keys()] : step.revert;
      for (const path of paths) {
        const base = this.histories.get(path)?.base ?? BASE;
        merge(this.move(path, base, step.index, event));
      }
    }
    for (const restore of step.restores) {
      const copy = restore.from ? this.copies.get(restore.from) : undefined;
      const history = this.history(restore.to, false);
      const back =
        copy && copy.path === restore.to
          ? copy.token
          : restore.from === null
            ? (history.entries.at(-2)?.token ?? history.base)
            : history.base;
      merge(this.move(restore.to, back, step.index, event));
    }
    if (step.kind === "write" && !step.revert && step.restores.length === 0 && !step.unstash) {
      for (const path of step.writes.length > 0 ? step.writes : [step.path ?? "?"]) {
        merge(this.write(step, path, event));
      }
    }
    return result;
  }

  private write(step: TraceStep, path: string, event: number): Applied {
    const deleted = step.name === "rm";
    if (step.write?.after) {
      // Content known: the file's first "before" is its base, so writing it back is the base.
      const before = step.write.before ?? ABSENT;
      return this.move(path, step.write.after, step.index, event, false, before);
    }
    if (deleted) return this.move(path, ABSENT, step.index, event);
    // Content unknown (a shell edit): a new edit is a new state; the same edit again right
    // after itself changes nothing (s/a/a/, a rewrite of the same text).
    if (this.lastEditArgs.get(path) === step.args_hash) {
      return { undid: false, changed: false, redid: [] };
    }
    this.lastEditArgs.set(path, step.args_hash);
    const created = !this.histories.has(path) && /(^|[^<])>\s*\S|\btouch\b/.test(step.preview);
    const token = shortHash(`${this.token(path)}\u0000${step.args_hash}\u0000${step.index}`);
    return this.move(path, token, step.index, event, created);
  }

  /**
   * The edits standing at the end, by step: a file changed from its base whose history still
   * holds the step. A scratch file the agent created (top of the tree, a temp dir) counts only
   * when it was used at least twice after: a scratch script nobody runs again is no progress.
   */
  survivors(): Set<number> {
    const steps = new Set<number>();
    for (const [path, history] of this.histories) {
      const last = history.entries.at(-1);
      if (!last || last.token === history.base) continue;
      for (const entry of history.entries) {
        if (history.base === ABSENT && isScratch(path) && !this.usedAfter(path, entry.step))
          continue;
        steps.add(entry.step);
      }
    }
    return steps;
  }
}
