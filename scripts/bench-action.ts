/**
 * npm run bench:action — prints figures and whether issue 32's targets are met; asserts nothing.
 * 1. Wall time of the Action bundle over running the same three trivial commands directly, and
 *    where the Action's time goes (node start, bundle load, config read, snapshots, the commands
 *    user's making and removal, the work tree's hand-over around each command, commands, record,
 *    upload and outputs, exit), from the marks the bundle prints with AGATE_TIMINGS=1. Run the way
 *    each runner runs it (test/support/runner-users.ts): as a hosted runner's user through its
 *    passwordless sudo, as root (a container job), and sharing agate's user (a runner without
 *    sudo, shared-allowed): the difference is what running the commands as a user of their own
 *    costs.
 * 2. One command streaming 1 GiB of output through the Action: MiB/s beside the same output
 *    piped to sha256sum just before, and the Action's peak RSS, split into the pages of files
 *    (node's own executable, which every node process maps) and agate's own memory, beside the
 *    same Action over one trivial command and `node -e 0` alone.
 *
 * AGATE_BENCH_BUNDLE: another bundle to measure (an older build, to compare). BENCH_NODE: the node
 * to run it with (the Action runs on Node 24; default this one). BENCH_ROUNDS: rounds of part 1
 * (default 10). BENCH_STREAM_MIB: size of part 2 (default 1024).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { giveTo, type RunnerUser, runnerUser, spawnAs } from "../test/support/runner-users.js";
import { actionEnv, median, repoWith } from "./bench-action-fixture.js";

const BUNDLE = process.env.AGATE_BENCH_BUNDLE
  ? resolve(process.env.AGATE_BENCH_BUNDLE)
  : resolve(import.meta.dirname, "..", "dist", "action", "index.js");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const STREAM_MIB = Number(process.env.BENCH_STREAM_MIB ?? 1024);
const COMMANDS = ["true", "echo hello", "ls > /dev/null"];
const TARGET_OVERHEAD_MS = 100;
const TARGET_STREAM_RATIO = 0.8;
const TARGET_RSS_MIB = 64;
/** The node that runs the bundle: this one, or BENCH_NODE (the Action runs on Node 24). */
const NODE = process.env.BENCH_NODE ? resolve(process.env.BENCH_NODE) : process.execPath;
const SHARED_ALLOWED = "evidence:\n  isolation: shared-allowed\n";

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

