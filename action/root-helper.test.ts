import { spawn } from "node:child_process";
import {
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
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ISOLATION_TESTS_REQUIRED } from "../test/support/runner-users.js";
import { type RootHelper, startRootHelper } from "./root-helper.js";

/**
 * The root shell that serves the steps around each command (root-helper.ts, isolation-script.ts
 * `serve`), run as root the way a container job runs it. The uid the steps act for is a number
 * no user and no process has, so the steps touch nothing else on the machine.
 */
const isRoot = process.platform === "linux" && process.getuid?.() === 0;
const runsHere = isRoot || ISOLATION_TESTS_REQUIRED;
const describeAsRoot = runsHere ? describe : describe.skip;
/** The skipped block's name says why, as describeAsRunner's do. */
const titled = (title: string) =>
  runsHere ? title : `${title} (skipped: not root, and AGATE_REQUIRE_ISOLATION_TESTS is not 1)`;
const BASH = "/bin/bash";
const ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };

function freeUid(): number {
  const taken = new Set(
    readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .map((line) => Number(line.split(":")[2])),
  );
  for (let uid = 61_000 + (process.pid % 1000); ; uid++) {
    if (!taken.has(uid) && processesOf(uid).length === 0) return uid;
  }
}

function processesOf(uid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const line = /^Uid:\s+(\d+)\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        return line?.[1] === String(uid) || line?.[2] === String(uid);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describeAsRoot(titled("the root shell serving the steps around each command"), () => {
  let dir: string;
  let helper: RootHelper;
  let uid: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agate-root-helper-"));
    uid = freeUid();
    helper = startRootHelper(BASH, [], ENV);
  });
  afterEach(() => {
    helper.close(5_000);
    rmSync(dir, { recursive: true, force: true });
    for (const pid of processesOf(uid)) process.kill(pid, "SIGKILL");
  });

  it("hands a work tree over and takes it back, one step after another, and goes on after a failing one", async () => {
    const tree = join(dir, "tree");
    mkdirSync(join(tree, "sub"), { recursive: true });
    writeFileSync(join(tree, "sub", "file"), "x");
    await expect(helper.run("handover", [String(uid), "0", join(dir, "missing")])).rejects.toThrow(
      /handover of the commands user failed: .*missing/,
    );
    await helper.run("handover", [String(uid), "0", tree]);
    expect(statSync(join(tree, "sub", "file")).uid).toBe(uid);
    await helper.run("reclaim", [
      "nobody-here",
      String(uid),
      String(uid),
      "0",
      "0",
      tree,
      "40",
      "0:0",
    ]);
    expect(statSync(join(tree, "sub", "file")).uid).toBe(0);
    expect(statSync(tree).uid).toBe(0);
  });

  it("a step that fails halfway fails, though its last command succeeded (set -e holds inside the step)", async () => {
    // The hand-over's first command fails (no such user to give the top directory to); its
    // last, a find that matches nothing, succeeds: the step must still fail.
    const tree = join(dir, "tree");
    mkdirSync(tree);
    writeFileSync(join(tree, "file"), "x");
    await expect(helper.run("handover", ["no-such-user-agate", String(uid), tree])).rejects.toThrow(
      /handover of the commands user failed: .*no-such-user-agate/,
    );
  });

  it("a process of the commands user that catches a step's own process of that user finds nothing of the shell's in it", async () => {
    // The attack: a leftover process of the commands user watches for the processes a step starts
    // as that user (setpriv), stops one (it may: same user) and reads its descriptors through
    // /proc; opening /proc/<pid>/fd/1 would give it the pipe agate reads the answers from.
    const watcher = spawn(
      "setpriv",
      [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--", process.execPath, "-e", WATCHER],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let caught = "";
    watcher.stdout?.setEncoding("utf8").on("data", (text: string) => {
      caught += text;
    });
    const exited = new Promise((resolve) => watcher.once("exit", resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Until it caught one: it may miss a short step.
    let done = false;
    void exited.then(() => {
      done = true;
    });
    while (!done) await helper.run("signal", [String(uid), String(uid), "CONT"]);
    const fds = Object.values(JSON.parse(caught) as Record<string, string>);
    // It caught one (its descriptors 0 to 2 are /dev/null, as the step gave them), and holds
    // neither of the shell's channels: its standard input (requests) and descriptor 3 (answers).
    expect(fds.slice(0, 3)).toEqual(["/dev/null", "/dev/null", "/dev/null"]);
    const shell = helper.pid as number;
    const channels = ["0", "3"].map((fd) => readlinkSync(`/proc/${shell}/fd/${fd}`));
    for (const channel of channels) expect(fds).not.toContain(channel);
  });

  it("refuses a step it does not serve, and ends", async () => {
    await expect(helper.run("finish" as "reclaim", [])).rejects.toThrow(
      /not served|root shell ended/,
    );
    await expect(helper.run("handover", [String(uid), "0", dir])).rejects.toThrow(/root shell/);
  });
});

/**
 * Runs as the commands user: waits for another process of its own uid, stops it, prints where
 * its descriptors lead (JSON), lets it go on and exits.
 */
const WATCHER = String.raw`
const fs = require("node:fs");
const uid = String(process.getuid());
const deadline = Date.now() + 20000;
for (;;) {
  if (Date.now() > deadline) { process.stdout.write("{}"); process.exit(0); }
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || pid === String(process.pid)) continue;
    let status;
    try { status = fs.readFileSync("/proc/" + pid + "/status", "utf8"); } catch { continue; }
    const real = /^Uid:\s+(\d+)/m.exec(status);
    if (!real || real[1] !== uid) continue;
    try { process.kill(Number(pid), "SIGSTOP"); } catch { continue; }
    // Until it has executed bash, a process that changed its uid is not dumpable: /proc keeps its
    // descriptors from the user, and the watcher lets it go and waits for the next.
    const fds = {};
    try {
      for (const fd of fs.readdirSync("/proc/" + pid + "/fd")) {
        fds[fd] = fs.readlinkSync("/proc/" + pid + "/fd/" + fd);
      }
    } catch {}
    process.kill(Number(pid), "SIGCONT");
    if (Object.keys(fds).length === 0) continue;
    process.stdout.write(JSON.stringify(fds));
    process.exit(0);
  }
}
`;
