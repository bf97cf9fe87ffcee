import { describe, expect, it } from "vitest";
import type { BranchProtectionView, BranchRule } from "../../checks/setup/required-check.js";
import { RequiredCheckReader } from "./required-check.js";

const APP = { id: 77, slug: "agate-app" };

/** The adapter's two reads, answered from what GitHub would return, with the calls counted. */
function github(rules: BranchRule[] | Error, branch: BranchProtectionView | Error) {
  const calls: string[] = [];
  return {
    calls,
    async branchRules(name: string) {
      calls.push(`rules ${name}`);
      if (rules instanceof Error) throw rules;
      return rules;
    },
    async branchProtection(name: string) {
      calls.push(`branch ${name}`);
      if (branch instanceof Error) throw branch;
      return branch;
    },
  };
}

const requiring = (integration_id?: number): BranchRule => ({
  type: "required_status_checks",
  parameters: {
    required_status_checks: [{ context: "agate", ...(integration_id ? { integration_id } : {}) }],
  },
  ruleset_source_type: "Repository",
  ruleset_source: "o/r",
  ruleset_id: 5,
});
const unprotected: BranchProtectionView = { protected: false };

describe("RequiredCheckReader", () => {
  it("judges the branch's rules and protection against this App, the branch in a code span", async () => {
    let now = new Date("2026-12-04T10:00:00Z");
    const reader = new RequiredCheckReader({ app: async () => APP, now: () => now });
    const pinned = github([requiring(77)], unprotected);
    const ok = await reader.read(pinned, "o/r", "main");
    expect(ok).toMatchObject({ branch: "main", status: "ok", fix: null });
    expect(ok.summary).toBe("ruleset 5 of o/r requires agate on `main` from agate-app (app id 77)");
    // A ruleset that requires agate from this App settles it: branch protection is not read.
    expect(pinned.calls).toEqual(["rules main"]);
    now = new Date(now.getTime() + 1);
    const anySource = github([requiring()], unprotected);
    const open = await reader.read(anySource, "o/r", "dev");
    expect(open.status).toBe("problem");
    expect(open.summary).toContain("from any source");
    expect(anySource.calls).toEqual(["rules dev", "branch dev"]);
  });

  it("reuses a reading for its time to live, then reads again", async () => {
    let now = new Date("2026-12-04T10:00:00Z");
    const reader = new RequiredCheckReader({ app: async () => APP, now: () => now, ttlMs: 60_000 });
    const gh = github([], unprotected);
    expect((await reader.read(gh, "o/r", "main")).status).toBe("problem");
    now = new Date(now.getTime() + 59_000);
    await reader.read(gh, "o/r", "main");
    expect(gh.calls).toEqual(["rules main", "branch main"]);
    now = new Date(now.getTime() + 2_000);
    await reader.read(gh, "o/r", "main");
    expect(gh.calls).toHaveLength(4);
  });

  it("a read GitHub refuses makes the finding 'could not check' with the reason, not a problem", async () => {
    const refused = Object.assign(new Error("Resource not accessible by integration"), {
      status: 403,
    });
    const reader = new RequiredCheckReader({ app: async () => APP, now: () => new Date() });
    const fact = await reader.read(github([], refused), "o/r", "main");
    expect(fact.status).toBe("could-not-check");
    expect(fact.summary).toContain("cannot read branch `main`: GitHub answered 403");
    // A protected branch whose required checks are hidden from the token is unreadable, not
    // "nothing required": no false alarm from what the App cannot see.
    const hidden = await reader.read(github([], { protected: true }), "o/r", "hidden");
    expect(hidden.status).toBe("could-not-check");
    expect(hidden.summary).toContain("required status checks are not shown to this token");
    // An agate requirement found in the rules still decides, whatever the other read did.
    const found = await reader.read(github([requiring(77)], refused), "o/r", "other");
    expect(found.status).toBe("ok");
  });

  it("says from whom the branch requires agate and whether a merge queue is required (where a pass counts, issue 26)", async () => {
    const reader = new RequiredCheckReader({ app: async () => APP, now: () => new Date() });
    const queue: BranchRule = { type: "merge_queue" };
    expect(
      await reader.read(github([requiring(77), queue], unprotected), "o/r", "a"),
    ).toMatchObject({ requires: "this_app", merge_queue: true });
    expect(await reader.read(github([requiring()], unprotected), "o/r", "b")).toMatchObject({
      requires: "any_source",
      merge_queue: false,
    });
    expect(await reader.read(github([requiring(5)], unprotected), "o/r", "c")).toMatchObject({
      requires: "other_app",
    });
    expect(await reader.read(github([], unprotected), "o/r", "d")).toMatchObject({
      requires: "none",
      merge_queue: false,
    });
    const refused = Object.assign(new Error("no"), { status: 403 });
    expect(await reader.read(github(refused, unprotected), "o/r", "e")).toMatchObject({
      requires: "unknown",
      merge_queue: null,
    });
  });

  it("reads the default branch's name once per time to live; a failed read is read again", async () => {
    let now = new Date("2026-12-04T10:00:00Z");
    const reader = new RequiredCheckReader({ app: async () => APP, now: () => now, ttlMs: 60_000 });
    const names: string[] = [];
    let fail = true;
    const gh = {
      async defaultBranchName() {
        names.push("read");
        if (fail) throw new Error("GitHub is down");
        return "main";
      },
    };
    await expect(reader.defaultBranch(gh, "o/r")).rejects.toThrow("GitHub is down");
    fail = false;
    expect(await reader.defaultBranch(gh, "o/r")).toBe("main");
    expect(await reader.defaultBranch(gh, "o/r")).toBe("main");
    expect(names).toHaveLength(2);
    now = new Date(now.getTime() + 61_000);
    await reader.defaultBranch(gh, "o/r");
    expect(names).toHaveLength(3);
  });
});
