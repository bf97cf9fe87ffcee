/**
 * What agate says on an entry's issue, one function per situation. Text someone else wrote (a
 * reason, a login) goes in code spans, so it cannot mention, link or format anything.
 */
import type {
  EscalationReason,
  HandoffEntry,
  HandoffEntryDraft,
} from "../../schemas/handoff-entry.js";
import { codeSpan, durationText } from "../markdown.js";
import { COMMAND_USAGE } from "./commands.js";
import { FIELD_PURPOSE } from "./form.js";
import type { EscalationRules } from "./machine.js";

/** agate's one wording of a time (`10 min`, `1 h 30 min`), as in every summary. */
export const duration = (ms: number) => durationText(ms);
const who = (login: string) => codeSpan(login, 60);

export function opened(entry: HandoffEntryDraft, rules: EscalationRules): string {
  return [
    `**Handoff entry open.** Another agent can take it: comment ${COMMAND_USAGE.claim}; from then on only the owner can ${COMMAND_USAGE.answer.replace(" (owner only; resolves and closes)", "")}.`,
    "",
    `- Unclaimed for ${duration(rules.unanswered_timeout)}, it is blocked (parked, nobody notified).`,
    `- A claim lasts ${duration(rules.claim_timeout)} without an answer; claim ${rules.claim_expiries_before_blocked} ending without one blocks it.`,
    `- The owner may ask ${rules.follow_up_limit} follow-up question${rules.follow_up_limit === 1 ? "" : "s"} (${COMMAND_USAGE.ask}); one more blocks it.`,
    `- Other commands: ${COMMAND_USAGE.release}, ${COMMAND_USAGE.block}, ${COMMAND_USAGE.escalate}.`,
    "",
    `Author: ${who(entry.author)}. States are labels agate sets; changing one by hand is undone.`,
  ].join("\n");
}

export function refusedForm(missing: string[], problems: string[]): string {
  const lines = missing.map(
    (field) => `- **${field}**: ${FIELD_PURPOSE[field as keyof typeof FIELD_PURPOSE]}`,
  );
  return [
    "**This handoff entry is refused and closed**: a required field is missing or empty.",
    "",
    ...lines,
    ...problems.map((problem) => `- ${problem}`),
    "",
    "Edit the issue to fill in every field under its `### ` heading (the issue form does this), then reopen it.",
  ].join("\n");
}

export function claimed(owner: string, rules: EscalationRules): string {
  return `Claimed by ${who(owner)}, the one owner from now on. Answer with ${COMMAND_USAGE.answer} within ${duration(rules.claim_timeout)}, or the claim expires and the entry is open again.`;
}

export function alreadyYours(entry: HandoffEntry): string {
  return `${who(entry.owner ?? "")} already owns this entry${entry.deadline ? ` (the claim runs until ${entry.deadline.at})` : ""}; nothing changed.`;
}

export function claimedBy(entry: HandoffEntry, actor: string): string {
  return `Refused: ${who(entry.owner ?? "")} owns this entry, so ${who(actor)} cannot claim it. Wait for the claim to be answered, released or to expire${entry.deadline ? ` (${entry.deadline.at})` : ""}.`;
}

export function authorCannotClaim(author: string): string {
  return `Refused: ${who(author)} opened this entry and cannot claim it; another agent answers it. Add what you learn in a comment, or ${COMMAND_USAGE.block}.`;
}

export function notOwner(entry: HandoffEntry, what: string, actor: string): string {
  return entry.owner === null
    ? `Refused: nobody owns this entry, so ${who(actor)} cannot send a ${what}. Comment ${COMMAND_USAGE.claim} first.`
    : `Refused: only the owner ${who(entry.owner)} can send a ${what}, not ${who(actor)}.`;
}

export function notParticipant(entry: HandoffEntry, what: string, actor: string): string {
  return `Refused: ${who(actor)} cannot ${what} this entry; its author ${who(entry.author)}, its owner or a maintainer listed in \`escalation.maintainers\` can.`;
}

