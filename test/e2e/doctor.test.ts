/**
 * `agate-gate doctor` end to end: the real CLI as a child process, against the GitHub simulator
 * (every request and response checked against GitHub's OpenAPI description). A well set-up
 * repository gives all ok; each misconfiguration gives its own finding and exit 1.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type Ctx,
  HttpError,
  json,
  type OperationTable,
  repoOf,
} from "../github/handlers/context.js";
import { statefulOperations } from "../github/handlers/index.js";
import * as s from "../github/serialize.js";
import { fullName } from "../github/state.js";
import { useSimulator } from "../github/use-simulator.js";

const run = promisify(execFile);
// The bundle the package ships (what `npx agate-gate doctor` runs); .ci/run builds it first.
const CLI = fileURLToPath(new URL("../../dist/cli/index.js", import.meta.url));

/**
 * The reads the doctor makes that the shared simulator does not answer yet: rulesets' rules on a
 * branch, a branch with its protection, an App by slug, an organisation's installations. Their
 * state lives here (set by each test); the replies are validated like every other. They belong in
 * test/github/handlers/ (repos.ts, apps.ts, orgs.ts) once that is open to change.
 */
interface Ruleset {
  id: number;
  statusChecks?: { context: string; integration_id?: number }[];
  mergeQueue?: boolean;
}
const rulesets = new Map<string, Ruleset[]>();
const protections = new Map<string, { context: string; app_id: number | null }[]>();

const ruleInfo = (ctx: Ctx, ruleset: Ruleset) => ({
  ruleset_source_type: "Repository",
  ruleset_source: fullName(repoOf(ctx)),
  ruleset_id: ruleset.id,
});

const doctorOperations: OperationTable = {
  "repos/get-branch-rules": {
    auth: "token",
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const rules = (rulesets.get(fullName(repo)) ?? []).flatMap((ruleset) => [
        ...(ruleset.statusChecks
          ? [
              {
                type: "required_status_checks",
                parameters: {
                  required_status_checks: ruleset.statusChecks,
                  strict_required_status_checks_policy: false,
                },
                ...ruleInfo(ctx, ruleset),
              },
            ]
          : []),
        ...(ruleset.mergeQueue ? [{ type: "merge_queue", ...ruleInfo(ctx, ruleset) }] : []),
      ]);
      return json(200, rules);
    },
  },
  "repos/get-branch": {
    auth: "token",
    handle: (ctx) => {
      const repo = repoOf(ctx);
      const branch = ctx.params.branch ?? "";
      const sha = repo.git.resolveCommit(`refs/heads/${branch}`);
      if (!sha) throw new HttpError(404, "Branch not found");
      const api = `${ctx.world.urls.api}/repos/${fullName(repo)}/branches/${branch}`;
      const checks = protections.get(fullName(repo));
      return json(200, {
        name: branch,
        commit: s.commit(ctx.world.urls, repo, repo.git.readCommit(sha), (email) =>
          ctx.world.accountByEmail(email),
        ),
        _links: { self: api, html: `${ctx.world.urls.html}/${fullName(repo)}/tree/${branch}` },
        protected: checks !== undefined,
        protection: {
          enabled: checks !== undefined,
          required_status_checks: {
            enforcement_level: checks ? "everyone" : "off",
            contexts: (checks ?? []).map((check) => check.context),
            checks: checks ?? [],
          },
        },
        protection_url: `${api}/protection`,
      });
    },
  },
  "apps/get-by-slug": {
    auth: "token",
    handle: (ctx) => {
      if (ctx.params.app_slug !== ctx.world.app.slug) throw new HttpError(404, "Not Found");
      return json(200, s.integration(ctx.world.urls, ctx.world.app));
    },
  },
  "orgs/list-app-installations": {
    auth: "token",
    permission: ["organization_administration", "read"],
    handle: (ctx) => {
      const org = (ctx.params.org ?? "").toLowerCase();
      const items = [...ctx.world.installations.values()].filter(
        (item) => item.account.login.toLowerCase() === org,
      );
      return json(200, {
        total_count: items.length,
        installations: items.map((item) => s.installation(ctx.world.urls, item, ctx.world.app)),
      });
    },
  },
};
// The router looks an operation up when a request arrives, so these answer from now on.
Object.assign(statefulOperations, doctorOperations);

