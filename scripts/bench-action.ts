/**
 * npm run bench:action — prints figures and whether issue 17's targets are met; asserts nothing.
 * 1. Wall time of the Action bundle over running the same three trivial commands directly, and
 *    where the Action's time goes (node start, bundle load, config read, snapshots, commands,
 *    record, upload and outputs, exit), from the marks the bundle prints with AGATE_TIMINGS=1.
 * 2. One command streaming 1 GiB of output through the Action: MiB/s beside the same output
 *    piped to sha256sum in the same run, and the Action's peak RSS.
 *
 * AGATE_BENCH_BUNDLE: another bundle to measure (an older build, to compare). BENCH_ROUNDS: rounds
 * of part 1 (default 10). BENCH_STREAM_MIB: size of part 2 (default 1024).
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeRepo } from "../test/support/git-repo.js";

const BUNDLE = process.env.AGATE_BENCH_BUNDLE
  ? resolve(process.env.AGATE_BENCH_BUNDLE)
  : resolve(import.meta.dirname, "..", "dist", "action", "index.js");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const STREAM_MIB = Number(process.env.BENCH_STREAM_MIB ?? 1024);
const COMMANDS = ["true", "echo hello", "ls > /dev/null"];
const TARGET_OVERHEAD_MS = 100;
const TARGET_STREAM_RATIO = 0.5;
const TARGET_RSS_MIB = 100;

function repoWith(commands: string[]) {
  const repo = makeRepo("agate-bench-");
  const sha = repo.commit({
    ".github/agate.yml": `version: 1\ncommands:\n${commands.map((run, i) => `  - name: c${i}\n    run: ${JSON.stringify(run)}\n`).join("")}`,
  });
  return { ...repo, sha };
}

/** The Action's usual case: a pull_request event whose base commit holds the config. */
function actionEnv(dir: string, sha: string): NodeJS.ProcessEnv {
  const output = join(dir, ".git", "bench-output");
  writeFileSync(output, "");
  const event = join(dir, ".git", "bench-event.json");
  writeFileSync(
    event,
    JSON.stringify({
      pull_request: { number: 1, head: { sha, ref: "agent" }, base: { sha, ref: "main" } },
      repository: { full_name: "bench/repo", default_branch: "main" },
    }),
  );
  return {
    PATH: process.env.PATH,
    GITHUB_EVENT_NAME: "pull_request",
    GITHUB_EVENT_PATH: event,
    GITHUB_REPOSITORY: "bench/repo",
    GITHUB_OUTPUT: output,
    "INPUT_WORKING-DIRECTORY": dir,
    RUNNER_TEMP: join(dir, ".git"),
    AGATE_TIMINGS: "1",
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function time<T>(run: () => T): [number, T] {
  const start = performance.now();
  const result = run();
  return [performance.now() - start, result];
}

const met = (ok: boolean) => (ok ? "met" : "NOT met");

/** The phases of one run, from the bundle's marks: each mark ends the phase it names. */
function phases(stderr: string, wallMs: number, nodeStartMs: number): Map<string, number> {
  const line = stderr.split("\n").find((l) => l.startsWith("agate-timings "));
  const out = new Map<string, number>();
  if (!line) return out;
  const marks = JSON.parse(line.slice("agate-timings ".length)) as [string, number][];
  let previous = 0;
  for (const [phase, at] of marks) {
    out.set(phase, (out.get(phase) ?? 0) + at - previous);
    previous = at;
  }
  // The first mark counts from the process's start: node's own start-up is measured apart.
  out.set("node start", nodeStartMs);
  out.set("load", (out.get("load") ?? 0) - nodeStartMs);
  out.set("exit", wallMs - previous);
  return out;
}

const repo = repoWith(COMMANDS);
const env = actionEnv(repo.dir, repo.sha);
const direct: number[] = [];
const action: number[] = [];
const nodeStart: number[] = [];
const runs: [number, string][] = [];
for (let i = 0; i < ROUNDS; i++) {
  nodeStart.push(time(() => spawnSync(process.execPath, ["-e", "0"]))[0]);
  direct.push(
    time(() => {
      for (const run of COMMANDS)
        spawnSync("bash", ["-eo", "pipefail", "-c", run], { cwd: repo.dir });
    })[0],
  );
  const [ms, result] = time(() =>
    spawnSync(process.execPath, [BUNDLE], { cwd: repo.dir, env, encoding: "utf8" }),
  );
  action.push(ms);
  runs.push([ms, result.stderr]);
}
const d = median(direct);
const a = median(action);
const n = median(nodeStart);
console.log(`three trivial commands, median of ${ROUNDS} rounds (${BUNDLE})`);
console.log(`  directly:        ${d.toFixed(1)} ms`);
console.log(`  through agate:   ${a.toFixed(1)} ms`);
console.log(
  `  ratio:           ${(a / d).toFixed(1)}x, overhead ${(a - d).toFixed(1)} ms (target <= +${TARGET_OVERHEAD_MS} ms: ${met(a - d <= TARGET_OVERHEAD_MS)})`,
);
const breakdown = new Map<string, number[]>();
for (const [ms, stderr] of runs) {
  for (const [phase, value] of phases(stderr, ms, n)) {
    breakdown.set(phase, [...(breakdown.get(phase) ?? []), value]);
  }
}
console.log("  where agate's time goes (median per phase, ms):");
for (const phase of [
  "node start",
  "load",
  "config",
  "snapshot",
  "commands",
  "record",
  "upload",
  "exit",
]) {
  const values = breakdown.get(phase);
  if (values) console.log(`    ${phase.padEnd(12)} ${median(values).toFixed(1).padStart(7)}`);
}
repo.remove();

/** Peak RSS (VmHWM) of a child, read from /proc while it runs. */
async function peakRss(command: string, args: string[], options: Parameters<typeof spawn>[2]) {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "ignore", "inherit"] });
  let peakKb = 0;
  const poll = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // exited between polls
    }
  }, 20);
  const start = performance.now();
  const code = await new Promise<number | null>((done) => child.on("exit", done));
  clearInterval(poll);
  return { peakKb, seconds: (performance.now() - start) / 1000, code };
}

