import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "../checks/config/parse-config.js";
import { ConfigurationError } from "../checks/errors.js";
import { useSimulator } from "../test/github/use-simulator.js";
import { makeRepo, type TestRepo } from "../test/support/git-repo.js";
import { main } from "./cli/main.js";
import { defaultsReader, TOKEN_ADVICE } from "./config-defaults.js";
import { type RunLog, runRequiredCommands } from "./required-commands.js";

/**
 * Organisation defaults (`extends`) read the way the Action reads them: through the REST
 * contents API of the simulator (checked against GitHub's OpenAPI description) with a token, at
 * the pinned commit of the owner's `.github` repository.
 */
const { sim } = useSimulator();

const CONFIG = ".github/agate.yml";
const DEFAULTS_PATH = "agate/defaults.yml";
const DEFAULTS = `version: 1
commands:
  - name: org test
    run: echo "org-wide $(cat answer.txt)"
  - name: token is not here
    run: test -z "\${INPUT_TOKEN:-}" && test -z "\${GITHUB_TOKEN:-}"
budgets:
  graded_attempts_per_pr: 4
`;
const quietLog: RunLog = { info() {}, command: (_name, run) => run(), output() {} };

let repo: TestRepo | undefined;
afterEach(() => {
  repo?.remove();
  repo = undefined;
  vi.unstubAllEnvs();
});

/** The owner's .github repository with the defaults; returns the commit to pin. */
async function orgDefaults(text = DEFAULTS): Promise<string> {
  await sim.createRepository({ repo: ".github", files: { [DEFAULTS_PATH]: text } });
  const sha = sim.branchSha({ repo: ".github", branch: "main" });
  if (!sha) throw new Error("the simulator made no main branch for .github");
  return sha;
}

const extendsLine = (sha: string) => `extends: ${sim.owner}/.github:${DEFAULTS_PATH}@${sha}\n`;

function runWith(base: string, read: ReturnType<typeof defaultsReader>, token: string) {
  const dir = (repo as TestRepo).dir;
  return runRequiredCommands({
    cwd: dir,
    configPath: CONFIG,
    baseSha: base,
    // The job's environment holds the token (as the runner's INPUT_TOKEN): the commands must not.
    env: { PATH: process.env.PATH, INPUT_TOKEN: token, GITHUB_TOKEN: token },
    stateDir: join(dir, ".git", "agate"),
    log: quietLog,
    readDefaults: read,
    repository: `${sim.owner}/widgets`,
  });
}