const CONFIG = "version: 1\ncommands:\n  - name: tests\n    run: npm test\n";
const WORKFLOW = `name: agate
on:
  pull_request:
  merge_group:
permissions:
  contents: read
jobs:
  agate-commands:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - name: agate
        uses: agate-gate/agate@v0
`;

const { sim } = useSimulator();
const REPO = "widgets";

beforeEach(() => {
  rulesets.clear();
  protections.clear();
});

async function setUp(
  files: Record<string, string> = {},
  ruleset: Ruleset | null = { id: 1, statusChecks: [{ context: "agate", integration_id: 0 }] },
) {
  await sim.createRepository({
    repo: REPO,
    files: { ".github/agate.yml": CONFIG, ".github/workflows/agate.yml": WORKFLOW, ...files },
  });
  if (ruleset) {
    rulesets.set(`${sim.owner}/${REPO}`, [
      {
        ...ruleset,
        statusChecks: ruleset.statusChecks?.map((check) =>
          check.integration_id === 0 ? { ...check, integration_id: sim.appId } : check,
        ),
      },
    ]);
  }
}

/** A maintainer's token: reads the repository; an owner's also lists the installations. */
function token(owner = true): string {
  return sim.createToken({
    actor: "maintainer",
    permissions: {
      contents: "read",
      metadata: "read",
      ...(owner ? { organization_administration: "read" } : {}),
    },
  });
}

interface Finding {
  check: string;
  status: string;
  summary: string;
  fix: string | null;
  details?: string[];
}