export function invalid(problem: string): string {
  return `Refused: ${problem}.`;
}

export function terminal(entry: HandoffEntry): string {
  return entry.state === "escalated"
    ? "Refused: this entry is **escalated**; only a maintainer's decision ends it (a maintainer who is neither its author nor its owner comments `/answer <the decision>`)."
    : `Refused: this entry is **${entry.state}**, which is final; nothing changes it now. For a new question, open a new entry.`;
}

export function decided(entry: HandoffEntry, maintainer: string): string {
  return `**Resolved** by the maintainer ${who(maintainer)}: the decision is the comment above. ${who(entry.author)} can go on with it. Closing.`;
}

export function answered(entry: HandoffEntry): string {
  return `**Resolved** by ${who(entry.owner ?? "")}: the answer is the comment above. ${who(entry.author)} can go on with it. Closing.`;
}

export function asked(entry: HandoffEntry, asked: number, limit: number): string {
  return `Follow-up question ${asked} of ${limit} from the owner. ${who(entry.author)}: answer it in a comment. Another follow-up blocks the entry.`;
}

export function tooManyFollowUps(asked: number, limit: number): string {
  return `**Blocked**: follow-up question ${asked} is over the limit of ${limit}; no ping-pong. The entry is parked (nobody is notified).`;
}

export function claimEnded(input: {
  owner: string;
  how: "expired" | "released";
  ends: number;
  limit: number;
  blocked: boolean;
  rules: EscalationRules;
}): string {
  const what =
    input.how === "expired"
      ? `The claim by ${who(input.owner)} expired after ${duration(input.rules.claim_timeout)} without an answer`
      : `${who(input.owner)} released the claim`;
  return input.blocked
    ? `${what}: claim ${input.ends} of ${input.limit} to end without an answer, so the entry is **blocked** (parked, nobody notified).`
    : `${what} (${input.ends} of ${input.limit} before the entry is blocked). The entry is **open** again: ${COMMAND_USAGE.claim}.`;
}

export function blocked(actor: string, why: string): string {
  return `**Blocked** by ${who(actor)}: ${codeSpan(why, 500)}. The entry is parked and readable here; nobody is notified.`;
}

export function unanswered(ms: number): string {
  return `**Blocked**: nobody claimed this entry within ${duration(ms)}. It is parked and readable here; nobody is notified.`;
}

export function escalated(
  actor: string,
  reason: EscalationReason,
  why: string,
  mentions: string[],
): string {
  const reach =
    mentions.length > 0
      ? `${mentions.join(" ")}: a decision only a maintainer can make is needed.`
      : "No maintainer is listed in `escalation.maintainers`, so nobody was notified: a maintainer finds it by its `agate:escalated` label.";
  return `**Escalated** by ${who(actor)} (${reason}): ${codeSpan(why, 500)}.\n\n${reach}`;
}

export function labelPutBack(input: {
  label: string;
  action: "labeled" | "unlabeled";
  by: string;
  state: string;
  command: string;
}): string {
  return `The label \`${input.label}\` was ${input.action === "labeled" ? "added" : "removed"} by ${who(input.by)} and is put back: labels show the entry's state (**${input.state}**), which only commands change. ${input.command}`;
}

export function closedPutBack(input: { by: string; state: string; reopened: boolean }): string {
  return input.reopened
    ? input.state === "escalated"
      ? `${who(input.by)} closed this entry while it is **escalated**; it is reopened. Closing never decides an escalation (a closing keyword in a merged pull request would close it too): a maintainer decides it with ${COMMAND_USAGE.answer}.`
      : `${who(input.by)} closed this entry while it is **${input.state}**; it is reopened. To end it, the owner comments ${COMMAND_USAGE.answer}, or anyone involved ${COMMAND_USAGE.block}.`
    : `${who(input.by)} reopened this entry, but it is **${input.state}**, which is final; it is closed again. For a new question, open a new entry.`;
}
