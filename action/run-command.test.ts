import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand } from "./run-command.js";

const cwd = mkdtempSync(join(tmpdir(), "agate-run-"));
const run = (
  script: string,
  timeoutMs = 20_000,
  extra: Partial<Parameters<typeof runCommand>[0]> = {},
) =>
  runCommand({
    name: "t",
    run: script,
    timeoutMs,
    cwd,
    env: { PATH: process.env.PATH },
    killGraceMs: 500,
    ...extra,
  });

/** Running, as opposed to gone or a zombie waiting for a parent (PID 1 in a container may never reap it). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** SIGKILL is delivered asynchronously: allow the kernel a moment before calling it alive. */
async function alive(pid: number): Promise<boolean> {
  for (let i = 0; i < 40 && running(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return running(pid);
}

describe("runCommand", () => {
  it("a passing command: exit 0, its output digested, start and duration recorded", async () => {
    const result = await run("echo hello; echo oops >&2");
    expect(result).toMatchObject({ exit_code: 0, signal: null, timed_out: false });
    expect(result.output.tail).toBe("hello\noops\n");
    expect(Date.parse(result.started_at)).not.toBeNaN();
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("a failing command keeps its exit code; -e and pipefail are on", async () => {
    expect((await run("exit 3")).exit_code).toBe(3);
    expect((await run("false; echo never")).output.tail).toBe("");
    expect((await run("false | true")).exit_code).toBe(1);
  });

  it("a command killed by a signal records the signal and no exit code", async () => {
    const result = await run("kill -KILL $$");
    expect(result).toMatchObject({ exit_code: null, signal: "SIGKILL", timed_out: false });
  });

  it("a timeout kills the whole process tree, including a child that would outlive it", async () => {
    const pidFile = join(cwd, "child.pid");
    const result = await run(`sleep 60 & echo $! > ${pidFile}; sleep 60`, 300);
    expect(result).toMatchObject({ exit_code: null, timed_out: true });
    expect(result.duration_ms).toBeLessThan(10_000);
    const childPid = Number(readFileSync(pidFile, "utf8"));
    expect(await alive(childPid)).toBe(false);
  });

  it("a command that ignores SIGTERM is killed after the grace period", async () => {
    const result = await run("trap '' TERM; sleep 60", 200);
    expect(result).toMatchObject({ exit_code: null, timed_out: true, signal: "SIGKILL" });
  });

  it("a background child left behind after a normal exit is killed, not waited for", async () => {
    const pidFile = join(cwd, "left.pid");
    const started = Date.now();
    const result = await run(`(sleep 60; echo late) & echo $! > ${pidFile}; echo done`);
    expect(result.exit_code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await alive(Number(readFileSync(pidFile, "utf8")))).toBe(false);
    expect(result.output.tail).toBe("done\n");
  });

  it("the same failing test run twice with different timings has one normalised digest", async () => {
    const flaky = (answer: number) =>
      `echo "RUN $(date +%H:%M:%S.%N) in $(mktemp -d)"; sleep 0.$((RANDOM % 3)); echo "FAIL adds ($((RANDOM % 900 + 10))ms)"; echo "expected ${answer} to be 4"; exit 1`;
    const [a, b, c] = [await run(flaky(3)), await run(flaky(3)), await run(flaky(5))];
    expect(a.output.sha256).not.toBe(b.output.sha256);
    expect(a.output.normalized_sha256).toBe(b.output.normalized_sha256);
    expect(c.output.normalized_sha256).not.toBe(a.output.normalized_sha256);
  });

  it("streams output as it arrives to the live log", async () => {
    const seen: string[] = [];
    await run("echo one; echo two", 20_000, { onOutput: (chunk) => seen.push(chunk.toString()) });
    expect(seen.join("")).toBe("one\ntwo\n");
  });

  it("runs in the given directory with exactly the given environment", async () => {
    const result = await run('pwd; echo "[$SECRET]"', 20_000, { env: { PATH: process.env.PATH } });
    expect(result.output.tail).toBe(`${cwd}\n[]\n`);
    expect(existsSync(cwd)).toBe(true);
  });

  it("200 MB of output: digests match sha256sum, the tail is the true tail, memory stays bounded", () => {
    const file = join(cwd, "big.txt");
    // ~200 MB of numbered lines; yes|head is fast and needs no interpreter.
    const generate = `yes 'line of output that repeats, with a number 1234567890' | head -c 209715200 > ${file}; printf 'the end\\n' >> ${file}`;
    execFileSync("bash", ["-c", generate]);
    const expected = execFileSync("sha256sum", [file], { encoding: "utf8" }).split(" ")[0];
    const expectedTail = execFileSync("tail", ["-c", "200", file], { encoding: "utf8" });

    const probe = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        join(import.meta.dirname, "..", "test", "support", "run-command-probe.ts"),
        `cat ${file}`,
      ],
      { encoding: "utf8", cwd: join(import.meta.dirname, ".."), maxBuffer: 1 << 20 },
    );
    expect(probe.status, probe.stderr).toBe(0);
    const result = JSON.parse(probe.stdout);
    expect(result.output.bytes).toBe(209_715_200 + 8);
    expect(result.output.sha256).toBe(expected);
    expect(result.output.truncated).toBe(true);
    expect(result.output.tail_length).toBe(65_536);
    expect(result.output.tail_end).toBe(expectedTail);
    // Generous: node + tsx alone take ~100 MB; holding the output would take over 200 MB more.
    expect(result.max_rss_bytes).toBeLessThan(200 * 1024 * 1024);
  });
});
