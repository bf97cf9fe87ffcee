/**
 * `agate-gate status`'s answer from what it read (pure): the pull request's live head, the App's
 * `agate` check run on it, and the agent's checkout. The verdict is the App's status block
 * (status-block.ts) and only the App's: the reader (action/cli/status-github.ts) keeps the check runs
 * of the agate App alone, and this refuses a block about another commit or pull request.
 */
import {
  GATE_STATUS_VERSION,
  type GateStatus,
  STATUS_EXIT_CODES,
  type StatusAction,
  type StatusReport,
} from "../../schemas/gate-status.js";
import { shortSha as short } from "../markdown.js";
import { readStatusBlock } from "./status-block.js";

export interface StatusInput {
  repository: string;
  pull: { number: number; head_sha: string; head_ref: string; state: string; merged: boolean };
  /** The agate App's newest `agate` check run on the head, as GitHub lists it; null: none. */
  check: {
    id: number;
    url: string | null;
    app: string;
    status: string;
    conclusion: string | null;
    summary: string | null;
  } | null;
  /** Apps other than agate's with an `agate` check run on the head (never believed; named). */
  others: string[];
  appSlug: string;
  /** The checkout, when it is the pull request's branch (schemas/gate-status.ts). */
  local: StatusReport["local"];
}

/** The check carries nothing this CLI can read (an App older than the CLI, or newer). */
export class UnreadableStatusError extends Error {
  override readonly name = "UnreadableStatusError";
}

function localItems(input: StatusInput): string[] {
  const { local, pull } = input;
  if (!local) return [];
  const head = short(pull.head_sha);
  const items: string[] = [];
  switch (local.relation) {
    case "ahead":
      items.push(
        `Push your commits: HEAD ${short(local.sha)} is ahead of the pull request's head ${head}, and agate grades what is pushed (git push)`,
      );
      break;
    case "behind":
      items.push(
        `The pull request's head ${head} has commits your HEAD ${short(local.sha)} lacks: pull them (git pull), then go on`,
      );
      break;
    case "diverged":
      items.push(
        `Your HEAD ${short(local.sha)} and the pull request's head ${head} diverged: rebase or merge onto ${head}, then push`,
      );
      break;
    case "unknown":
      items.push(
        `Your HEAD ${short(local.sha)} is not the pull request's head ${head}: fetch, then push what is yours`,
      );
      break;
    case "same":
      break;
  }
  if (local.uncommitted) {
    items.push(
      "Commit your uncommitted changes and push them (or discard them): agate grades commits, not the work tree",
    );
  }
  return items;
}

/** The App's block, when there is one to believe about this pull request's head. */
function verdictOf(input: StatusInput): GateStatus | null {
  const { check, pull } = input;
  if (!check) return null;
  const read = readStatusBlock(check.summary ?? "");
  if (!read.ok) {
    // In progress without a block: a hold while the App works (a retarget, a retry).
    if (read.reason === "none" && check.status !== "completed") return null;
    throw new UnreadableStatusError(
      read.reason === "none"
        ? `the agate check on ${short(pull.head_sha)} (check run ${check.id}) carries no status this CLI reads: the App is older than \`status\` (update it)`
        : `the agate check on ${short(pull.head_sha)} (check run ${check.id}): ${read.detail}`,
    );
  }
  const status = read.status;
  // The App wrote the block for this head of this pull request, or it says nothing about it.
  if (
    status.source !== "app" ||
    status.head_sha !== pull.head_sha ||
    status.pull_request !== pull.number ||
    status.repository.toLowerCase() !== input.repository.toLowerCase()
  ) {
    return null;
  }
  return status;
}

function lineOf(
  report: Pick<StatusReport, "state" | "pull_request" | "head_sha" | "next">,
  gate: GateStatus | null,
  why: string,
): string {
  const only = gate?.report_only ? " (report only: what agate would decide)" : "";
  const word = report.state.replace("_", " ");
  const next = report.next[0] ? ` Next: ${report.next[0]}` : "";
  return `agate: ${word} on ${short(report.head_sha)} (#${report.pull_request})${only}: ${why}.${next}`;
}

export function statusReport(input: StatusInput): StatusReport {
  const { pull, check } = input;
  const gate = verdictOf(input);
  const mine = localItems(input);
  const stale = input.local !== null && input.local.relation !== "same";
  let state: StatusReport["state"];
  let action: StatusAction;
  let why: string;
  if (stale) {
    // Whatever agate said, it said it about another commit than the agent's.
    state = "stale";
    action = "work";
    why = gate
      ? `agate's verdict (${gate.state}) is on ${short(pull.head_sha)}, not on your HEAD ${short(input.local?.sha ?? "")}`
      : `your HEAD ${short(input.local?.sha ?? "")} is not the pull request's head`;
  } else if (gate) {
    state = gate.state;
    action = gate.action;
    why = gate.title;
  } else {
    state = "waiting";
    action = "wait";
    why = !check
      ? `no agate check from the App ${input.appSlug} on this commit yet${input.others.length > 0 ? ` (check runs named agate from ${input.others.join(", ")} are not agate's and mean nothing; if one of them is your agate App, name it with --app or AGATE_APP_SLUG)` : ""}`
      : "agate is evaluating this commit";
  }
  const next = [...mine, ...(stale ? [] : (gate?.next ?? []))];
  const base = { state, pull_request: pull.number, head_sha: pull.head_sha, next };
  return {
    version: GATE_STATUS_VERSION,
    repository: input.repository,
    ...base,
    action,
    stale,
    line: lineOf(base, gate, why),
    local: input.local,
    check: check
      ? {
          id: check.id,
          url: check.url,
          app: check.app,
          status: check.status,
          conclusion: check.conclusion,
        }
      : null,
    gate,
    exit_code: STATUS_EXIT_CODES[action],
  };
}
