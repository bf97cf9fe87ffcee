/**
 * Who counts as a maintainer, one test for every decision a maintainer makes: approvals of
 * protected paths and the `review` evaluator, `/agate accept`, and the handoff entries (/block,
 * /escalate, deciding an escalation, as the dashboard lists them): a login listed in
 * `maintainers`, a member of a listed `@org/team`, or, when nothing is listed, anyone with write
 * access. Only a person's account does: GitHub's account type says so (`User`), not the login's
 * text. A bot (an App's account, or a machine user GitHub types `Bot`) never does, listed or not:
 * an agent must not approve, accept or decide its own work.
 */
import { type Account, isPerson } from "../../checks/accounts.js";
import type { GitHubAdapter } from "./adapter.js";

export type { Account } from "../../checks/accounts.js";

const WRITE_PERMISSIONS = new Set(["admin", "maintain", "write"]);

export async function isMaintainer(
  github: Pick<GitHubAdapter, "permission" | "isTeamMember">,
  account: Account,
  maintainers: readonly string[],
): Promise<boolean> {
  if (!isPerson(account)) return false;
  const who = account.login.toLowerCase();
  if (maintainers.length === 0) return WRITE_PERMISSIONS.has(await github.permission(who));
  for (const entry of maintainers) {
    const team = /^@([^/]+)\/(.+)$/.exec(entry);
    if (team?.[1] && team[2]) {
      if (await github.isTeamMember(team[1], team[2], who)) return true;
    } else if (entry.replace(/^@/, "").toLowerCase() === who) {
      return true;
    }
  }
  return false;
}
