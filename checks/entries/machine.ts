/**
 * The handoff entry's state machine: facts in (the entry, a command or the clock, the config's
 * counters), the next entry and what to say out. Pure: the App stores the step with a
 * compare-and-set, posts its reply and moves the labels.
 *
 *   open ──► claimed ──► resolved        claimed ──► open (claim ended: expired or released)
 *   open ──► blocked (nobody can help, unanswered too long, too many ends or follow-ups)
 *   any non-terminal ──► escalated (money, external, irreversible, credentials, scope)
 *
 * resolved, blocked and escalated are terminal: every later command is refused.
 */
import type { Config } from "../../schemas/config.js";
import type {
  EntryDeadline,
  EntryEventInput,
  EntryEventKind,
  HandoffEntry,
  HandoffEntryDraft,
  HandoffEntryFields,
  HandoffEntryState,
} from "../../schemas/handoff-entry.js";
import { TERMINAL_ENTRY_STATES } from "../../schemas/handoff-entry.js";
import type { EntryCommand } from "./commands.js";
import * as say from "./replies.js";

export type EscalationRules = Config["escalation"];

/** One change: the entry as it is to be stored, and its event (reply included). */
export interface EntryStep {
  entry: HandoffEntryDraft;
  event: EntryEventInput;
}

const isTerminal = (state: HandoffEntryState) =>
  (TERMINAL_ENTRY_STATES as readonly string[]).includes(state);

const same = (a: string | null, b: string | null) =>
  a !== null && b !== null && a.toLowerCase() === b.toLowerCase();

const deadline = (kind: EntryDeadline["kind"], at: Date, ms: number): EntryDeadline => ({
  kind,
  at: new Date(at.getTime() + ms).toISOString(),
});

/** A new entry from a valid form: open, with its unanswered deadline. */
export function openEntry(input: {
  repository: string;
  issue_number: number;
  author: string;
  fields: HandoffEntryFields;
  at: Date;
  rules: EscalationRules;
}): EntryStep {
  const at = input.at.toISOString();
  const entry: HandoffEntryDraft = {
    repository: input.repository,
    issue_number: input.issue_number,
    author: input.author,
    fields: input.fields,
    state: "open",
    owner: null,
    follow_ups: 0,
    claim_expiries: 0,
    escalation_reason: null,
    why: null,
    deadline: deadline("unanswered", input.at, input.rules.unanswered_timeout),
    comments_through: 0,
    opened_at: at,
    state_changed_at: at,
  };
  return {
    entry,
    event: {
      kind: "opened",
      actor: input.author,
      comment_id: null,
      reason: "opened with every required field",
      reply: say.opened(entry, input.rules),
      mentions: [],
      at,
    },
  };
}

interface Change {
  kind: EntryEventKind;
  reason: string;
  reply: string;
  mentions?: string[];
  next?: Partial<HandoffEntryDraft>;
}

function step(
  entry: HandoffEntry,
  change: Change,
  actor: string,
  commentId: number | null,
  at: Date,
): EntryStep {
  const { version: _version, ...current } = entry;
  const next: HandoffEntryDraft = { ...current, ...change.next };
  if (commentId !== null) next.comments_through = Math.max(entry.comments_through, commentId);
  if (next.state !== entry.state) next.state_changed_at = at.toISOString();
  if (isTerminal(next.state)) next.deadline = null;
  return {
    entry: next,
    event: {
      kind: change.kind,
      actor,
      comment_id: commentId,
      reason: change.reason,
      reply: change.reply,
      mentions: change.mentions ?? [],
      at: at.toISOString(),
    },
  };
}

const refused = (reason: string, reply: string): Change => ({ kind: "refused", reason, reply });

