import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GIT_ENV, makeRepo, type TestRepo } from "../test/support/git-repo.js";
import { commandEnvironment, isRemovedVariable, REMOVED_VARIABLES } from "./environment.js";
import { type RunLog, runRequiredCommands } from "./required-commands.js";

/**
 * A step before agate can shape the job's environment (`$GITHUB_ENV`, `$GITHUB_PATH`): none of it
 * may make a required command run anything but its own text. Each case has a control with plain
 * bash, proving the poison works where agate does not remove it.
 */
const quietLog: RunLog = { info() {}, command: (_name, run) => run(), output() {} };
const CONFIG = ".github/agate.yml";
const config = (...commands: string[]) =>
  `version: 1\ncommands:\n${commands.map((run, i) => `  - name: c${i}\n    run: ${JSON.stringify(run)}\n`).join("")}`;

let repo: TestRepo;
let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), "agate-env-"));
});
afterEach(() => {
  repo?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

const marker = (name: string) => join(scratch, name);

async function commandsWith(env: NodeJS.ProcessEnv, ...commands: string[]) {
  repo = makeRepo();
  const base = repo.commit({ [CONFIG]: config(...commands) });
  const outcome = await runRequiredCommands({
    cwd: repo.dir,
    configPath: CONFIG,
    baseSha: base,
    env: { PATH: process.env.PATH, ...GIT_ENV, ...env },
    stateDir: join(repo.dir, ".git", "agate"),
    log: quietLog,
    repository: null,
  });
  if (outcome.kind !== "ran") throw new Error("expected the commands to run");
  return outcome.record.commands;
}

/**
 * Plain `bash -c` with the poisoned environment: what would happen without agate's removal.
 * (stdin is not a socket, else bash would also read ~/.bashrc: one more reason for --norc.)
 */
const plainBash = (script: string, env: NodeJS.ProcessEnv) =>
  spawnSync("/bin/bash", ["-c", script], {
    env: { PATH: process.env.PATH, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

describe("the commands' environment and shell", () => {
  it("BASH_ENV is not sourced: a script that makes every command exit 0 does not run", async () => {
    const poison = join(scratch, "poison.sh");
    writeFileSync(poison, `touch '${marker("bash-env")}'\ntrap 'exit 0' EXIT\n`);
    const env = { BASH_ENV: poison, ENV: poison };
    expect(plainBash("exit 3", env).status).toBe(0);
    rmSync(marker("bash-env"));

    const [result] = await commandsWith(env, "exit 3");
    expect(result?.exit_code).toBe(3);
    expect(existsSync(marker("bash-env"))).toBe(false);
  });

  it("a fake bash first on PATH is not used: bash is the system's, by absolute path", async () => {
    const bin = join(scratch, "bin");
    mkdirSync(bin);
    for (const name of ["bash", "git"]) {
      writeFileSync(join(bin, name), `#!/bin/sh\ntouch '${marker(`fake-${name}`)}'\nexit 0\n`);
      chmodSync(join(bin, name), 0o755);
    }
    const env = { PATH: `${bin}:${process.env.PATH}` };
    expect(spawnSync("bash", ["-c", "exit 3"], { env }).status).toBe(0);
    rmSync(marker("fake-bash"));

    const [failing, editing] = await commandsWith(env, "exit 3", "echo x > new.txt");
    expect(failing?.exit_code).toBe(3);
    // agate's own git is the system's too: the fake one would have seen no change.
    expect(editing?.changed_paths).toEqual(["new.txt"]);
    expect(existsSync(marker("fake-bash"))).toBe(false);
    expect(existsSync(marker("fake-git"))).toBe(false);
  });

  it("an exported function overriding a command is not imported", async () => {
    const env = { "BASH_FUNC_false%%": "() { true; }" };
    expect(plainBash("false", env).status).toBe(0);

    const [result] = await commandsWith(env, "false");
    expect(result?.exit_code).toBe(1);
  });

  it("PS4 with SHELLOPTS=xtrace runs no code", async () => {
    const env = { SHELLOPTS: "xtrace", PS4: `$(touch '${marker("ps4")}')+ ` };
    plainBash("true", env);
    // bash itself ignores PS4 from the environment when it runs as root; a runner's user is not.
    if (process.getuid?.() !== 0) {
      expect(existsSync(marker("ps4"))).toBe(true);
      rmSync(marker("ps4"));
    }

    const [result] = await commandsWith(env, "true; echo done");
    expect(result?.exit_code).toBe(0);
    expect(result?.output.tail).toBe("done\n");
    expect(existsSync(marker("ps4"))).toBe(false);
  });

  it("LD_PRELOAD, CDPATH, GLOBIGNORE and GIT_DIR do not reach the commands; identity does", async () => {
    mkdirSync(join(scratch, "src"));
    const env = {
      LD_PRELOAD: join(scratch, "evil.so"),
      CDPATH: scratch,
      GLOBIGNORE: "*.txt",
      GIT_DIR: join(scratch, "elsewhere"),
      GIT_CONFIG_PARAMETERS: "'core.pager'='evil'",
    };
    expect(plainBash("true", env).stderr).toContain("evil.so");

    const [result] = await commandsWith(
      env,
      "mkdir -p src && cd src && pwd && touch a.txt && echo *.txt && git rev-parse --show-toplevel && env | grep -E '^(LD_|GIT_|CDPATH|GLOBIGNORE)' | sort",
    );
    expect(result?.exit_code, result?.output.tail).toBe(0);
    expect(result?.output.tail).toBe(
      [
        join(repo.dir, "src"),
        "a.txt",
        repo.dir,
        ...Object.entries(GIT_ENV)
          .filter(([name]) => /^GIT_(AUTHOR|COMMITTER)_/.test(name))
          .map(([name, value]) => `${name}=${value}`)
          .sort(),
        "",
      ].join("\n"),
    );
  });

  it("every variable on the list is removed, by name or prefix; the job's other variables stay", () => {
    const names = [
      "GITHUB_TOKEN",
      "GH_TOKEN",
      "INPUT_TOKEN",
      "ACTIONS_RUNTIME_TOKEN",
      "ACTIONS_RESULTS_URL",
      "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
      "GITHUB_OUTPUT",
      "GITHUB_ENV",
      "GITHUB_PATH",
      "GITHUB_STATE",
      "GITHUB_STEP_SUMMARY",
      "BASH_ENV",
      "ENV",
      "BASH_FUNC_ls%%",
      "SHELLOPTS",
      "BASHOPTS",
      "PS4",
      "PROMPT_COMMAND",
      "CDPATH",
      "GLOBIGNORE",
      "IFS",
      "LD_PRELOAD",
      "LD_LIBRARY_PATH",
      "LD_AUDIT",
      "DYLD_INSERT_LIBRARIES",
      "GIT_DIR",
      "GIT_CONFIG_GLOBAL",
      "GIT_EXTERNAL_DIFF",
      "GIT_SSH_COMMAND",
    ];
    for (const name of names) expect(isRemovedVariable(name), name).toBe(true);
    for (const entry of REMOVED_VARIABLES) expect(entry.blocks.length).toBeGreaterThan(10);
    const kept = commandEnvironment({
      ...Object.fromEntries(names.map((name) => [name, "x"])),
      PATH: "/usr/bin",
      HOME: "/home/runner",
      CI: "true",
      GITHUB_SHA: "abc",
      GITHUB_WORKSPACE: "/w",
      NODE_OPTIONS: "--max-old-space-size=4096",
      GIT_AUTHOR_NAME: "a",
      GIT_COMMITTER_EMAIL: "c",
    });
    expect(Object.keys(kept).sort()).toEqual([
      "CI",
      "GITHUB_SHA",
      "GITHUB_WORKSPACE",
      "GIT_AUTHOR_NAME",
      "GIT_COMMITTER_EMAIL",
      "HOME",
      "NODE_OPTIONS",
      "PATH",
    ]);
  });
});
