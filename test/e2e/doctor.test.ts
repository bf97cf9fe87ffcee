/**
 * `agate-gate doctor` end to end: the real CLI as a child process, against the GitHub simulator
 * (every request and response checked against GitHub's OpenAPI description). A well set-up
 * repository gives all ok; each misconfiguration gives its own finding and exit 1.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { doctorReportSchema, type Finding } from "../../schemas/doctor.js";
import type { RequiredStatusCheck } from "../github/state.js";
import { useSimulator } from "../github/use-simulator.js";

const run = promisify(execFile);
// The bundle the package ships (what `npx agate-gate doctor` runs); .ci/run builds it first.
const CLI = fileURLToPath(new URL("../../dist/cli/index.js", import.meta.url));

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

/** The repository with its files and, by default, a ruleset requiring agate from the App. */
async function setUp(
  files: Record<string, string> = {},
  requiredChecks: RequiredStatusCheck[] | null = [{ context: "agate", integration_id: 0 }],
): Promise<number | null> {
  await sim.createRepository({
    repo: REPO,
    files: { ".github/agate.yml": CONFIG, ".github/workflows/agate.yml": WORKFLOW, ...files },
  });
  if (!requiredChecks) return null;
  return sim.addRuleset({
    repo: REPO,
    // 0 stands for the simulated App's id, which each simulator draws afresh.
    requiredChecks: requiredChecks.map((check) =>
      check.integration_id === 0 ? { ...check, integration_id: sim.appId } : check,
    ),
  });
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
  // What scripts read: the published schema's shape (schemas/doctor-report.schema.json).
  const parsed = doctorReportSchema.parse(JSON.parse(result.stdout));
  expect(parsed.repository).toBe(`${sim.owner}/${REPO}`);
  return { code: result.code, findings: parsed.findings };
}

function only(list: Finding[], check: string): Finding {
  const matching = list.filter((finding) => finding.check === check);
  expect(matching, check).toHaveLength(1);
  return matching[0] as Finding;
}

/** The findings that are not ok, the advice to require a merge queue aside. */
function notOk(list: Finding[]): Finding[] {
  return list.filter((finding) => finding.status !== "ok" && finding.status !== "advice");
}

/** A finding of a problem, as the report lists it. */
const problem = (check: Finding["check"], summary: string, fix: string): Finding => ({
  check,
  status: "problem",
  summary,
  fix,
});

/** A doctor run that found a problem: it exits 1; the findings that are not ok. */
async function problems(): Promise<Finding[]> {
  const { code, findings: all } = await findings();
  expect(code).toBe(1);
  return notOk(all);
}

describe("agate-gate doctor against the simulator", { timeout: 60_000 }, () => {
  it("a well set-up repository: every finding ok (a merge queue only advised), exit 0, every read answered from state", async () => {
    const ruleset = await setUp();
    sim.clearCalls();
    const result = await doctor(["--repo", `${sim.owner}/${REPO}`, "--app", sim.appSlug]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`agate doctor: ${sim.owner}/${REPO} (default branch main)`);
    expect(result.stdout).toContain("No problem found.");
    expect(result.stdout).not.toMatch(/PROBLEM|could not check/);
    expect(result.stdout).toContain(
      `ruleset ${ruleset} of ${sim.owner}/${REPO} requires agate on main from ${sim.appSlug} (app id ${sim.appId})`,
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
      ["merge queue", "advice"],
      ["app", "ok"],
      ["installation", "ok"],
    ]);
  });

  it("no ruleset and no branch protection: the required check is a problem", async () => {
    await setUp({}, null);
    expect(await problems()).toEqual([
      problem(
        "required check",
        "no ruleset or branch protection requires agate on main: pull requests can merge whatever agate decides",
        `in a ruleset on main (Settings → Rules → Rulesets), require the status check agate with ${sim.appSlug} as its source`,
      ),
    ]);
  });

  it("a ruleset that requires agate from any source is a problem; branch protection pinned to the App is ok", async () => {
    const ruleset = await setUp({}, [{ context: "agate" }]);
    const found = await problems();
    const required = only(found, "required check");
    expect(required.status).toBe("problem");
    expect(required.summary).toContain(
      `ruleset ${ruleset} of ${sim.owner}/${REPO} requires agate on main from any source`,
    );
    expect(required.fix).toBe(`pick ${sim.appSlug} as the check's source there`);

    // Another App's id is no better than none; branch protection with agate's id is.
    const rulesets = sim.repository({ repo: REPO }).rulesets;
    rulesets.splice(0, rulesets.length);
    sim.addRuleset({ repo: REPO, requiredChecks: [{ context: "agate", integration_id: 15368 }] });
    const other = only((await findings()).findings, "required check");
    expect(other.status).toBe("problem");
    expect(other.summary).toContain("from app id 15368, not from");
    sim.protectBranch({
      repo: REPO,
      branch: "main",
      requiredChecks: [{ context: "agate", integration_id: sim.appId }],
    });
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
    expect(await problems()).toEqual([
      problem(
        "workflow permissions",
        ".github/workflows/agate.yml sets permissions: write-all: the pull request's code could push, label and approve with the job's token",
        "set `permissions: contents: read` on the workflow or the job, and nothing else",
      ),
    ]);
  });

  it("an invalid config on the default branch is a problem that lists its errors", async () => {
    await setUp({ ".github/agate.yml": `${CONFIG}budgets:\n  graded_atempts_per_pr: 3\n` });
    const found = await problems();
    const config = only(found, "config");
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
    // The 403 is the doctor's to explain: Octokit prints no line of its own about it.
    expect(result.stderr).toBe("");

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
    const found = await problems();
    expect(only(found, "installation")).toMatchObject({
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
    expect(missing.stderr).toBe(
      `agate: doctor: ${sim.owner}/nothing-here is not visible to this token (404): check --repo, and that the token can read the repository\n`,
    );
  });
});