/** A claim that ended without an answer: back to open, or blocked at the configured count. */
function claimEnded(
  entry: HandoffEntry,
  how: "expired" | "released",
  at: Date,
  rules: EscalationRules,
): Change {
  const ends = entry.claim_expiries + 1;
  const limit = rules.claim_expiries_before_blocked;
  const owner = entry.owner ?? "";
  const kind: EntryEventKind = how === "expired" ? "claim_expired" : "released";
  if (ends >= limit) {
    const why = `claim ${ends} of ${limit} ended without an answer (${how})`;
    return {
      kind,
      reason: why,
      reply: say.claimEnded({ owner, how, ends, limit, blocked: true, rules }),
      next: { state: "blocked", owner: null, claim_expiries: ends, why },
    };
  }
  return {
    kind,
    reason: `claim by ${owner} ${how} (${ends} of ${limit})`,
    reply: say.claimEnded({ owner, how, ends, limit, blocked: false, rules }),
    next: {
      state: "open",
      owner: null,
      claim_expiries: ends,
      deadline: deadline("unanswered", at, rules.unanswered_timeout),
    },
  };
}

/**
 * Whether the command's outcome depends on the actor being a maintainer, which only the App can
 * find out (a listed login, a member of a listed team, or write access when none is listed: the
 * gate's test). Asked first, so the App makes that call only when it matters.
 */
export function needsMaintainerTest(
  entry: HandoffEntry,
  command: EntryCommand,
  actor: string,
): boolean {
  // The entry's own author and owner never decide its escalation, whatever their access.
  if (command.kind === "answer") return entry.state === "escalated" && !involved(entry, actor);
  if (command.kind !== "block" && command.kind !== "escalate") return false;
  return !isTerminal(entry.state) && !involved(entry, actor);
}

/** The entry's author or owner: who may park it without being a maintainer, and never decide it. */
const involved = (entry: HandoffEntry, actor: string) =>
  same(actor, entry.author) || same(actor, entry.owner);

/** Who may park or escalate an entry: its author, its owner, or a maintainer. */
const mayPark = (entry: HandoffEntry, actor: string, maintainer: boolean) =>
  involved(entry, actor) || maintainer;

/** Who gives a command, and when: what each command's rule reads besides the entry. */
interface Asked {
  actor: string;
  /** The App's maintainer test for the actor (needsMaintainerTest says when it was made). */
  maintainer: boolean;
  at: Date;
  rules: EscalationRules;
}

type CommandRule<K extends EntryCommand["kind"]> = (
  entry: HandoffEntry,
  command: Extract<EntryCommand, { kind: K }>,
  asked: Asked,
) => Change;

/** A command only the entry's owner may give. */
const byOwner = (entry: HandoffEntry, what: string, actor: string): Change | null =>
  same(actor, entry.owner)
    ? null
    : refused(`${what} by ${actor}, who is not the owner`, say.notOwner(entry, what, actor));

/** What each command does to an entry that is not terminal. */
const COMMANDS: { [K in EntryCommand["kind"]]: CommandRule<K> } = {
  invalid: (_entry, command) =>
    refused(`invalid /${command.command}`, say.invalid(command.problem)),
  claim: (entry, _command, { actor, at, rules }) => {
    if (same(actor, entry.author)) {
      return refused("claim by the author", say.authorCannotClaim(entry.author));
    }
    if (entry.state === "claimed") {
      return same(actor, entry.owner)
        ? refused("claim by the owner again", say.alreadyYours(entry))
        : refused(`claim by ${actor} while ${entry.owner} owns it`, say.claimedBy(entry, actor));
    }
    return {
      kind: "claimed",
      reason: `claimed by ${actor}`,
      reply: say.claimed(actor, rules),
      next: {
        state: "claimed",
        owner: actor,
        deadline: deadline("claim", at, rules.claim_timeout),
      },
    };
  },
  answer: (entry, _command, { actor }) =>
    byOwner(entry, "answer", actor) ?? {
      kind: "answered",
      reason: `answered by ${actor}`,
      reply: say.answered(entry),
      next: { state: "resolved" },
    },
  ask: (entry, _command, { actor, rules }) => {
    const notOwner = byOwner(entry, "follow-up question", actor);
    if (notOwner) return notOwner;
    const asked = entry.follow_ups + 1;
    if (asked > rules.follow_up_limit) {
      const why = `follow-up question ${asked} is over the limit of ${rules.follow_up_limit}`;
      return {
        kind: "blocked",
        reason: why,
        reply: say.tooManyFollowUps(asked, rules.follow_up_limit),
        next: { state: "blocked", owner: null, follow_ups: asked, why },
      };
    }
    return {
      kind: "asked",
      reason: `follow-up question ${asked} of ${rules.follow_up_limit} by ${actor}`,
      reply: say.asked(entry, asked, rules.follow_up_limit),
      next: { follow_ups: asked },
    };
  },
  release: (entry, _command, { actor, at, rules }) =>
    byOwner(entry, "release", actor) ?? claimEnded(entry, "released", at, rules),
  block: (entry, command, { actor, maintainer }) => {
    if (!mayPark(entry, actor, maintainer)) {
      return refused(`block by ${actor}`, say.notParticipant(entry, "block", actor));
    }
    return {
      kind: "blocked",
      reason: `blocked by ${actor}: ${command.why}`,
      reply: say.blocked(actor, command.why),
      next: { state: "blocked", owner: null, why: command.why },
    };
  },
  escalate: (entry, command, { actor, maintainer, rules }) => {
    if (!mayPark(entry, actor, maintainer)) {
      return refused(`escalate by ${actor}`, say.notParticipant(entry, "escalate", actor));
    }
    const mentions = rules.maintainers.map((m) => (m.startsWith("@") ? m : `@${m}`));
    return {
      kind: "escalated",
      reason: `escalated by ${actor} (${command.reason}): ${command.why}`,
      reply: say.escalated(actor, command.reason, command.why, mentions),
      mentions,
      next: { state: "escalated", escalation_reason: command.reason, why: command.why },
    };
  },
};

