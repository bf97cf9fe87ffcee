/**
 * npx tsx scripts/bench-action-ab.ts <bundle A> <bundle B> [rounds]: two builds of the Action
 * over three trivial commands, alternated run by run (A, B, A, B...) so the machine's load hits
 * both alike (the commands user made and removed in each run). Prints per bundle the
 * median wall time, the time until the first command could start (node start, load, config and
 * shadow: the first `snapshot` mark), and the CPU time of the whole process tree (user + system,
 * children included, from /usr/bin/time), and the median of each round's difference B - A,
 * with the load average. BENCH_NODE: the node to run them; BENCH_AS=hosted: as a hosted runner's
 * user (the commands user made through its sudo), not as root.
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { giveTo, type RunnerUser, runnerUser, spawnAs } from "../test/support/runner-users.js";
import { actionEnv, median, repoWith } from "./bench-action-fixture.js";

const [a, b, roundsArg] = process.argv.slice(2);
if (!a || !b) throw new Error("usage: bench-action-ab.ts <bundle A> <bundle B> [rounds]");
const ROUNDS = Number(roundsArg ?? 20);
const NODE = process.env.BENCH_NODE ? resolve(process.env.BENCH_NODE) : process.execPath;
const COMMANDS = ["true", "echo hello", "ls > /dev/null"];
/** BENCH_AS=hosted: as a hosted runner's user, through its sudo (default: this process's user). */
const hosted = process.env.BENCH_AS === "hosted" ? runnerUser("hosted") : undefined;
if (typeof hosted === "string") throw new Error(`no hosted runner's user here: ${hosted}`);
const runAs: RunnerUser | undefined = hosted;

interface Run {
  wall: number;
  firstCommand: number;
  cpu: number;
}

async function once(bundle: string): Promise<Run> {
  const repo = repoWith(COMMANDS);
  const { temp } = repo;
  const env = actionEnv(repo.dir, temp, repo.sha);
  const start = performance.now();
  if (runAs) giveTo(runAs, repo.dir, temp);
  const args = ["-f", "agate-cpu %U %S", NODE, resolve(bundle)];
  const stdio: ["ignore", "ignore", "pipe"] = ["ignore", "ignore", "pipe"];
  const child = runAs
    ? spawnAs(runAs, "/usr/bin/time", args, { cwd: repo.dir, env, stdio })
    : spawn("/usr/bin/time", args, { cwd: repo.dir, env, stdio });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const code = await new Promise<number | null>((done) => child.once("close", done));
  const wall = performance.now() - start;
  repo.remove();
  if (code !== 0) throw new Error(`${bundle} exited ${code}: ${stderr}`);
  const marks = JSON.parse(
    stderr
      .split("\n")
      .find((line) => line.startsWith("agate-timings "))
      ?.slice("agate-timings ".length) ?? "[]",
  ) as [string, number][];
  const [user = 0, system = 0] = (/agate-cpu (\S+) (\S+)/.exec(stderr) ?? []).slice(1).map(Number);
  return {
    wall,
    firstCommand: marks.find(([phase]) => phase === "snapshot")?.[1] ?? Number.NaN,
    cpu: (user + system) * 1000,
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

console.log(`load average ${load()} at the start; ${ROUNDS} rounds, alternating`);
const runs = new Map<string, Run[]>([
  [a, []],
  [b, []],
]);
for (let i = 0; i < ROUNDS; i++) {
  for (const bundle of i % 2 ? [b, a] : [a, b]) runs.get(bundle)?.push(await once(bundle));
}
for (const [bundle, done] of runs) {
  console.log(
    `${bundle}: wall ${median(done.map((r) => r.wall)).toFixed(1)} ms, first command could start at ${median(done.map((r) => r.firstCommand)).toFixed(1)} ms, CPU ${median(done.map((r) => r.cpu)).toFixed(0)} ms (medians)`,
  );
}
// Round by round, B minus A: the two runs of a round saw about the same machine.
const pairs = (pick: (run: Run) => number) =>
  median((runs.get(b) ?? []).map((run, i) => pick(run) - pick(runs.get(a)?.[i] ?? run)));
console.log(
  `B - A, median of the rounds' differences: wall ${pairs((r) => r.wall).toFixed(1)} ms, first command ${pairs((r) => r.firstCommand).toFixed(1)} ms, CPU ${pairs((r) => r.cpu).toFixed(0)} ms`,
);
console.log(`load average ${load()} at the end`);
