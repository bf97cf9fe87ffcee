/**
 * The Action's verdict as data (its `status` output, schemas/gate-status.ts): from its own
 * command record alone. Kept apart from status.ts, which needs the gate's decision logic: the
 * Action's bundle loads none of it.
 */
import type { CommandRecord } from "../../schemas/command-record.js";
import type { FailingCommand, GateStatus, StatusRequirement } from "../../schemas/gate-status.js";
import { GATE_STATUS_VERSION, STATUS_TAIL_CHARS } from "../../schemas/gate-status-constants.js";
import { commandPassed } from "../command-results.js";
import { codeSpan, displayTail, durationText, shortSha } from "../markdown.js";

/** The end of a command's output as the status keeps it: terminal escapes removed. */
export const statusTail = (text: string) => displayTail(text).slice(-STATUS_TAIL_CHARS);

/** The commands of a record that did not pass, with the end of their output. */
export function failingOf(record: CommandRecord): FailingCommand[] {
  return record.commands
    .filter((c) => !commandPassed(c))
    .map((c) => ({
      name: c.name,
      exit_code: c.exit_code,
      signal: c.signal,
      timed_out: c.timed_out,
      duration_ms: c.duration_ms,
      output_tail: statusTail(c.output.tail),
    }));
}

/**
 * The Action's view, from its own commands alone (its `status` output): a failing command is
 * work for the agent; all passing is not yet an acceptance, for the App still checks where the
 * record came from and asks the evaluator, so it waits.
 */
export function recordStatus(record: CommandRecord, repository: string): GateStatus {
  const failing = failingOf(record);
  const total = record.commands.length;
  const requirement: StatusRequirement = {
    id: "commands",
    name: "required commands",
    status: failing.length > 0 ? "fail" : "pass",
    reason:
      failing.length > 0
        ? `${failing.length} of ${total} required commands failed (${failing.map((c) => c.name).join(", ")})`
        : `${total} of ${total} passed`,
    who: failing.length > 0 ? "agent" : "nobody",
  };
  const state = failing.length > 0 ? "rejected" : "waiting";
  return {
    version: GATE_STATUS_VERSION,
    source: "action",
    repository,
    pull_request: record.pull_request?.number ?? null,
    head_sha: record.pull_request?.head_sha ?? record.merge_group?.head_sha ?? record.tested.sha,
    state,
    action: failing.length > 0 ? "work" : "wait",
    report_only: false,
    conclusion: null,
    title:
      failing.length > 0
        ? `The commands failed on ${shortSha(record.tested.sha)}: ${requirement.reason}`
        : `Every required command passed on ${shortSha(record.tested.sha)}; the agate App decides`,
    next: failing.map(
      (c) =>
        `Make ${codeSpan(c.name, 80)} pass and push: ${c.timed_out ? `it timed out after ${durationText(c.duration_ms ?? 0)}` : c.signal ? `it was killed by ${c.signal}` : `it exited ${c.exit_code}`}`,
    ),
    requirements: [requirement],
    failing_commands: failing,
    evaluator_missing: [],
    handoff_problems: [],
    budgets: null,
  };
}