function decide(entry: HandoffEntry, command: EntryCommand, asked: Asked): Change {
  const { actor, maintainer } = asked;
  // An escalation waits for a maintainer's decision, which is the one thing that ends it.
  if (
    entry.state === "escalated" &&
    command.kind === "answer" &&
    maintainer &&
    !involved(entry, actor)
  ) {
    return {
      kind: "answered",
      reason: `decided by the maintainer ${actor}`,
      reply: say.decided(entry, actor),
      next: { state: "resolved" },
    };
  }
  if (isTerminal(entry.state)) {
    return refused(`${command.kind} on a ${entry.state} entry`, say.terminal(entry));
  }
  const rule = COMMANDS[command.kind] as CommandRule<typeof command.kind>;
  return rule(entry, command, asked);
}

/**
 * A command from a comment. Null when that comment was handled already (its id is not above
 * `comments_through`): a redelivered or late webhook changes nothing and says nothing again.
 */
export function applyCommand(
  entry: HandoffEntry,
  input: {
    command: EntryCommand;
    actor: string;
    comment_id: number;
    at: Date;
    /** The App's maintainer test for the actor; needed only where needsMaintainerTest says. */
    maintainer?: boolean;
  },
  rules: EscalationRules,
): EntryStep | null {
  if (input.comment_id <= entry.comments_through) return null;
  const change = decide(entry, input.command, {
    actor: input.actor,
    maintainer: input.maintainer ?? false,
    at: input.at,
    rules,
  });
  return step(entry, change, input.actor, input.comment_id, input.at);
}

/**
 * The clock: when the entry's deadline has passed, the claim ends or the open entry is blocked.
 * Null when nothing is due (no deadline, or not yet), so an early or superseded timer is a no-op.
 */
export function applyDeadline(
  entry: HandoffEntry,
  at: Date,
  rules: EscalationRules,
): EntryStep | null {
  const due = entry.deadline;
  if (!due || at.getTime() < Date.parse(due.at)) return null;
  if (due.kind === "claim" && entry.state === "claimed") {
    return step(entry, claimEnded(entry, "expired", at, rules), "agate", null, at);
  }
  if (due.kind === "unanswered" && entry.state === "open") {
    const why = `unanswered for ${say.duration(rules.unanswered_timeout)}`;
    return step(
      entry,
      {
        kind: "blocked",
        reason: why,
        reply: say.unanswered(rules.unanswered_timeout),
        next: { state: "blocked", why },
      },
      "agate",
      null,
      at,
    );
  }
  return null;
}

/** Priority is derived, never set: blocking while an agent waits on an unresolved entry. */
export function entryPriority(
  state: HandoffEntryState,
  agentWaiting: boolean,
): "blocking" | "background" {
  return agentWaiting && state !== "resolved" ? "blocking" : "background";
}