async function doctor(
  args: string[],
  env: Record<string, string> = { GITHUB_TOKEN: token() },
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI, "doctor", "--api-url", sim.apiUrl, ...args],
      { env: { PATH: process.env.PATH ?? "", ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

async function findings(...extra: string[]): Promise<{ code: number; findings: Finding[] }> {
  const result = await doctor([
    "--repo",
    `${sim.owner}/${REPO}`,
    "--app",
    sim.appSlug,
    "--json",
    ...extra,
  ]);
  expect(result.stderr).toBe("");
  const parsed = JSON.parse(result.stdout) as { findings: Finding[] };
  return { code: result.code, findings: parsed.findings };
}

function only(list: Finding[], check: string): Finding {
  const matching = list.filter((finding) => finding.check === check);
  expect(matching, check).toHaveLength(1);
  return matching[0] as Finding;
}

function notOk(list: Finding[]): Finding[] {
  return list.filter((finding) => finding.status !== "ok");
}

describe("agate-gate doctor against the simulator", { timeout: 60_000 }, () => {
  it("a well set-up repository: every finding ok, exit 0, every read answered from state", async () => {
    await setUp();
    sim.clearCalls();
    const result = await doctor(["--repo", `${sim.owner}/${REPO}`, "--app", sim.appSlug]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`agate doctor: ${sim.owner}/${REPO} (default branch main)`);
    expect(result.stdout).toContain("No problem found.");
    expect(result.stdout).not.toMatch(/PROBLEM|could not check/);
    expect(result.stdout).toContain(
      `ruleset 1 of ${sim.owner}/${REPO} requires agate on main from ${sim.appSlug} (app id ${sim.appId})`,
    );
    expect(sim.callLog.map((call) => [call.operationId, call.handledBy, call.status])).toEqual(
      [
        "repos/get",
        "repos/get-content",
        "apps/get-by-slug",
        "repos/get-content",
        "repos/get-branch-rules",
        "repos/get-branch",
        "orgs/list-app-installations",
      ].map((id) => [id, "stateful", 200]),
    );

    const { findings: all } = await findings();
    expect(all.map((finding) => [finding.check, finding.status])).toEqual([
      ["config", "ok"],
      ["workflow", "ok"],
      ["workflow permissions", "ok"],
      ["required check", "ok"],
      ["app", "ok"],
      ["installation", "ok"],
    ]);
  });

  it("no ruleset and no branch protection: the required check is a problem", async () => {
    await setUp({}, null);
    const { code, findings: all } = await findings();
    expect(code).toBe(1);
    expect(notOk(all)).toEqual([
      {
        check: "required check",
        status: "problem",
        summary:
          "no ruleset or branch protection requires agate on main: pull requests can merge whatever agate decides",
        fix: `in a ruleset on main (Settings → Rules → Rulesets), require the status check agate with ${sim.appSlug} as its source`,
      },
    ]);
  });

  it("a ruleset that requires agate from any source is a problem; branch protection pinned to the App is ok", async () => {
    await setUp({}, { id: 7, statusChecks: [{ context: "agate" }] });
    const { code, findings: all } = await findings();
    expect(code).toBe(1);
    const required = only(notOk(all), "required check");
    expect(required.status).toBe("problem");
    expect(required.summary).toContain(
      `ruleset 7 of ${sim.owner}/${REPO} requires agate on main from any source`,
    );
    expect(required.fix).toBe(`pick ${sim.appSlug} as the check's source there`);

    // Another App's id is no better than none; branch protection with agate's id is.
    rulesets.set(`${sim.owner}/${REPO}`, [
      { id: 7, statusChecks: [{ context: "agate", integration_id: 15368 }] },
    ]);
    const other = only((await findings()).findings, "required check");
    expect(other.status).toBe("problem");
    expect(other.summary).toContain("from app id 15368, not from");
    protections.set(`${sim.owner}/${REPO}`, [{ context: "agate", app_id: sim.appId }]);
    const pinned = await findings();
    expect(pinned.code).toBe(0);
    expect(only(pinned.findings, "required check").summary).toBe(
      `branch protection requires agate on main from ${sim.appSlug} (app id ${sim.appId})`,
    );
  });

  it("a workflow with permissions: write-all is a problem", async () => {
    await setUp({
      ".github/workflows/agate.yml": WORKFLOW.replace(
        "permissions:\n  contents: read\n",
        "permissions: write-all\n",
      ),
    });
    const { code, findings: all } = await findings();
    expect(code).toBe(1);
    expect(notOk(all)).toEqual([
      {
        check: "workflow permissions",
        status: "problem",
        summary:
          ".github/workflows/agate.yml sets permissions: write-all: the pull request's code could push, label and approve with the job's token",
        fix: "set `permissions: contents: read` on the workflow or the job, and nothing else",
      },
    ]);
  });

  it("an invalid config on the default branch is a problem that lists its errors", async () => {
    await setUp({ ".github/agate.yml": `${CONFIG}budgets:\n  graded_atempts_per_pr: 3\n` });
    const { code, findings: all } = await findings();
    expect(code).toBe(1);
    const config = only(notOk(all), "config");
    expect(config).toMatchObject({
      status: "problem",
      summary:
        ".github/agate.yml on main is invalid (1 problem): every gated pull request into it is blocked",
      fix: "fix it on main (agate-gate validate shows the same problems locally)",
    });
    expect(config.details?.[0]).toContain(
      "budgets.graded_atempts_per_pr at line 6, column 3: unknown key; did you mean graded_attempts_per_pr?",
    );
  });

  it("what the token cannot see is 'could not check' with the reason, and is not a problem", async () => {
    await setUp();
    const result = await doctor(["--repo", `${sim.owner}/${REPO}`, "--app", sim.appSlug], {
      GITHUB_TOKEN: token(false),
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `could not check +installation: GitHub lists ${sim.owner}'s installations only to an organisation owner's token \\(403\\)`,
      ),
    );
    expect(result.stdout).toContain("No problem found; 1 thing could not be checked");

    // Without --app the App-related findings say what is needed to check them.
    const unnamed = await doctor(["--repo", `${sim.owner}/${REPO}`], { GH_TOKEN: token() });
    expect(unnamed.code).toBe(0);
    expect(unnamed.stdout).toContain("→ name the App: --app SLUG");
  });

  it("an installation that has not granted a permission agate needs is a problem", async () => {
    await setUp();
    const installation = [...sim.world.installations.values()][0];
    if (!installation) throw new Error("the simulator has no installation");
    delete installation.permissions.checks;
    const { code, findings: all } = await findings();
    expect(code).toBe(1);
    expect(only(notOk(all), "installation")).toMatchObject({
      status: "problem",
      summary: `the installation on ${sim.owner} has not granted permissions checks: write`,
    });
  });

  it("usage: no token, no repository, an unreadable repository exit 2 and say what to set", async () => {
    const noToken = await doctor(["--repo", "a/b"], {});
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("no token: set GITHUB_TOKEN or GH_TOKEN");
    const noRepo = await doctor([]);
    expect(noRepo.code).toBe(2);
    expect(noRepo.stderr).toContain("no repository: pass --repo OWNER/NAME");
    const missing = await doctor(["--repo", `${sim.owner}/nothing-here`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `${sim.owner}/nothing-here is not visible to this token (404)`,
    );
  });
});
