/**
 * npm run bench:action — prints figures, asserts nothing.
 * 1. Wall time of the Action bundle over running the same three trivial commands directly.
 * 2. Peak RSS of the Action while one command streams 1 GB of output.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeRepo } from "../test/support/git-repo.js";

/** AGATE_BENCH_BUNDLE: another bundle to measure (an older build, to compare). */
const BUNDLE = process.env.AGATE_BENCH_BUNDLE
  ? resolve(process.env.AGATE_BENCH_BUNDLE)
  : resolve(import.meta.dirname, "..", "dist", "action", "index.js");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const COMMANDS = ["true", "echo hello", "ls > /dev/null"];

function repoWith(commands: string[]) {
  const repo = makeRepo("agate-bench-");
  repo.commit({
    ".github/agate.yml": `version: 1\ncommands:\n${commands.map((run, i) => `  - name: c${i}\n    run: ${JSON.stringify(run)}\n`).join("")}`,
  });
  return repo;
}

function actionEnv(dir: string): NodeJS.ProcessEnv {
  const output = join(dir, ".git", "bench-output");
  writeFileSync(output, "");
  return {
    PATH: process.env.PATH,
    GITHUB_OUTPUT: output,
    "INPUT_WORKING-DIRECTORY": dir,
    RUNNER_TEMP: join(dir, ".git"),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function time(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const repo = repoWith(COMMANDS);
const env = actionEnv(repo.dir);
const direct: number[] = [];
const action: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  direct.push(
    time(() => {
      for (const run of COMMANDS)
        spawnSync("bash", ["-eo", "pipefail", "-c", run], { cwd: repo.dir });
    }),
  );
  action.push(time(() => spawnSync(process.execPath, [BUNDLE], { cwd: repo.dir, env })));
}
const d = median(direct);
const a = median(action);
console.log(`three trivial commands, median of ${ROUNDS} rounds`);
console.log(`  directly:        ${d.toFixed(1)} ms`);
console.log(`  through agate:   ${a.toFixed(1)} ms`);
console.log(`  ratio:           ${(a / d).toFixed(1)}x, overhead ${(a - d).toFixed(1)} ms`);
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

const big = repoWith([
  "set +o pipefail; yes 'a line of output from a chatty test suite, 64 bytes long....' | head -c 1073741824",
]);
const streamed = await peakRss(process.execPath, [BUNDLE], {
  cwd: big.dir,
  env: actionEnv(big.dir),
});
console.log("one command streaming 1 GiB of output through the Action");
console.log(`  peak RSS:        ${(streamed.peakKb / 1024).toFixed(0)} MiB`);
console.log(
  `  wall time:       ${streamed.seconds.toFixed(1)} s (${(1024 / streamed.seconds).toFixed(0)} MiB/s), exit ${streamed.code}`,
);
big.remove();
