import { type ChildProcess, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CommandRecord, commandRecordSchema } from "../../schemas/command-record.js";
import { ACTION_BUNDLE, type ActionRun, runActionBundle } from "../support/action-runner.js";
import { describeAsRunner } from "../support/describe-as-runner.js";
import { makeRepo, type TestRepo } from "../support/git-repo.js";
import { giveTo, type RunnerUser, spawnAs } from "../support/runner-users.js";

/**
 * The pull request's code against agate, as a real process in a required command, on the runners
 * agate runs on. Each lever is one command of one run (test/fixtures/attacks/reach.sh prints
 * `<lever>: denied` or what it got). On agate before issue 25, which ran the commands as its own
 * user, every test of the hosted runner fails: the commands then had the runner's uid, and with
 * it its sudo.
 */
const ATTACKS = join(import.meta.dirname, "..", "fixtures", "attacks");
const LEVERS = [
  "signal",
  "environ",
  "mem",
  "ptrace",
  "sudo",
  "action-dir",
  "file-commands",
  "runner",
] as const;
const RUNTIME_TOKEN = "runtime-token-of-this-job";

const repos: TestRepo[] = [];
afterAll(() => {
  for (const repo of repos) repo.remove();
});

/** A checkout whose base config runs `commands` (name: shell text), with the attack scripts. */
function checkoutWith(commands: Record<string, string>, extraConfig = ""): TestRepo {
  const repo = makeRepo("agate-isolation-");
  repos.push(repo);
  const config = `version: 1\ncommands:\n${Object.entries(commands)
    .map(([name, run]) => `  - name: ${name}\n    run: ${JSON.stringify(run)}\n`)
    .join("")}${extraConfig}`;
  repo.commit({
    ".github/agate.yml": config,
    "attacks/reach.sh": readFileSync(join(ATTACKS, "reach.sh"), "utf8"),
    "attacks/inspector.mjs": readFileSync(join(ATTACKS, "inspector.mjs"), "utf8"),
    ".gitignore": "escaped/\n",
  });
  return repo;
}

async function runAs(
  user: RunnerUser,
  repo: TestRepo,
  options: { env?: Record<string, string>; bundle?: string } = {},
): Promise<ActionRun & { record: CommandRecord | null }> {
  const run = await runActionBundle({
    cwd: repo.dir,
    eventName: "push",
    event: { repository: { full_name: "octo/widgets", default_branch: "main" } },
    repository: "octo/widgets",
    inputs: { token: "input-token-of-this-job" },
    env: { ACTIONS_RUNTIME_TOKEN: RUNTIME_TOKEN, ...options.env },
    runAs: user,
    ...(options.bundle ? { bundle: options.bundle } : {}),
  });
  const path = join(run.temp, "agate", "command-record.json");
  const record = existsSync(path)
    ? commandRecordSchema.parse(JSON.parse(readFileSync(path, "utf8")))
    : null;
  return { ...run, record };
}

