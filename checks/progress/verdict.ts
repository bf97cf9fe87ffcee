import type { FindingKind, ProgressFinding } from "../../schemas/trace.js";

/**
 * What a finding counts as (docs/progress.md, "The stall verdict and the evidence"):
 *
 * - `stall`: the verdict rests on this alone. Seed 001's criterion, measured on outputs: calls
 *   after the last verified milestone (a stretch of `steps_without_milestone`, or the idle tail
 *   of the run). A run that stops reaching milestones is stuck whatever its calls look like.
 * - `evidence`: loops seen on the way (the same call, a short cycle, restores, nothing new
 *   learned). A loop the agent broke out of is followed by a milestone; one it never left lies
 *   inside the idle stretch the verdict measures. So a loop is shown, with its steps and what
 *   repeated, and never decides the verdict by itself (on the benchmark's tune split the one
 *   false alarm on a resolved run was a loop: sympy-15976's no-op sed repeated 4 times).
 * - `budget`: a limit the configuration set, reported beside the verdict.
 */
export type FindingRole = "stall" | "evidence" | "budget";

const ROLES: Record<FindingKind, FindingRole> = {
  "no-milestone": "stall",
  "identical-streak": "evidence",
  "short-cycle": "evidence",
  "revert-cycle": "evidence",
  "no-new-information": "evidence",
  budget: "budget",
};

export const findingRole = (kind: FindingKind): FindingRole => ROLES[kind];

/** The stall verdict of a report's findings: one finding of the `stall` role. */
export const isStalled = (findings: readonly ProgressFinding[]): boolean =>
  findings.some((f) => ROLES[f.kind] === "stall");
