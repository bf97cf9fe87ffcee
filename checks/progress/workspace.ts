import type { TraceStep } from "../../schemas/trace.js";
import { shortHash } from "./hash.js";

/**
 * The work tree as far as the trace shows it: a token per path changed from the base commit.
 * The tree's state is the XOR of one hash per changed path, so it is updated in O(1) per write
 * and equal trees give equal states whatever order the paths were changed in.
 */
export class Workspace {
  private readonly tokens = new Map<string, string>();
  private readonly base = new Map<string, string>();
  private readonly lastEdit = new Map<string, string>();
  private state = 0n;

  get current(): string {
    return this.state.toString(16).padStart(16, "0");
  }

  private entry(path: string, token: string): bigint {
    return BigInt(`0x${shortHash(`${path}\u0000${token}`)}`);
  }

  private set(path: string, token: string | null): void {
    const old = this.tokens.get(path);
    if (old !== undefined) this.state ^= this.entry(path, old);
    if (token === null) this.tokens.delete(path);
    else {
      this.tokens.set(path, token);
      this.state ^= this.entry(path, token);
    }
  }

  /** Applies a step; returns the state before and after. */
  apply(step: TraceStep): { before: string; after: string } {
    const before = this.current;
    if (step.revert) {
      const paths = step.revert.includes("*") ? [...this.tokens.keys()] : step.revert;
      for (const path of paths) {
        this.set(path, null);
        this.lastEdit.delete(path);
      }
    } else if (step.kind === "write") {
      const path = step.path ?? "?";
      if (step.write?.after) {
        // Content is known: writing the base content back is the base again.
        if (!this.base.has(path)) this.base.set(path, step.write.before ?? "absent");
        this.set(path, step.write.after === this.base.get(path) ? null : step.write.after);
      } else if (this.lastEdit.get(path) !== step.args_hash) {
        // Content unknown (a shell edit): a new edit is a new state; the same edit again right
        // after itself is taken to change nothing (s/a/a/, a rewrite of the same text).
        const previous = this.tokens.get(path) ?? "base";
        this.set(path, shortHash(`${previous}\u0000${step.args_hash}`));
        this.lastEdit.set(path, step.args_hash);
      }
    }
    return { before, after: this.current };
  }
}