/** Runs the bundle once as `user` (this process's own without one); wall time and stderr. */
async function runBundle(
  user: RunnerUser | undefined,
  cwd: string,
  env: Record<string, string>,
): Promise<[number, string, number | null]> {
  const start = performance.now();
  const child: ChildProcess = user
    ? spawnAs(user, NODE, [BUNDLE], { cwd, env, stdio: ["ignore", "ignore", "pipe"] })
    : spawn(NODE, [BUNDLE], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const code = await new Promise<number | null>((done) => child.once("close", done));
  return [performance.now() - start, stderr, code];
}

interface Mode {
  name: string;
  user: RunnerUser | undefined;
  shared: boolean;
}

const hosted = runnerUser("hosted");
const plain = runnerUser("plain");
const modes: Mode[] = [];
if (typeof hosted !== "string") {
  modes.push({
    name: "as a hosted runner (its sudo makes the commands user)",
    user: hosted,
    shared: false,
  });
}
if (process.getuid?.() === 0) {
  modes.push({
    name: "as root (a container job makes the commands user)",
    user: undefined,
    shared: false,
  });
}
modes.push({
  name: "sharing agate's user (a runner without sudo, shared-allowed)",
  user: typeof plain === "string" ? undefined : plain,
  shared: true,
});
if (typeof hosted === "string") console.log(`(no hosted runner's user here: ${hosted})`);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
console.log(`${cpus().length} cores, load average ${load()} at the start`);

// Round by round, every way of running in each round: drift in the machine's load hits all alike.
const nodeStart: number[] = [];
const direct: number[] = [];
const runs = new Map<string, [number, string][]>(modes.map((mode) => [mode.name, []]));
for (let i = 0; i < ROUNDS; i++) {
  nodeStart.push(time(() => spawnSync(NODE, ["-e", "0"]))[0]);
  const repo = repoWith(COMMANDS);
  direct.push(
    time(() => {
      for (const run of COMMANDS)
        spawnSync("bash", ["-eo", "pipefail", "-c", run], { cwd: repo.dir });
    })[0],
  );
  repo.remove();
  for (const mode of modes) {
    const repo = repoWith(COMMANDS, mode.shared ? SHARED_ALLOWED : "");
    const env = actionEnv(repo.dir, repo.temp, repo.sha);
    if (mode.user) giveTo(mode.user, repo.dir, repo.temp);
    const [ms, stderr, code] = await runBundle(mode.user, repo.dir, env);
    if (code !== 0) throw new Error(`the Action exited ${code} ${mode.name}: ${stderr}`);
    runs.get(mode.name)?.push([ms, stderr]);
    repo.remove();
  }
}
const d = median(direct);
const n = median(nodeStart);
console.log(`three trivial commands, median of ${ROUNDS} rounds (${BUNDLE})`);
console.log(`  directly:        ${d.toFixed(1)} ms;  node -e 0 alone: ${n.toFixed(1)} ms`);
const walls = new Map<string, number>();
const phaseMedians = new Map<string, Map<string, number>>();
for (const mode of modes) {
  const done = runs.get(mode.name) ?? [];
  const a = median(done.map(([ms]) => ms));
  walls.set(mode.name, a);
  console.log(`  through agate, ${mode.name}: ${a.toFixed(1)} ms`);
  console.log(
    `    overhead ${(a - d).toFixed(1)} ms over the commands run directly (target <= +${TARGET_OVERHEAD_MS} ms: ${met(a - d <= TARGET_OVERHEAD_MS)})`,
  );
  const breakdown = new Map<string, number[]>();
  for (const [ms, stderr] of done) {
    for (const [phase, value] of phases(stderr, ms, n)) {
      breakdown.set(phase, [...(breakdown.get(phase) ?? []), value]);
    }
  }
  const labels: [string, string][] = [
    ["node start", "node start"],
    ["load", "load"],
    ["config", "config"],
    ["snapshot", "snapshot"],
    ["isolation", "commands user: made, verified, removed (once per job)"],
    [
      "handover",
      `work tree handed over and back, user's processes killed (${COMMANDS.length} commands)`,
    ],
    ["commands", "commands"],
    ["record", "record"],
    ["upload", "upload"],
    ["exit", "exit"],
  ];
  console.log("    where agate's time goes (median per phase, ms):");
  const medians = new Map<string, number>();
  for (const [phase, label] of labels) {
    const values = breakdown.get(phase);
    if (!values) continue;
    medians.set(phase, median(values));
    console.log(`      ${median(values).toFixed(1).padStart(7)}  ${label}`);
  }
  phaseMedians.set(mode.name, medians);
  const handover = breakdown.get("handover");
  if (handover) {
    console.log(
      `      per command: ${(median(handover) / COMMANDS.length).toFixed(1)} ms of hand-over, kill and take-back`,
    );
  }
}
const shared = modes.find((mode) => mode.shared);
const sharedWall = walls.get(shared?.name ?? "") ?? Number.NaN;
console.log("  what isolation costs, and the rest (medians of the same rounds):");
for (const mode of modes.filter((m) => !m.shared)) {
  const isolated = walls.get(mode.name) ?? Number.NaN;
  const phase = (name: string) => phaseMedians.get(mode.name)?.get(name) ?? 0;
  const sharedCommands = phaseMedians.get(shared?.name ?? "")?.get("commands") ?? 0;
  console.log(
    `    ${mode.name}: +${(isolated - sharedWall).toFixed(1)} ms over sharing agate's user: ` +
      `${phase("isolation").toFixed(1)} once per job, ${(phase("handover") / COMMANDS.length).toFixed(1)} ` +
      `per command around it, ${((phase("commands") - sharedCommands) / COMMANDS.length).toFixed(1)} ` +
      "per command to start it as the user",
  );
  const startAsUser = Math.max(0, phase("commands") - sharedCommands);
  const rest = isolated - d - phase("isolation") - phase("handover") - startAsUser;
  console.log(
    `      the rest (overhead without what the commands user costs): +${rest.toFixed(1)} ms (target <= +${TARGET_OVERHEAD_MS} ms: ${met(rest <= TARGET_OVERHEAD_MS)})`,
  );
}
console.log(
  `    without isolation (sharing agate's user): +${(sharedWall - d).toFixed(1)} ms (target <= +${TARGET_OVERHEAD_MS} ms: ${met(sharedWall - d <= TARGET_OVERHEAD_MS)}), of which node's own start ${n.toFixed(1)} ms`,
);
console.log(`  load average after part 1: ${load()}`);

interface Peak {
  /** VmHWM: the most the process held at once. */
  peakKb: number;
  /** At the busiest poll: pages of files (node's own executable, shared with every node) and the rest. */
  fileKb: number;
  anonKb: number;
  seconds: number;
  code: number | null;
}

/** Peak RSS of a process, read from /proc while it runs. */
async function peakRss(child: ChildProcess): Promise<Peak> {
  const peak = { peakKb: 0, fileKb: 0, anonKb: 0 };
  const poll = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const field = (name: string) =>
        Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
      peak.peakKb = Math.max(peak.peakKb, field("VmHWM"));
      if (field("RssAnon") + field("RssFile") >= peak.anonKb + peak.fileKb) {
        peak.anonKb = field("RssAnon");
        peak.fileKb = field("RssFile");
      }
    } catch {
      // exited between polls
    }
  }, 10);
  const start = performance.now();
  const code = await new Promise<number | null>((done) => child.on("exit", done));
  clearInterval(poll);
  return { ...peak, seconds: (performance.now() - start) / 1000, code };
}