describe("the Action reads the organisation defaults a config extends", () => {
  it("runs the defaults' commands, with the digest the merged config has", async () => {
    const sha = await orgDefaults();
    repo = makeRepo();
    const own = `${extendsLine(sha)}budgets:\n  graded_attempts_per_pr: 2\n`;
    const base = repo.commit({ [CONFIG]: own, "answer.txt": "42\n" });
    const token = sim.createToken({ permissions: { contents: "read" } });
    const read = defaultsReader({ token, apiUrl: sim.apiUrl, advice: TOKEN_ADVICE.action });
    sim.clearCalls();

    const outcome = await runWith(base, read, token);
    if (outcome.kind !== "ran") throw new Error("expected the commands to run");
    expect(outcome.record.commands.map((c) => [c.name, c.exit_code, c.output.tail])).toEqual([
      ["org test", 0, "org-wide 42\n"],
      ["token is not here", 0, ""],
    ]);
    const merged = parseConfig(own, CONFIG, { owner: sim.owner, defaults: DEFAULTS });
    expect(merged.config.budgets.graded_attempts_per_pr).toBe(2);
    expect(outcome.record.grader.config_digest).toBe(merged.digest);
    // Read once, by the pinned SHA, through the contents API the simulator answered itself; and
    // the pinned commit compared once with the .github repository's default branch.
    expect(sim.callLog.filter((c) => c.operationId === "repos/get-content")).toEqual([
      expect.objectContaining({ status: 200, handledBy: "stateful" }),
    ]);
    expect(sim.callLog.filter((c) => c.operationId === "repos/compare-commits")).toEqual([
      expect.objectContaining({ status: 200, handledBy: "stateful" }),
    ]);
  });

  it("defaults that are not at the pinned commit fail the config, saying what to do", async () => {
    await orgDefaults();
    repo = makeRepo();
    const missing = "89abcdef0123456789abcdef0123456789abcdef";
    const base = repo.commit({ [CONFIG]: extendsLine(missing), "answer.txt": "42\n" });
    const token = sim.createToken({ permissions: { contents: "read" } });
    const read = defaultsReader({ token, apiUrl: sim.apiUrl, advice: TOKEN_ADVICE.action });

    const error = await runWith(base, read, token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    const message = (error as Error).message;
    expect(message).toContain(
      `.github/agate.yml at the base commit ${base.slice(0, 7)} is not a valid agate config`,
    );
    expect(message).toContain(
      `extends at line 1, column 10: cannot use the defaults ${sim.owner}/.github:${DEFAULTS_PATH}@${missing}: GitHub answered 404 for ${DEFAULTS_PATH} at ${missing} in ${sim.owner}/.github`,
    );
    expect(message).toContain("passed as the agate Action's token input");
  });

  it("uses defaults pinned on the default branch, refuses a commit only another branch has", async () => {
    const pinned = await orgDefaults();
    // An unmerged change of the defaults: a branch (or a pull request's head) GitHub serves too.
    const unmerged = await sim.pushCommit({
      repo: ".github",
      branch: "loosen",
      files: { [DEFAULTS_PATH]: DEFAULTS.replace("org test", "loosened") },
    });
    const token = sim.createToken({ permissions: { contents: "read" } });
    const read = defaultsReader({ token, apiUrl: sim.apiUrl, advice: TOKEN_ADVICE.action });
    const refOf = (sha: string) => ({
      owner: sim.owner,
      repo: ".github" as const,
      path: DEFAULTS_PATH,
      sha,
      reference: `${sim.owner}/.github:${DEFAULTS_PATH}@${sha}`,
    });

    expect(await read(refOf(pinned))).toBe(DEFAULTS);
    const ahead = await read(refOf(unmerged));
    expect(ahead).toEqual({
      refused: expect.stringContaining(
        `commit ${unmerged} is not on ${sim.owner}/.github's default branch main (GitHub compares it with main as "ahead"`,
      ),
    });

    // main moves on: the pinned commit is behind it and still used; the branch's has diverged.
    await sim.pushCommit({ repo: ".github", branch: "main", files: { "README.md": "org\n" } });
    expect(await read(refOf(pinned))).toBe(DEFAULTS);
    expect(await read(refOf(unmerged))).toEqual({
      refused: expect.stringContaining(`(GitHub compares it with main as "diverged"`),
    });

    // The run refuses the config at its extends line: the repository's file is never used alone.
    repo = makeRepo();
    const base = repo.commit({ [CONFIG]: extendsLine(unmerged), "answer.txt": "42\n" });
    const error = await runWith(base, read, token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(
      `extends at line 1, column 10: cannot use the defaults ${sim.owner}/.github:${DEFAULTS_PATH}@${unmerged}: commit ${unmerged} is not on`,
    );
    expect((error as Error).message).toContain("Merge the change into main and pin a commit of it");
  });

  it("a defaults file too large for the contents API is refused, never read as empty", async () => {
    const sha = await orgDefaults(`${DEFAULTS}# ${"x".repeat(1_100_000)}\n`);
    const token = sim.createToken({ permissions: { contents: "read" } });
    const read = defaultsReader({ token, apiUrl: sim.apiUrl, advice: TOKEN_ADVICE.action });
    const result = await read({
      owner: sim.owner,
      repo: ".github",
      path: DEFAULTS_PATH,
      sha,
      reference: `${sim.owner}/.github:${DEFAULTS_PATH}@${sha}`,
    });
    expect(result).toEqual({
      refused: expect.stringMatching(
        /^agate\/defaults\.yml at [0-9a-f]{40} in agate-dev\/\.github is \d+ bytes, over the 1 MB GitHub's contents API serves\. A defaults file is a few kilobytes/,
      ),
    });
  });

  it("without a token the anonymous read is refused, and the message says to pass one", async () => {
    const sha = await orgDefaults();
    repo = makeRepo();
    const base = repo.commit({ [CONFIG]: extendsLine(sha), "answer.txt": "42\n" });
    const read = defaultsReader({
      token: undefined,
      apiUrl: sim.apiUrl,
      advice: TOKEN_ADVICE.action,
    });
    const error = await runWith(base, read, "").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(
      /GitHub answered 401 \(.*\) for agate\/defaults\.yml at [0-9a-f]{40} in agate-dev\/\.github: a private or internal agate-dev\/\.github needs a token that can read it/,
    );
  });
});

describe("agate-gate validate with extends", () => {
  async function validate(env: Record<string, string>) {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    const out: string[] = [];
    const err: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((line) => void out.push(String(line)));
    const error = vi
      .spyOn(console, "error")
      .mockImplementation((line) => void err.push(String(line)));
    try {
      const status = await main(["validate"], (repo as TestRepo).dir);
      return { status, out: out.join("\n"), err: err.join("\n") };
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  }

  /** validate on a repository whose config is `config`, with a token that can read .github. */
  async function validateWithToken(config: string) {
    repo = makeRepo();
    repo.commit({ [CONFIG]: config });
    return validate({
      GITHUB_API_URL: sim.apiUrl,
      GITHUB_REPOSITORY: `${sim.owner}/widgets`,
      GITHUB_TOKEN: sim.createToken({ permissions: { contents: "read" } }),
    });
  }

  it("checks the merged config with GITHUB_TOKEN; without access it says the defaults were not checked", async () => {
    const sha = await orgDefaults();
    repo = makeRepo();
    repo.commit({ [CONFIG]: `${extendsLine(sha)}gate:\n  all: false\n` });
    const token = sim.createToken({ permissions: { contents: "read" } });
    const env = { GITHUB_API_URL: sim.apiUrl, GITHUB_REPOSITORY: `${sim.owner}/widgets` };

    const checked = await validate({ ...env, GITHUB_TOKEN: token, GH_TOKEN: "" });
    expect(checked.err).toBe("");
    expect(checked.status).toBe(0);
    expect(checked.out).toContain(
      `${CONFIG} is a valid agate config with the defaults of ${sim.owner}/.github:${DEFAULTS_PATH}@${sha} (2 required commands`,
    );

    const unchecked = await validate({ ...env, GITHUB_TOKEN: "", GH_TOKEN: "" });
    expect(unchecked.status).toBe(0);
    expect(unchecked.err).toContain("so the merged config was NOT checked: GitHub answered 401");
    expect(unchecked.err).toContain("set GITHUB_TOKEN or GH_TOKEN to a token that can read");
    expect(unchecked.out).toContain("the merged config was not checked");
  });

  it("a real problem in the defaults fails validate, located in the defaults file", async () => {
    const sha = await orgDefaults(
      DEFAULTS.replace("graded_attempts_per_pr: 4", "graded_attempts_per_pr: 0"),
    );
    const result = await validateWithToken(extendsLine(sha));
    expect(result.status).toBe(1);
    expect(result.err).toContain(
      `budgets.graded_attempts_per_pr at line 8, column 27 of ${sim.owner}/.github:${DEFAULTS_PATH}@${sha}: must be more than 0, got 0`,
    );
  });

  it("defaults pinned off the default branch fail validate (exit 1), not a warning", async () => {
    await orgDefaults();
    const unmerged = await sim.pushCommit({
      repo: ".github",
      branch: "loosen",
      files: { [DEFAULTS_PATH]: DEFAULTS.replace("org test", "loosened") },
    });
    const result = await validateWithToken(extendsLine(unmerged));
    expect(result.status).toBe(1);
    expect(result.err).not.toContain("NOT checked");
    expect(result.err).toContain(
      `cannot use the defaults ${sim.owner}/.github:${DEFAULTS_PATH}@${unmerged}: commit ${unmerged} is not on ${sim.owner}/.github's default branch main`,
    );
  });

  it("a reference to another owner's .github fails validate before anything is read", async () => {
    repo = makeRepo();
    repo.commit({ [CONFIG]: `extends: someone-else/.github:agate.yml@${"a".repeat(40)}\n` });
    sim.clearCalls();
    const result = await validate({ GITHUB_REPOSITORY: `${sim.owner}/widgets` });
    expect(result.status).toBe(1);
    expect(result.err).toContain(
      `extends may name only this repository's owner's .github repository (${sim.owner}/.github), not someone-else/.github`,
    );
    expect(sim.callLog).toEqual([]);
  });
});
