import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "../checks/errors.js";
import { makeRepo, type TestRepo } from "../test/support/git-repo.js";
import { type RunLog, runRequiredCommands } from "./required-commands.js";

const quietLog: RunLog = { info() {}, command: (_name, run) => run(), output() {} };
const CONFIG = ".github/agate.yml";
const config = (...commands: string[]) =>
  `version: 1\ncommands:\n${commands.map((run, i) => `  - name: c${i}\n    run: ${JSON.stringify(run)}\n`).join("")}`;

let repo: TestRepo;
afterEach(() => repo?.remove());

const runIn = (
  repo: TestRepo,
  baseSha: string,
  env: NodeJS.ProcessEnv = { PATH: process.env.PATH },
) =>
  runRequiredCommands({
    cwd: repo.dir,
    configPath: CONFIG,
    baseSha,
    env,
    stateDir: join(repo.dir, ".git", "agate"),
    log: quietLog,
    repository: "octo/repo",
  });

describe("runRequiredCommands", () => {
  it("runs the base's commands, not those of a head that edits the config", async () => {
    repo = makeRepo();
    const base = repo.commit({ [CONFIG]: config("echo from-base", "test -f feature.txt") });
    repo.git("checkout", "--quiet", "-b", "agent/work");
    const head = repo.commit({ [CONFIG]: config("echo from-head"), "feature.txt": "x\n" });

    const outcome = await runIn(repo, base);
    if (outcome.kind !== "ran") throw new Error("expected the commands to run");
    const { record } = outcome;
    expect(record.commands.map((c) => [c.run, c.exit_code, c.output.tail])).toEqual([
      ["echo from-base", 0, "from-base\n"],
      ["test -f feature.txt", 0, ""],
    ]);
    expect(record.tested).toMatchObject({ sha: head, clean: true, dirty_digest: null });
    expect(record.tested.tree_sha).toBe(repo.git("rev-parse", "HEAD^{tree}").trim());
    expect(record.tested.parents).toEqual([base]);
    expect(record.repository).toBe("octo/repo");
  });

  it("says how many required commands it runs, in a real plural", async () => {
    repo = makeRepo();
    const one = repo.commit({ [CONFIG]: config("true") });
    const two = repo.commit({ [CONFIG]: config("true", "true") });
    const said = async (baseSha: string) => {
      const lines: string[] = [];
      await runRequiredCommands({
        cwd: repo.dir,
        configPath: CONFIG,
        baseSha,
        env: { PATH: process.env.PATH },
        stateDir: join(repo.dir, ".git", "agate"),
        log: { ...quietLog, info: (line) => lines.push(line) },
        repository: "octo/repo",
      });
      return lines.join("\n");
    };
    expect(await said(one)).toMatch(/: 1 required command from \.github\/agate\.yml at base /);
    expect(await said(two)).toMatch(/: 2 required commands from \.github\/agate\.yml at base /);
  });

  it("a base without a config has not adopted agate, whatever the head adds", async () => {
    repo = makeRepo();
    const base = repo.commit({ "README.md": "hi\n" });
    repo.commit({ [CONFIG]: config("echo sneaky") });
    expect(await runIn(repo, base)).toEqual({ kind: "not-adopted", baseSha: base });
  });

  it("a malformed base config is a ConfigurationError that says it is the base's", async () => {
    repo = makeRepo();
    const base = repo.commit({
      [CONFIG]: "version: 1\ncommands:\n  - name: t\n    run: x\n    timeout: 10x\n",
    });
    const error = await runIn(repo, base).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe(
      `.github/agate.yml at the base commit ${base.slice(0, 7)} is not a valid agate config; fix it on the base branch (1 problem):\n` +
        '  - commands[0].timeout at line 5, column 14: "10x" is not a duration such as 90s, 10m or 1h',
    );
  });

  it("a command that edits, adds or deletes files leaves the record not clean, with a content digest", async () => {
    repo = makeRepo();
    const base = repo.commit({
      [CONFIG]: config("echo changed > a.txt; echo new > b.txt; rm c.txt"),
      "a.txt": "a\n",
      "c.txt": "c\n",
    });
    const first = await runIn(repo, base);
    if (first.kind !== "ran") throw new Error("expected a run");
    expect(first.record.tested.clean).toBe(false);
    expect(first.record.tested.dirty_digest).toMatch(/^[0-9a-f]{64}$/);

    // Same snapshot again: same digest. Different content: different digest.
    repo.git("checkout", "--quiet", "--", ".");
    repo.git("clean", "--quiet", "-fd");
    const again = await runIn(repo, base);
    if (again.kind !== "ran") throw new Error("expected a run");
    expect(again.record.tested.dirty_digest).toBe(first.record.tested.dirty_digest);

    repo.git("checkout", "--quiet", "--", ".");
    repo.git("clean", "--quiet", "-fd");
    repo.commit({ [CONFIG]: config("echo other > a.txt; echo new > b.txt; rm c.txt") });
    const other = await runIn(repo, repo.git("rev-parse", "HEAD").trim());
    if (other.kind !== "ran") throw new Error("expected a run");
    expect(other.record.tested.dirty_digest).not.toBe(first.record.tested.dirty_digest);
  });

  it("a command that commits leaves the tested commit as it was before, and not clean", async () => {
    repo = makeRepo();
    const base = repo.commit({
      [CONFIG]: config(
        "echo x > y.txt && git add y.txt && git -c user.name=a -c user.email=a@b commit -qm sneaky",
      ),
    });
    const outcome = await runIn(repo, base, { PATH: process.env.PATH, HOME: repo.dir });
    if (outcome.kind !== "ran") throw new Error("expected a run");
    expect(outcome.record.commands[0]?.exit_code).toBe(0);
    expect(outcome.record.tested.sha).toBe(base);
    expect(outcome.record.tested.clean).toBe(false);
  });

  it("ignored files do not make the tree dirty", async () => {
    repo = makeRepo();
    const base = repo.commit({
      [CONFIG]: config("mkdir -p build && echo x > build/out.js"),
      ".gitignore": "build/\n",
    });
    const outcome = await runIn(repo, base);
    if (outcome.kind !== "ran") throw new Error("expected a run");
    expect(outcome.record.tested.clean).toBe(true);
  });

  it("the commands never see the token, the runner's internal tokens or the file-command paths", async () => {
    repo = makeRepo();
    const base = repo.commit({ [CONFIG]: config("env | sort") });
    const outcome = await runIn(repo, base, {
      PATH: process.env.PATH,
      GITHUB_TOKEN: "ghs_secret",
      INPUT_TOKEN: "ghs_secret",
      ACTIONS_RUNTIME_TOKEN: "secret",
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "secret",
      ACTIONS_ID_TOKEN_REQUEST_URL: "https://secret",
      GITHUB_OUTPUT: "/tmp/out",
      GITHUB_ENV: "/tmp/env",
      GITHUB_SHA: "kept",
      CI: "true",
    });
    if (outcome.kind !== "ran") throw new Error("expected a run");
    const seen = outcome.record.commands[0]?.output.tail ?? "";
    expect(seen).not.toMatch(/secret|GITHUB_OUTPUT|GITHUB_ENV|INPUT_|ACTIONS_/);
    expect(seen).toContain("GITHUB_SHA=kept");
    expect(seen).toContain("CI=true");
  });
});