const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;
const split = (p: Peak) =>
  `${mib(p.fileKb)} of files (node's own executable), ${mib(p.anonKb)} agate's own`;

/** The Action over `run` as `user` (this process's own without one). */
function startBundle(repo: ReturnType<typeof repoWith>, user: RunnerUser | undefined) {
  const env = actionEnv(repo.dir, repo.temp, repo.sha);
  delete env.AGATE_TIMINGS;
  if (user) giveTo(user, repo.dir, repo.temp);
  const stdio: ["ignore", "ignore", "inherit"] = ["ignore", "ignore", "inherit"];
  return user
    ? spawnAs(user, NODE, [BUNDLE], { cwd: repo.dir, env, stdio })
    : spawn(NODE, [BUNDLE], { cwd: repo.dir, env, stdio });
}

const produce = `yes 'a line of output from a chatty test suite, 64 bytes long....' | head -c ${STREAM_MIB * 1024 * 1024}`;
console.log(
  `\none command streaming ${STREAM_MIB} MiB of output (node ${spawnSync(NODE, ["--version"], { encoding: "utf8" }).stdout.trim()})`,
);
const bare = await peakRss(spawn(NODE, ["-e", "0"], { stdio: "ignore" }));
console.log(`  node -e 0 alone: peak RSS ${mib(bare.peakKb)} (${split(bare)})`);
// As a hosted runner runs it where this machine can (the commands user's output through sudo),
// and sharing agate's user, to see what the isolation costs here; sha256sum before each.
for (const streamer of [modes[0], shared].filter((m, i, all) => m && all.indexOf(m) === i)) {
  if (!streamer) continue;
  const extra = streamer.shared ? SHARED_ALLOWED : "";
  const trivial = repoWith(["true"], extra);
  const idle = await peakRss(startBundle(trivial, streamer.user));
  trivial.remove();
  const [pipeMs] = time(() =>
    spawnSync("bash", ["-c", `${produce} | sha256sum`], { stdio: "ignore" }),
  );
  const pipeRate = STREAM_MIB / (pipeMs / 1000);
  const big = repoWith([`set +o pipefail; ${produce}`], extra);
  const streamed = await peakRss(startBundle(big, streamer.user));
  big.remove();
  const rate = STREAM_MIB / streamed.seconds;
  const rss = streamed.peakKb / 1024;
  console.log(`  through the Action, ${streamer.name}:`);
  console.log(
    `    piped to sha256sum just before: ${(pipeMs / 1000).toFixed(1)} s (${pipeRate.toFixed(0)} MiB/s)`,
  );
  console.log(
    `    ${streamed.seconds.toFixed(1)} s (${rate.toFixed(0)} MiB/s), exit ${streamed.code}; ${(rate / pipeRate).toFixed(2)} of sha256sum (target >= ${TARGET_STREAM_RATIO}: ${met(rate / pipeRate >= TARGET_STREAM_RATIO)})`,
  );
  console.log(
    `    peak RSS ${rss.toFixed(0)} MiB (target <= ${TARGET_RSS_MIB} MiB: ${met(rss <= TARGET_RSS_MIB)}): ${split(streamed)}`,
  );
  console.log(
    `    the same Action over one trivial command: peak RSS ${mib(idle.peakKb)} (${split(idle)}); streaming added ${mib(streamed.peakKb - idle.peakKb)}`,
  );
}
console.log(`load average at the end: ${load()}`);
