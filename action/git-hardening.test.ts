import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GIT_ENV, makeRepo, type TestRepo } from "../test/support/git-repo.js";
import { type RunLog, runRequiredCommands } from "./required-commands.js";

/**
 * agate's own git never runs what the repository configures: each attack writes a program that
 * would leave a marker file, and the marker must be absent after agate ran, while the record still
 * names exactly what the commands changed. A control run of plain git proves each trap is live.
 */
const quietLog: RunLog = { info() {}, command: (_name, run) => run(), output() {} };
const CONFIG = ".github/agate.yml";
const config = (...commands: string[]) =>
  `version: 1\ncommands:\n${commands.map((run, i) => `  - name: c${i}\n    run: ${JSON.stringify(run)}\n`).join("")}`;

let repo: TestRepo | undefined;
let markers: string;
afterEach(() => {
  repo?.remove();
  rmSync(markers, { recursive: true, force: true });
});

/** A program that leaves `<markers>/<name>` and passes its stdin through (a filter or textconv). */
function trap(name: string): string {
  const dir = join(markers, "bin");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, name)}'\ncat "$@" 2>/dev/null || true\n`);
  chmodSync(path, 0o755);
  return path;
}

const sprung = () => readdirSync(markers).filter((name) => name !== "bin" && name !== "hooks");

/** Every hook git knows, each a trap. */
function hooksDir(name: string): string {
  const dir = join(markers, name);
  mkdirSync(dir, { recursive: true });
  for (const hook of [
    "pre-commit",
    "post-checkout",
    "post-index-change",
    "reference-transaction",
    "pre-auto-gc",
    "post-merge",
    "fsmonitor-watchman",
  ]) {
    const path = join(dir, hook);
    writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, `hook-${hook}`)}'\n`);
    chmodSync(path, 0o755);
  }
  return dir;
}

async function run(dir: string, baseSha: string, env: NodeJS.ProcessEnv = {}) {
  const outcome = await runRequiredCommands({
    cwd: dir,
    configPath: CONFIG,
    baseSha,
    env: { PATH: process.env.PATH, ...GIT_ENV, ...env },
    stateDir: join(dir, ".git", "agate"),
    log: quietLog,
    repository: "octo/repo",
  });
  if (outcome.kind !== "ran") throw new Error("expected the commands to run");
  return outcome.record;
}

