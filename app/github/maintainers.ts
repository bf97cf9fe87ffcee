/**
 * Who counts as a maintainer, one test for the gate (approvals) and the handoff entries
 * (/block, /escalate, deciding an escalation): a login listed in `maintainers`, a member of a
 * listed `@org/team`, or, when nothing is listed, anyone with write access. A bot never does:
 * an agent must not approve or decide its own work.
 */
import type { GitHubAdapter } from "./adapter.js";

const WRITE_PERMISSIONS = new Set(["admin", "maintain", "write"]);

export async function isMaintainer(
  github: Pick<GitHubAdapter, "permission" | "isTeamMember">,
  login: string,
  maintainers: readonly string[],
): Promise<boolean> {
  const who = login.toLowerCase();
  if (who.endsWith("[bot]")) return false;
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
