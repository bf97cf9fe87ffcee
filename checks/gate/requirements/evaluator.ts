/**
 * The evaluator requirement: none, a maintainer's review (`review`), or a model or command asked
 * about the head's tree once the cheap deterministic checks hold, its verdict bound to that tree.
 */
import type { Config } from "../../../schemas/config.js";
import type { GateFacts, Requirement } from "../../../schemas/gate.js";
import { codeSpan, counted, shortSha as short } from "../../markdown.js";
import { type Part, partOf } from "./part.js";

/**
 * The cheap deterministic checks come first: the evaluator is asked only once every required
 * command passed and the handoff file holds. The decision reads it for the evaluator's row, the
 * plan for whether to ask now (plan.ts), from the same requirements.
 */
export function evaluatorReady(requirements: readonly Requirement[]): boolean {
  const status = (id: Requirement["id"]) => requirements.find((r) => r.id === id)?.status;
  return status("commands") === "pass" && status("handoff") === "pass";
}

export function evaluatorRequirement(facts: GateFacts, config: Config, ready: boolean): Part {
  const req = partOf("evaluator", "evaluator");
  const evaluator = config.evaluator;
  if (evaluator.kind === "none") return req("pass", "none configured (evaluator.kind: none)");
  if (evaluator.kind === "review") return reviewRequirement(facts, req);
  if (!ready) {
    return req(
      "waiting",
      "asked only after every required command passed and the handoff file holds (no evaluator call yet)",
    );
  }
  const tree = short(facts.head_tree_sha ?? "");
  const fact = facts.evaluation;
  if (fact.status === "not_asked") return req("waiting", `asking the evaluator about tree ${tree}`);
  // The budget's name first, for the title; the detail (how much, until when) in the row. The day's
  // calls are a fact of the pass; a bundle over budget is an outcome stored for the tree.
  const capped = (over: { budget: string; detail: string }) =>
    req("capped", `budgets.${over.budget} reached: ${over.detail}`, [
      `Wait, or ask a maintainer to raise budgets.${over.budget} in ${facts.config.status === "ok" ? facts.config.path : "the config"} on the base branch`,
    ]);
  if (fact.status === "over_budget") return capped(fact);
  const { outcome, run } = fact.evaluation;
  if (outcome.status === "over_budget") return capped(outcome);
  const who = [run.kind, run.provider, run.model].filter(Boolean).join(" ");
  if (outcome.status === "failed") {
    // What failed in the row and the title; the fix once, as the work item.
    return req("blocked", `evaluator unavailable (${who}): ${outcome.error}`, [
      `Ask agate's operator to fix the evaluator: ${outcome.fix}. Then choose "Re-run evaluator" on this check`,
    ]);
  }
  const verdict = outcome.verdict;
  const min = evaluator.min_score;
  const reused =
    fact.evaluation.head_sha !== facts.pull_request.head_sha
      ? `, judged on ${short(fact.evaluation.head_sha)} with the identical tree`
      : "";
  if (verdict.complete && verdict.score >= min && verdict.missing.length === 0) {
    return req("pass", `complete, score ${verdict.score} ≥ ${min} (${who}${reused})`);
  }
  const why = [
    verdict.complete ? null : "not complete",
    verdict.score < min ? `score ${verdict.score} < ${min}` : `score ${verdict.score}`,
    verdict.missing.length > 0 ? counted(verdict.missing.length, "missing item") : null,
  ].filter(Boolean);
  return req(
    "fail",
    `${why.join(", ")} (${who}${reused})`,
    // The evaluator read what the agent wrote; its words are shown as code, never as Markdown.
    verdict.missing.length > 0
      ? verdict.missing.map((item) => codeSpan(item))
      : [
          `Finish the task and push: the evaluator did not sign off (${why.join(", ")}) but named nothing missing`,
        ],
  );
}

/**
 * The `review` evaluator: the sign-off is a maintainer's approval of the exact head (not the
 * author's, not a bot's); a maintainer's outstanding request for changes holds it, and its body
 * becomes the work items.
 */
function reviewRequirement(
  facts: GateFacts,
  req: (status: Requirement["status"], reason: string, items?: string[]) => Part,
): Part {
  const head = facts.pull_request.head_sha;
  const changes = facts.reviews.filter((r) => r.state === "CHANGES_REQUESTED" && r.maintainer);
  if (changes.length > 0) {
    const items = changes.flatMap((r) => reviewItems(r.login, r.body));
    return req(
      "fail",
      `changes requested by ${changes.map((r) => `${r.login} on ${short(r.commit_id)}`).join(", ")}`,
      items,
    );
  }
  const approvals = facts.reviews.filter((r) => r.state === "APPROVED");
  const onHead = approvals.find((r) => r.maintainer && r.commit_id === head);
  if (onHead) return req("pass", `approved by ${onHead.login} on ${short(head)}`);
  const notes = approvals.map((r) =>
    !r.maintainer
      ? `${r.login}'s approval does not count (${r.login.endsWith("[bot]") ? "a bot" : "not a maintainer, or the author"})`
      : `${r.login}'s approval is for ${short(r.commit_id)}, an older commit`,
  );
  return req(
    "waiting",
    `needs a maintainer's approving review of this commit${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`,
    [`Ask a maintainer to review and approve ${short(head)}`],
  );
}

/** A review body as work items: its list items when it has any, else the whole text. */
function reviewItems(login: string, body: string): string[] {
  const items = body
    .split("\n")
    .map((line) => /^\s*(?:[-*+]|\d+[.)])\s+(?:\[ \]\s+)?(.+)$/.exec(line)?.[1]?.trim())
    .filter((item): item is string => Boolean(item));
  if (items.length > 0) return items.map((item) => codeSpan(item));
  const text = body.trim();
  return [
    text === ""
      ? `Address the changes ${login} requested`
      : `Address what ${login} asked for: ${codeSpan(text)}`,
  ];
}