describe("agate's git after a command rewrote .git", () => {
  it("runs none of fsmonitor, include.path, filters, textconv, external diff, pager, sshCommand, hooks; the record names exactly what changed", async () => {
    markers = mkdtempSync(join(tmpdir(), "agate-markers-"));
    repo = makeRepo();
    const hooks = hooksDir("hooks");
    mkdirSync(join(markers, "bin"), { recursive: true });
    const included = join(markers, "bin", "included.gitconfig");
    writeFileSync(included, `[core]\n\tfsmonitor = ${trap("included-fsmonitor")}\n`);
    // The command writes every key, a .gitattributes naming the drivers, hooks in .git/hooks,
    // and edits a tracked file (so git must look at its content, through the filter).
    const attack = [
      `git config core.fsmonitor ${trap("fsmonitor")}`,
      `git config include.path ${included}`,
      `git config filter.evil.clean ${trap("filter-clean")}`,
      `git config filter.evil.smudge ${trap("filter-smudge")}`,
      `git config filter.evil.process ${trap("filter-process")}`,
      "git config filter.evil.required true",
      `git config diff.evil.textconv ${trap("textconv")}`,
      `git config diff.evil.command ${trap("diff-driver")}`,
      `git config diff.external ${trap("external-diff")}`,
      `git config core.pager ${trap("pager")}`,
      `git config core.sshCommand ${trap("ssh")}`,
      `git config core.hooksPath ${hooks}`,
      `cp ${hooks}/* .git/hooks/`,
      "printf '* filter=evil diff=evil\\n' > .gitattributes",
      "echo edited > src/a.txt",
      "echo new > new.txt",
      "rm src/gone.txt",
    ].join(" && ");
    const base = repo.commit({
      [CONFIG]: config(attack, "true"),
      "src/a.txt": "a\n",
      "src/gone.txt": "gone\n",
    });

    const record = await run(repo.dir, base);
    expect(sprung()).toEqual([]);
    expect(record.commands[0]?.exit_code).toBe(0);
    expect(record.commands[0]?.changed_paths).toEqual([
      ".gitattributes",
      "new.txt",
      "src/a.txt",
      "src/gone.txt",
    ]);
    expect(record.commands[0]?.changed_paths_count).toBe(4);
    expect(record.commands[1]?.changed_paths).toEqual([]);
    expect(record.tested).toMatchObject({ sha: base, clean_before: true, clean: false });

    // Control: the repository's own git does run them, so the traps above were live.
    const plain = (...args: string[]) =>
      spawnSync("git", args, { cwd: repo?.dir, env: { ...process.env, ...GIT_ENV } });
    plain("status", "--porcelain");
    plain("diff", "HEAD");
    expect(sprung()).toEqual(expect.arrayContaining(["included-fsmonitor", "filter-process"]));
  });

  it("a command cannot hide its edit through the real index (skip-worktree, a commit) or the shadow git dir", async () => {
    markers = mkdtempSync(join(tmpdir(), "agate-markers-"));
    repo = makeRepo();
    const shadowConfig = join(repo.dir, ".git", "agate", "shadow-git", "config");
    const base = repo.commit({
      [CONFIG]: config(
        // Hide src/a.txt from the repository's index, commit b.txt, and arm agate's shadow.
        "echo edited > src/a.txt && git update-index --skip-worktree src/a.txt",
        "echo b > b.txt && git add b.txt && git -c user.name=a -c user.email=a@b commit -qm sneaky",
        `printf '[core]\\n\\tfsmonitor = ${trap("shadow-fsmonitor")}\\n' >> ${shadowConfig} && printf 'src/\\nb.txt\\n' >> ${join(repo.dir, ".git", "agate", "shadow-git", "info", "exclude")}`,
      ),
      "src/a.txt": "a\n",
    });
    const record = await run(repo.dir, base);
    expect(record.commands.map((c) => c.exit_code)).toEqual([0, 0, 0]);
    expect(record.commands.map((c) => c.changed_paths)).toEqual([["src/a.txt"], ["b.txt"], []]);
    expect(record.tested).toMatchObject({ sha: base, clean: false });
    expect(sprung()).toEqual([]);
    // The shadow is agate's scratch space: gone after the run.
    expect(existsSync(join(repo.dir, ".git", "agate", "shadow-git"))).toBe(false);
  });

  it("a .git/config an earlier step armed, and GIT_* it exported, run nothing while agate reads the base and binds the commit", async () => {
    markers = mkdtempSync(join(tmpdir(), "agate-markers-"));
    const origin = makeRepo("agate-origin-");
    const base = origin.commit({ [CONFIG]: config("echo ok"), "a.txt": "a\n" });
    // A shallow clone without the base: agate fetches it, the one network call of its git.
    const head = origin.commit({ "a.txt": "b\n" });
    repo = makeRepo("agate-clone-");
    repo.git("remote", "add", "origin", `file://${origin.dir}`);
    repo.git("fetch", "--quiet", "--depth=1", "origin", head);
    repo.git("checkout", "--quiet", "--detach", head);
    const hooks = hooksDir("hooks");
    for (const [key, value] of [
      ["core.fsmonitor", trap("fsmonitor")],
      ["core.hooksPath", hooks],
      ["filter.evil.clean", trap("filter-clean")],
      ["diff.evil.textconv", trap("textconv")],
      ["remote.origin.uploadpack", trap("uploadpack")],
      ["credential.helper", `!${trap("credential")}`],
      ["core.alternateRefsCommand", trap("alternate-refs")],
    ] as const) {
      repo.git("config", key, value);
    }
    writeFileSync(join(repo.dir, ".gitattributes"), "* filter=evil diff=evil\n");
    try {
      const record = await run(repo.dir, base, {
        GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${trap("env-fsmonitor")}'`,
        GIT_EXTERNAL_DIFF: trap("env-external-diff"),
        GIT_SSH_COMMAND: trap("env-ssh"),
        GIT_DIR: join(markers, "elsewhere"),
      });
      expect(sprung()).toEqual([]);
      expect(record.commands[0]?.output.tail).toBe("ok\n");
      expect(record.tested).toMatchObject({
        sha: head,
        parents: [base],
        clean_before: false,
        dirty_before: [".gitattributes"],
      });
    } finally {
      origin.remove();
    }
  });
});

describe("agate's git in a container job", () => {
  it.skipIf(process.getuid?.() !== 0)(
    "a checkout owned by another user is trusted through agate's own global config (safe.directory)",
    async () => {
      markers = mkdtempSync(join(tmpdir(), "agate-markers-"));
      repo = makeRepo();
      const base = repo.commit({ [CONFIG]: config("echo x > new.txt"), "a.txt": "a\n" });
      chownSync(repo.dir, 4242, 4242);
      for (const entry of readdirSync(repo.dir, { recursive: true, encoding: "utf8" })) {
        chownSync(join(repo.dir, entry), 4242, 4242);
      }
      // Plain git refuses it, as on a runner whose container user differs from the checkout's.
      const plain = spawnSync("git", ["rev-parse", "HEAD"], {
        cwd: repo.dir,
        env: { PATH: process.env.PATH, HOME: markers, GIT_CONFIG_NOSYSTEM: "1" },
        encoding: "utf8",
      });
      expect(plain.stderr).toContain("dubious ownership");

      const record = await run(repo.dir, base);
      expect(record.commands[0]?.changed_paths).toEqual(["new.txt"]);
      expect(record.tested).toMatchObject({ sha: base, clean_before: true, clean: false });
    },
  );
});