const produce = `yes 'a line of output from a chatty test suite, 64 bytes long....' | head -c ${STREAM_MIB * 1024 * 1024}`;
const [pipeMs] = time(() =>
  spawnSync("bash", ["-c", `${produce} | sha256sum`], { stdio: "ignore" }),
);
const big = repoWith([`set +o pipefail; ${produce}`]);
const bigEnv = actionEnv(big.dir, big.sha);
delete bigEnv.AGATE_TIMINGS;
const streamed = await peakRss(process.execPath, [BUNDLE], { cwd: big.dir, env: bigEnv });
big.remove();
const pipeRate = STREAM_MIB / (pipeMs / 1000);
const rate = STREAM_MIB / streamed.seconds;
const rss = streamed.peakKb / 1024;
console.log(`one command streaming ${STREAM_MIB} MiB of output`);
console.log(
  `  piped to sha256sum:  ${(pipeMs / 1000).toFixed(1)} s (${pipeRate.toFixed(0)} MiB/s)`,
);
console.log(
  `  through the Action:  ${streamed.seconds.toFixed(1)} s (${rate.toFixed(0)} MiB/s), exit ${streamed.code}; ${(rate / pipeRate).toFixed(2)} of sha256sum (target >= ${TARGET_STREAM_RATIO}: ${met(rate / pipeRate >= TARGET_STREAM_RATIO)})`,
);
console.log(
  `  peak RSS:            ${rss.toFixed(0)} MiB (target <= ${TARGET_RSS_MIB} MiB: ${met(rss <= TARGET_RSS_MIB)})`,
);
