/**
 * A requirement as the decision builds it: one row of the summary's table with the work items that
 * go with it. Each requirement of a gated pull request has a file beside this one; outcome.ts
 * ranks them.
 */
import type { Requirement } from "../../../schemas/gate.js";

/** A requirement with the concrete items that make up its next work, when it has them. */
export interface Part {
  requirement: Requirement;
  items: string[];
}

/** One requirement's rows: its id and name said once, its status and reason each time. */
export function requirementOf(id: Requirement["id"], name: string) {
  return (status: Requirement["status"], reason: string): Requirement => ({
    id,
    name,
    status,
    reason,
  });
}

/** The same, with the work items that go with each row. */
export function partOf(id: Requirement["id"], name: string) {
  const requirement = requirementOf(id, name);
  return (status: Requirement["status"], reason: string, items: string[] = []): Part => ({
    requirement: requirement(status, reason),
    items,
  });
}
