import { describe, expect, it } from "vitest";
import { isMaintainer } from "./maintainers.js";

/** The adapter's two reads, answered from tables, counting the calls made. */
function github(permissions: Record<string, string>, teams: Record<string, string[]> = {}) {
  const calls: string[] = [];
  return {
    calls,
    async permission(login: string) {
      calls.push(`permission ${login}`);
      return permissions[login] ?? "none";
    },
    async isTeamMember(org: string, team: string, login: string) {
      calls.push(`team ${org}/${team} ${login}`);
      return (teams[`${org}/${team}`] ?? []).includes(login);
    },
  };
}

const user = (login: string) => ({ login, type: "User" });

describe("isMaintainer", () => {
  it("with nothing listed, is anyone with write access or more", async () => {
    const gh = github({ ada: "write", bo: "maintain", cy: "read", di: "admin" });
    expect(await isMaintainer(gh, user("Ada"), [])).toBe(true);
    expect(await isMaintainer(gh, user("bo"), [])).toBe(true);
    expect(await isMaintainer(gh, user("di"), [])).toBe(true);
    expect(await isMaintainer(gh, user("cy"), [])).toBe(false);
    expect(await isMaintainer(gh, user("stranger"), [])).toBe(false);
  });

  it("with a list, is a listed login (any case, with or without @) or a listed team's member", async () => {
    const gh = github({ ada: "admin" }, { "acme/core": ["bo"] });
    expect(await isMaintainer(gh, user("CY"), ["@cy"])).toBe(true);
    expect(await isMaintainer(gh, user("bo"), ["@acme/core"])).toBe(true);
    // Write access does not count once a list is given.
    expect(await isMaintainer(gh, user("ada"), ["@acme/core", "cy"])).toBe(false);
    expect(gh.calls).not.toContain("permission ada");
  });

  it("is never a bot, even a listed one with admin access", async () => {
    const gh = github({ "agent[bot]": "admin" });
    expect(await isMaintainer(gh, user("agent[bot]"), [])).toBe(false);
    expect(await isMaintainer(gh, user("Agent[bot]"), ["agent[bot]"])).toBe(false);
    expect(gh.calls).toEqual([]);
  });

  it("goes by GitHub's account type, not the login: a machine user of type Bot without `[bot]` never counts (issue 26)", async () => {
    const gh = github({ "agent-machine": "admin" }, { "acme/core": ["agent-machine"] });
    const bot = { login: "agent-machine", type: "Bot" };
    expect(await isMaintainer(gh, bot, [])).toBe(false);
    expect(await isMaintainer(gh, bot, ["agent-machine"])).toBe(false);
    expect(await isMaintainer(gh, bot, ["@acme/core"])).toBe(false);
    // Nor an account whose type GitHub did not say, nor an organisation or a mannequin.
    expect(await isMaintainer(gh, { login: "agent-machine", type: null }, [])).toBe(false);
    expect(await isMaintainer(gh, { login: "agent-machine", type: "Mannequin" }, [])).toBe(false);
    expect(gh.calls).toEqual([]);
    // The same login as a person's account does.
    expect(await isMaintainer(gh, user("agent-machine"), [])).toBe(true);
  });
});
