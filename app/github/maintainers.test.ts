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

describe("isMaintainer", () => {
  it("with nothing listed, is anyone with write access or more", async () => {
    const gh = github({ ada: "write", bo: "maintain", cy: "read", di: "admin" });
    expect(await isMaintainer(gh, "Ada", [])).toBe(true);
    expect(await isMaintainer(gh, "bo", [])).toBe(true);
    expect(await isMaintainer(gh, "di", [])).toBe(true);
    expect(await isMaintainer(gh, "cy", [])).toBe(false);
    expect(await isMaintainer(gh, "stranger", [])).toBe(false);
  });

  it("with a list, is a listed login (any case, with or without @) or a listed team's member", async () => {
    const gh = github({ ada: "admin" }, { "acme/core": ["bo"] });
    expect(await isMaintainer(gh, "CY", ["@cy"])).toBe(true);
    expect(await isMaintainer(gh, "bo", ["@acme/core"])).toBe(true);
    // Write access does not count once a list is given.
    expect(await isMaintainer(gh, "ada", ["@acme/core", "cy"])).toBe(false);
    expect(gh.calls).not.toContain("permission ada");
  });

  it("is never a bot, even a listed one with admin access", async () => {
    const gh = github({ "agent[bot]": "admin" });
    expect(await isMaintainer(gh, "agent[bot]", [])).toBe(false);
    expect(await isMaintainer(gh, "Agent[bot]", ["agent[bot]"])).toBe(false);
    expect(gh.calls).toEqual([]);
  });
});
