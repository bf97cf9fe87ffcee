import { type Account, isBot, isPerson } from "../accounts.js";
import { shortSha as short } from "../markdown.js";

/** A maintainer's command in a pull request comment: `/agate accept <sha> <reason>`. */
export type OverrideCommand =
  | { kind: "accept"; sha: string; reason: string }
  | { kind: "invalid"; problem: string };

const COMMAND = /^\/agate\s+accept\b(.*)$/s;
/** The whole SHA: a prefix could name a commit the agent ground to match it. */
const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Reads the command at the start of a comment; null when the comment is not one (anything not
 * starting with `/agate accept`). The whole SHA is required so that an acceptance can only ever
 * be of the commit the maintainer looked at: never of one pushed while they typed, nor of one
 * ground to share a short prefix with it.
 */
export function parseOverrideComment(body: string): OverrideCommand | null {
  const match = COMMAND.exec(body.trimStart());
  if (!match) return null;
  const rest = (match[1] ?? "").trim();
  const [sha = "", ...words] = rest.split(/\s+/);
  if (!FULL_SHA.test(sha)) {
    return {
      kind: "invalid",
      problem:
        "the command needs the commit to accept, by its whole SHA, and a reason: `/agate accept <sha> <why this commit may merge>` (a short SHA could name another commit made to match it)",
    };
  }
  const reason = rest.slice(rest.indexOf(sha) + sha.length).trim();
  if (words.length === 0 || reason.length < 3) {
    return {
      kind: "invalid",
      problem:
        "the command needs a reason after the SHA: `/agate accept <sha> <why this commit may merge>`; it is stored with the acceptance",
    };
  }
  return { kind: "accept", sha, reason: reason.slice(0, 1_000) };
}

/**
 * Whether an accept command counts: from a maintainer by the one maintainer test
 * (app/github/maintainers.ts: a person's account listed in the base config's
 * `escalation.maintainers` or its teams, or with write access when none is listed) who is not the
 * author (an agent must never accept its own work), naming the live head. Write access alone is
 * not enough where maintainers are listed: an agent's machine user often has it.
 */
export function judgeOverride(input: {
  command: Extract<OverrideCommand, { kind: "accept" }>;
  commenter: Account;
  /** The maintainer test's answer for the commenter. */
  maintainer: boolean;
  /** `escalation.maintainers` of the base config (empty: anyone with write access). */
  maintainers: readonly string[];
  author: string;
  headSha: string;
}): { ok: true } | { ok: false; problem: string } {
  const { command, commenter } = input;
  const login = commenter.login.toLowerCase();
  if (isBot(commenter)) {
    return { ok: false, problem: "a bot cannot accept a commit; a maintainer must" };
  }
  if (!isPerson(commenter)) {
    return {
      ok: false,
      problem: `only a person's account can accept a commit; GitHub says ${commenter.login}'s is ${commenter.type ? `of type ${commenter.type}` : "of no known type"}`,
    };
  }
  if (login === input.author.toLowerCase()) {
    return { ok: false, problem: "the author of a pull request cannot accept it" };
  }
  if (!input.maintainer) {
    return {
      ok: false,
      problem:
        input.maintainers.length === 0
          ? `only a maintainer can accept a commit: with no escalation.maintainers in the base config, that is someone with write access or more, which ${commenter.login} does not have`
          : `only a maintainer can accept a commit: ${commenter.login} is not one of escalation.maintainers in the base config (${input.maintainers.join(", ")})`,
    };
  }
  if (input.headSha !== command.sha) {
    return {
      ok: false,
      problem: `the head is now ${short(input.headSha)}, not ${command.sha.slice(0, 12)}: look at the new commit and accept it by its SHA`,
    };
  }
  return { ok: true };
}