/** What a command printed, as the record keeps it. */
function said(record: CommandRecord | null, name: string): string {
  const command = record?.commands.find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name} in the record`);
  return command.output.tail.trim();
}

/**
 * Processes of a uid that can still run, started in `within` (their directory or command line is
 * there): a uid freed when the commands user was removed may already be another test's.
 */
function processesOf(uid: number, within: string): string[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        const state = /^State:\s+(\S)/m.exec(status)?.[1];
        const uids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status)?.slice(1).map(Number) ?? [];
        if (state === "Z" || !uids.includes(uid)) return false;
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(within) || cmdline.includes(within);
      } catch {
        return false;
      }
    });
}

describeAsRunner("hosted", "on a hosted runner (a user with passwordless sudo)", (runner) => {
  describe("each lever of the same user, tried", () => levers(runner));
  describe("nothing of the commands outlives them", () => escapes(runner));
  describe("the work tree, handed over and taken back", () => workTree(runner));
  describe("the work tree's .git, which the runner's next git command obeys", () => gitDir(runner));
  describe("what the commands get", () => {
    it("the job's environment as agate computes it (sudo's changes undone), their own HOME, the job's PATH and tools", async () => {
      // The runner's home, closed to other users (mode 700), with a tool an earlier step set up in
      // it and the checkout inside it, as on a hosted runner.
      const home = mkdtempSync(join(tmpdir(), "agate-runner-home-"));
      repos.push({
        dir: home,
        remove: () => rmSync(home, { recursive: true, force: true }),
      } as TestRepo);
      mkdirSync(join(home, "toolcache", "bin"), { recursive: true });
      writeFileSync(join(home, "toolcache", "bin", "mytool"), "#!/bin/sh\necho tool ok\n", {
        mode: 0o755,
      });
      const repo = makeRepo(`${basename(home)}/checkout-`);
      repo.commit({
        ".github/agate.yml":
          'version: 1\ncommands:\n  - name: env\n    run: "mytool; env -0 > /tmp/agate-env-$GITHUB_RUN_ID; id -u"\n',
      });
      giveTo(runner, home);
      const runId = String(Date.now());
      const run = await runAs(runner, repo, {
        env: {
          GITHUB_RUN_ID: runId,
          PATH: `${join(home, "toolcache", "bin")}:${process.env.PATH}`,
          PYTHONPATH: "/opt/lib/python",
          TZ: "Europe/Berlin",
          JOB_SETTING: "kept",
          LD_PRELOAD: "/tmp/evil.so",
          GH_TOKEN: "a secret",
        },
      });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(said(run.record, "env")).toMatch(/^tool ok\n\d+$/);
      const file = `/tmp/agate-env-${runId}`;
      const env = Object.fromEntries(
        readFileSync(file, "utf8")
          .split("\0")
          .filter(Boolean)
          .map((entry) => [
            entry.slice(0, entry.indexOf("=")),
            entry.slice(entry.indexOf("=") + 1),
          ]),
      );
      rmSync(file, { force: true });
      const user = run.record?.isolation?.user;
      expect(env).toMatchObject({
        PYTHONPATH: "/opt/lib/python",
        TZ: "Europe/Berlin",
        JOB_SETTING: "kept",
        HOME: `/home/${user}`,
        USER: user,
        LOGNAME: user,
        PATH: `${join(home, "toolcache", "bin")}:${process.env.PATH}`,
      });
      for (const name of Object.keys(env)) {
        expect(name).not.toMatch(/^(SUDO_|LD_|GH_TOKEN|INPUT_|ACTIONS_|MAIL$)/);
      }
      // The directory above the checkout was opened for the commands user only while it ran.
      const acl = spawnSync("getfacl", ["-n", "-p", home], { encoding: "utf8" }).stdout;
      expect(acl).not.toMatch(new RegExp(`^user:${run.record?.isolation?.uid}:`, "m"));
    });
  });

  describe("a command that times out", () => {
    it("is killed with every process of the commands user, and the record says it timed out", async () => {
      const repo = checkoutWith({});
      repo.commit({
        ".github/agate.yml":
          'version: 1\ncommands:\n  - name: slow\n    run: "setsid sleep 60 & sleep 60"\n    timeout: 2s\n  - name: after\n    run: "true"\n',
      });
      const run = await runAs(runner, repo);
      expect(run.record?.commands.map((c) => [c.name, c.timed_out, c.exit_code])).toEqual([
        ["slow", true, null],
        ["after", false, 0],
      ]);
      expect(run.record?.commands[0]?.duration_ms).toBeLessThan(10_000);
      expect(processesOf(run.record?.isolation?.uid ?? -1, repo.dir)).toEqual([]);
    });
  });

  describe("a cancelled job", () => {
    it("takes the commands user and its processes with it when agate is stopped", async () => {
      const repo = checkoutWith({ long: "echo started; setsid sleep 120 & sleep 120" });
      const isolated = new Promise<string>((resolve) => {
        void runActionBundle({
          cwd: repo.dir,
          eventName: "push",
          event: { repository: { full_name: "octo/widgets", default_branch: "main" } },
          repository: "octo/widgets",
          runAs: runner,
          onStart(child) {
            child.stdout?.on("data", (chunk: Buffer) => {
              if (chunk.toString("utf8").includes("started")) {
                const name = /^agate-[0-9a-f]{10}$/;
                const users = readFileSync("/etc/passwd", "utf8")
                  .split("\n")
                  .map((line) => line.split(":"))
                  .filter(([user]) => name.test(user ?? ""));
                const mine = users.find(
                  ([, , uid]) => processesOf(Number(uid), repo.dir).length > 0,
                );
                child.kill("SIGTERM");
                resolve(mine?.[2] ?? "");
              }
            });
          },
        }).then((run) => expect(run.status).not.toBe(0));
      });
      const uid = Number(await isolated);
      expect(uid).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(processesOf(uid, repo.dir)).toEqual([]);
    });
  });

  describe("Node's inspector", () => {
    it("SIGUSR1 does not reach agate, so a failing command stays failing", async () => {
      const repo = checkoutWith({ forge: "bash attacks/reach.sh inspector; exit 1" });
      const run = await runAs(runner, repo);
      expect(said(run.record, "forge")).toBe("inspector: SIGUSR1 refused (EPERM)");
      expect(run.record?.commands[0]?.exit_code).toBe(1);
      expect(run.status).toBe(1);
      expect(run.outputs.passed).toBe("false");
    });
  });
});

describeAsRunner("plain", "in a container job (agate is root)", (hostUser) => {
  // The runner made the workspace outside the container, as its own user; checkout wrote the
  // files inside it as root. The commands must still be able to make files at the top.
  it.runIf(process.getuid?.() === 0)(
    "the commands can write the whole checkout, whose top directory goes back to its owner",
    async () => {
      const repo = checkoutWith({ build: "touch made-at-top && mkdir -p node_modules/x && id -u" });
      spawnSync("chown", [`${hostUser.uid}:${hostUser.gid}`, repo.dir]);
      const run = await runActionBundle({
        cwd: repo.dir,
        eventName: "push",
        event: { repository: { full_name: "octo/widgets", default_branch: "main" } },
        repository: "octo/widgets",
      });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain("agate: 1 of 1 required commands passed");
      expect(statSync(repo.dir).uid).toBe(hostUser.uid);
      expect(statSync(join(repo.dir, "made-at-top")).uid).toBe(0);
      expect(statSync(join(repo.dir, "node_modules", "x")).uid).toBe(0);
    },
  );
});

/** Whether the Node that runs the Action can execute itself again (process.execve: Node 22.15, 23.11 on). */
const actionNodeReexecs =
  spawnSync(process.env.AGATE_ACTION_NODE || process.execPath, ["-p", "typeof process.execve"], {
    encoding: "utf8",
  }).stdout.trim() === "function";

describeAsRunner("plain", "on a self-hosted runner without sudo", (runner) => {
  it("by default (evidence.isolation: required) the Action refuses to run the commands at all", async () => {
    const repo = checkoutWith({ mark: "touch ran.txt" });
    const run = await runAs(runner, repo);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /refusing to run the commands: the runner's user \(agate-plain\) has no passwordless sudo/,
    );
    expect(run.stdout).toContain("evidence.isolation: shared-allowed");
    expect(existsSync(join(repo.dir, "ran.txt"))).toBe(false);
    expect(run.record).toBeNull();
  });

  describe("with evidence.isolation: shared-allowed, the commands run as agate's user", () => {
    let run: Awaited<ReturnType<typeof runAs>>;
    beforeAll(async () => {
      const repo = checkoutWith(
        {
          forge: "bash attacks/reach.sh inspector; exit 1",
          environ: "bash attacks/reach.sh environ",
          mem: "bash attacks/reach.sh mem",
          ptrace: "bash attacks/reach.sh ptrace",
        },
        "evidence:\n  isolation: shared-allowed\n",
      );
      run = await runAs(runner, repo);
    });

    it("and the record says so, and why", () => {
      expect(run.record?.isolation).toMatchObject({
        mode: "shared",
        user: runner.name,
        uid: runner.uid,
        swept: "process-group",
      });
      expect(run.record?.isolation?.reason).toMatch(/has no passwordless sudo/);
      expect(run.stdout).toContain("agate: the commands run as agate's own user (agate-plain)");
    });

    it("SIGUSR1 opens no inspector, so a failing command stays failing", () => {
      expect(said(run.record, "forge")).toBe("inspector: not opened");
      expect(run.record?.commands[0]?.exit_code).toBe(1);
      expect(run.status).toBe(1);
    });

    it.runIf(actionNodeReexecs)(
      "on a Node with process.execve, agate's environ, memory and ptrace are closed to them too",
      () => {
        for (const lever of ["environ", "mem", "ptrace"]) {
          expect(said(run.record, lever)).toBe(`${lever}: denied`);
        }
        expect(run.stdout).not.toContain(RUNTIME_TOKEN);
      },
    );
  });
});

function levers(runner: RunnerUser) {
  let run: Awaited<ReturnType<typeof runAs>>;
  let worker: ChildProcess;
  let action: string;
  let bundleBefore: string;
  let checkout: TestRepo;

  beforeAll(async () => {
    // The runner's own worker process, which reports the step's conclusion to GitHub.
    worker = spawnAs(runner, "/bin/sleep", ["300"], {
      cwd: "/",
      env: { RUNNER_SECRET: "the worker's" },
      stdio: "ignore",
    });
    // agate's bundle where the runner puts actions: in a directory of the runner's.
    const actions = mkdtempSync(join(tmpdir(), "agate-actions-"));
    repos.push({
      dir: actions,
      remove: () => rmSync(actions, { recursive: true, force: true }),
    } as TestRepo);
    action = join(actions, "agate", "v1", "dist", "action");
    mkdirSync(dirname(action), { recursive: true });
    cpSync(dirname(ACTION_BUNDLE), action, { recursive: true });
    giveTo(runner, actions);
    bundleBefore = readFileSync(join(action, "index.js"), "utf8");
    checkout = checkoutWith(
      Object.fromEntries(LEVERS.map((lever) => [lever, `bash attacks/reach.sh ${lever}`])),
    );
    run = await runAs(runner, checkout, {
      env: { RUNNER_WORKER_PID: String(worker.pid) },
      bundle: join(action, "index.js"),
    });
  });
  afterAll(() => {
    worker?.kill("SIGKILL");
  });

  it("the Action ran every lever and made its record, while the runner's worker ran", () => {
    expect(worker.exitCode).toBeNull();
    expect(readFileSync(`/proc/${worker.pid}/status`, "utf8")).toContain(`Uid:\t${runner.uid}`);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.record?.commands.map((c) => c.name)).toEqual([...LEVERS]);
  });

  it.each(LEVERS)("%s: the commands cannot reach agate's process, files or the runner", (lever) => {
    expect(said(run.record, lever)).toBe(`${lever}: denied`);
  });

  it("nothing of the runtime token or the token input reached the output", () => {
    expect(run.stdout).not.toContain(RUNTIME_TOKEN);
    expect(run.stdout).not.toContain("input-token-of-this-job");
  });

  it("agate's bundle is as it was, and nothing was planted beside it", () => {
    expect(readFileSync(join(action, "index.js"), "utf8")).toBe(bundleBefore);
    expect(existsSync(join(action, "planted.js"))).toBe(false);
  });

  it("the record says the commands ran as a user of their own, which is gone with its processes", () => {
    const isolation = run.record?.isolation;
    expect(isolation).toMatchObject({ mode: "user", reason: null, swept: "user" });
    expect(isolation?.user).toMatch(/^agate-[0-9a-f]{10}$/);
    expect(isolation?.uid).not.toBe(runner.uid);
    expect(processesOf(isolation?.uid ?? -1, checkout.dir)).toEqual([]);
    expect(spawnSync("getent", ["passwd", isolation?.user ?? ""]).status).not.toBe(0);
  });
}

function escapes(runner: RunnerUser) {
  // Each starts something that should outlive the command and writes where the commands user can
  // still write afterwards (a world-writable directory), a second after the command ended.
  // Each leaves the command's process group (a new session, or job control's own group), waits
  // until it has, and writes where the commands user could still write afterwards (a
  // world-writable directory) a second after its command ended.
  const ESCAPES: Record<string, string> = {
    setsid: 'setsid bash -c "sleep 1; touch $OUT/setsid" & sleep 0.5',
    "setsid --fork": 'setsid --fork bash -c "sleep 1; touch $OUT/setsid-fork"; sleep 0.5',
    "job control": 'set -m; ( sleep 1; touch "$OUT/job-control" ) & sleep 0.5',
    "a double fork": 'set -m; ( ( sleep 1; touch "$OUT/a-double-fork" ) & ); sleep 0.5',
    nohup: 'set -m; nohup bash -c "sleep 1; touch $OUT/nohup" >/dev/null 2>&1 & sleep 0.5',
    // A PID namespace of its own, in a user namespace (where the kernel allows one): kill(-1)
    // reaches into it, since its processes are still the user's.
    "a PID namespace":
      'set -m; unshare -Urpf bash -c "sleep 1; touch $OUT/a-PID-namespace" & sleep 0.5',
    "a respawning loop":
      'setsid bash -c "while :; do ( sleep 1; touch $OUT/a-respawning-loop ) & sleep 0.01; done" >/dev/null 2>&1 & sleep 0.5',
  };
  const out = mkdtempSync(join(tmpdir(), "agate-escaped-"));
  let run: Awaited<ReturnType<typeof runAs>>;
  let repo: TestRepo;

  beforeAll(async () => {
    spawnSync("chmod", ["1777", out]);
    repo = checkoutWith(ESCAPES);
    run = await runAs(runner, repo, { env: { OUT: out } });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it.each(Object.keys(ESCAPES))(
    "a process started with %s does not outlive its command",
    (name) => {
      expect(run.status, run.stdout + run.stderr).toBe(0);
      const file = name.replace(" --", "-").replaceAll(" ", "-");
      expect(existsSync(join(out, file)), `${file} was written after the command ended`).toBe(
        false,
      );
    },
  );

  it("no process of the commands user is left at all", () => {
    expect(processesOf(run.record?.isolation?.uid ?? -1, repo.dir)).toEqual([]);
  });
}

function workTree(runner: RunnerUser) {
  let run: Awaited<ReturnType<typeof runAs>>;
  let repo: TestRepo;
  const shadow = statSync("/etc/shadow");

  beforeAll(async () => {
    repo = checkoutWith({
      links: [
        // Taking the work tree back follows no link: /etc/shadow and agate's bundle keep their owner.
        "ln -s /etc/shadow shadow-link",
        'ln -s "$(tr "\\0" "\\n" < /proc/$PPID/cmdline | sed -n 2p)" parent-link || true',
        // A hard link to another user's file is refused by the kernel (protected_hardlinks).
        "ln /etc/passwd passwd-link 2>/dev/null || true",
      ].join("\n"),
      setuid: "cp /bin/true suid-true && chmod 6755 suid-true",
      hidden: "mkdir hidden && echo secret > hidden/edit.txt && chmod 000 hidden",
      write: "echo built > built.txt",
    });
    run = await runAs(runner, repo);
  });

  it("the commands could write the work tree, and it is the runner's again afterwards", () => {
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.record?.commands.map((c) => [c.name, c.exit_code])).toEqual([
      ["links", 0],
      ["setuid", 0],
      ["hidden", 0],
      ["write", 0],
    ]);
    for (const path of ["built.txt", "suid-true", "hidden", "hidden/edit.txt", "shadow-link"]) {
      const stat = statSync(join(repo.dir, path), { throwIfNoEntry: false }) ?? null;
      expect(stat, path).not.toBeNull();
    }
    expect(statSync(join(repo.dir, "built.txt")).uid).toBe(runner.uid);
  });

  it("a link the commands made moved no one else's file", () => {
    const now = statSync("/etc/shadow");
    expect([now.uid, now.gid, now.mode]).toEqual([shadow.uid, shadow.gid, shadow.mode]);
    expect(existsSync(join(repo.dir, "passwd-link"))).toBe(false);
  });

  it("a setuid program the commands left is no setuid program of the runner's", () => {
    const stat = statSync(join(repo.dir, "suid-true"));
    expect(stat.uid).toBe(runner.uid);
    expect(stat.mode & 0o6000).toBe(0);
  });

  it("a directory the commands closed hides nothing from the record", () => {
    expect(run.record?.commands.find((c) => c.name === "hidden")?.changed_paths).toEqual([
      "hidden/edit.txt",
    ]);
  });
}

function gitDir(runner: RunnerUser) {
  it("is never the commands': a hook or core.fsmonitor written there is refused, and nothing it made is open to all", async () => {
    const repo = checkoutWith({
      plant: "git config core.fsmonitor 'touch /tmp/agate-planted'",
      hook: "printf '#!/bin/sh\\ntouch /tmp/agate-planted\\n' > .git/hooks/post-checkout",
      open: "echo x > open.txt && chmod 666 open.txt",
    });
    const config = readFileSync(join(repo.dir, ".git", "config"), "utf8");
    const run = await runAs(runner, repo);
    // The two writes to .git fail, so the step fails as any failing command makes it.
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.record?.commands.map((c) => [c.name, c.exit_code === 0])).toEqual([
      ["plant", false],
      ["hook", false],
      ["open", true],
    ]);
    expect(readFileSync(join(repo.dir, ".git", "config"), "utf8")).toBe(config);
    expect(existsSync(join(repo.dir, ".git", "hooks", "post-checkout"))).toBe(false);
    expect(statSync(join(repo.dir, "open.txt")).mode & 0o022).toBe(0);
  });

  it("replaced by the commands (they own the top directory), it fails the step with no record", async () => {
    const repo = checkoutWith({
      swap: "mv .git .git-theirs && cp -r .git-theirs .git && git config core.fsmonitor 'touch /tmp/agate-planted'",
    });
    const run = await runAs(runner, repo);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain("the commands replaced the work tree's .git");
    expect(run.record).toBeNull();
  });

  it("a submodule's .git, which git enters in the job's next command, is guarded as the top one: replaced, it fails the step with no record", async () => {
    const sub = makeRepo("agate-isolation-sub-");
    repos.push(sub);
    sub.commit({ "lib.txt": "lib\n" });
    // The commands move the submodule's .git file aside and put one pointing at a git dir of
    // theirs (with core.fsmonitor set) where git will look.
    const repo = checkoutWith({
      swap: "git init -q --bare /tmp/agate-theirs-$$ && git --git-dir=/tmp/agate-theirs-$$ config core.fsmonitor 'touch /tmp/agate-planted' && mv sub/.git sub/.git-theirs && printf 'gitdir: /tmp/agate-theirs-%s\\n' $$ > sub/.git",
    });
    repo.git("-c", "protocol.file.allow=always", "submodule", "--quiet", "add", sub.dir, "sub");
    repo.git("commit", "--quiet", "-m", "submodule");
    const run = await runAs(runner, repo);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain("the commands replaced the .git of submodule sub");
    expect(run.record).toBeNull();
  });

  /** A checkout whose submodule `sub` has a submodule `inner` of its own, both checked out. */
  const withNestedSubmodule = (commands: Record<string, string>) => {
    const inner = makeRepo("agate-isolation-inner-");
    const sub = makeRepo("agate-isolation-sub-");
    repos.push(inner, sub);
    inner.commit({ "inner.txt": "inner\n" });
    sub.commit({ "lib.txt": "lib\n" });
    sub.git("-c", "protocol.file.allow=always", "submodule", "--quiet", "add", inner.dir, "inner");
    sub.git("commit", "--quiet", "-m", "nested submodule");
    const repo = checkoutWith(commands);
    repo.git("-c", "protocol.file.allow=always", "submodule", "--quiet", "add", sub.dir, "sub");
    repo.git(
      "-c",
      "protocol.file.allow=always",
      "submodule",
      "--quiet",
      "update",
      "--init",
      "--recursive",
    );
    repo.git("commit", "--quiet", "-m", "submodule");
    return repo;
  };

  it("a nested submodule's .git, which git enters as well, is guarded too: replaced, it fails the step with no record", async () => {
    const repo = withNestedSubmodule({
      swap: "git init -q --bare /tmp/agate-theirs-$$ && git --git-dir=/tmp/agate-theirs-$$ config core.fsmonitor 'touch /tmp/agate-planted' && mv sub/inner/.git sub/inner/.git-theirs && printf 'gitdir: /tmp/agate-theirs-%s\\n' $$ > sub/inner/.git",
    });
    expect(existsSync(join(repo.dir, "sub", "inner", ".git"))).toBe(true);
    const run = await runAs(runner, repo);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(
      "the commands replaced the .git of submodule sub/inner",
    );
    expect(run.record).toBeNull();
  });

  it("a .git the commands make inside a submodule (where a nested submodule left empty would be) fails the step with no record", async () => {
    const repo = withNestedSubmodule({
      make: "mkdir -p sub/later && git init -q --bare /tmp/agate-theirs-$$ && printf 'gitdir: /tmp/agate-theirs-%s\\n' $$ > sub/later/.git",
    });
    const run = await runAs(runner, repo);
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(
      "the commands made a .git at sub/later inside submodule sub",
    );
    expect(run.record).toBeNull();
  });
}
