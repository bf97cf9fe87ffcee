/**
 * Commands in comments on a handoff entry. A command is the first word of the comment's first
 * non-empty line; everything after it (the rest of that line and the lines below) is its text.
 * Anything else is conversation and changes nothing.
 */
import { type EscalationReason, escalationReasonSchema } from "../../schemas/handoff-entry.js";

export type EntryCommand =
  | { kind: "claim" }
  | { kind: "answer"; text: string }
  | { kind: "ask"; text: string }
  | { kind: "release" }
  | { kind: "block"; why: string }
  | { kind: "escalate"; reason: EscalationReason; why: string }
  /** A command word with text it cannot use: refused with `problem`, which says what to write. */
  | { kind: "invalid"; command: string; problem: string };

export const ESCALATION_REASONS = escalationReasonSchema.options;

/** What each command is, for refusals and for the comment that opens an entry. */
export const COMMAND_USAGE = {
  claim: "`/claim` (become the one owner)",
  answer: "`/answer <the answer>` (owner only; resolves and closes)",
  ask: "`/ask <follow-up question>` (owner only; one at most, the next one blocks)",
  release: "`/release` (owner only; back to open)",
  block: "`/block <why nobody can help>`",
  escalate: `\`/escalate <${ESCALATION_REASONS.join("|")}> <why>\` (reaches a maintainer)`,
} as const;

const COMMAND = /^\/(claim|answer|ask|release|block|escalate)(?=\s|$)([\s\S]*)$/;

/** The command at the start of a comment; null when the comment is not one. */
export function parseEntryCommand(body: string | null): EntryCommand | null {
  const match = COMMAND.exec((body ?? "").replace(/\r\n/g, "\n").trimStart());
  if (!match) return null;
  const word = match[1] as keyof typeof COMMAND_USAGE;
  const text = (match[2] ?? "").trim();
  const needs = (what: string): EntryCommand => ({
    kind: "invalid",
    command: word,
    problem: `\`/${word}\` needs ${what}: ${COMMAND_USAGE[word]}`,
  });
  switch (word) {
    case "claim":
      return { kind: "claim" };
    case "release":
      return { kind: "release" };
    case "answer":
      return text === "" ? needs("the answer after it") : { kind: "answer", text };
    case "ask":
      return text === "" ? needs("the question after it") : { kind: "ask", text };
    case "block":
      return text === "" ? needs("a reason") : { kind: "block", why: text };
    case "escalate": {
      const [first = "", ...rest] = text.split(/\s+/);
      const reason = escalationReasonSchema.safeParse(first.toLowerCase());
      if (!reason.success) {
        return {
          kind: "invalid",
          command: word,
          problem: `${first === "" ? "no reason given" : `${JSON.stringify(first.slice(0, 40))} is not a reason to reach a human`}: \`/escalate\` takes one of ${ESCALATION_REASONS.map((r) => `\`${r}\``).join(", ")}, then why (anything else is answered by agents, or blocked)`,
        };
      }
      const why = text.slice(text.indexOf(first) + first.length).trim();
      if (rest.length === 0 || why === "") return needs("a reason after the category");
      return { kind: "escalate", reason: reason.data, why };
    }
  }
}
