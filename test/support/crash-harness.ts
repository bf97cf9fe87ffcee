/**
 * Tests only: plays a story against the simulator with the App's job handlers in a real worker
 * process (crash-worker.ts), on one frozen clock shared by the test, GitHub and the worker, and
 * on a fresh SQLite or PostgreSQL database per run. Deliveries are recorded with their routed
 * jobs as the App's intake records them; the worker drains every due job.
 *
 * With a fault planted (`run(story, { fault })`), the simulator applies the nth write of the run
 * and holds its answer; the worker making it is killed there with SIGKILL, the clock moves past
 * its lease, and the next worker takes the job over, as another replica would. With `drop`, the
 * answer is dropped instead and the same worker sees a network error and retries.
 *
 * A run that will kill its worker starts the next one as it begins, so the kill costs no wait.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { agateRoute } from "../../app/compose.js";
import { openStore } from "../../app/store/open-store.js";
import type { Store } from "../../app/store/store.js";
import {
  type FaultEvent,
  type FaultMode,
  type GitHubSimulator,
  startGitHubSimulator,
} from "../github/index.js";
import { deliveryInput } from "./delivery-input.js";
import { type GitHubState, githubState } from "./github-state.js";
import { freshPostgresDatabase, frozenClock, type TestClock } from "./store.js";

const WORKER = fileURLToPath(new URL("./crash-worker.ts", import.meta.url));
const TSX = fileURLToPath(import.meta.resolve("tsx"));
/** A killed worker's job is taken over once the clock passes its lease. */
export const LEASE_MS = 5_000;
/** The start of every run: a whole minute, so a kill's few seconds change no rendered minute. */
const START = "2030-01-07T09:00:00.000Z";

export type Backend = "sqlite" | "postgres";

export interface Story {
  /** The repository it plays in: the state compared is this repository's. */
  repo: string;
  play(h: StoryContext): Promise<void>;
}

export interface StoryContext {
  readonly sim: GitHubSimulator;
  /** Records every new delivery with its jobs and runs every due job, until nothing is left. */
  work(): Promise<void>;
  /** Moves the clock (GitHub's and the App's) on, then works. */
  advance(ms: number): Promise<void>;
}

export interface RunResult {
  state: GitHubState;
  /** Writes the run made that the fault injector counted (the App's, no token exchange). */
  writes: number;
  /** The faulted write, when one was planted and reached. */
  fault: FaultEvent | undefined;
  /** Worker log lines, in order. */
  lines: string[];
  /** Jobs not done at the end (none, when the App lost nothing). */
  unfinished: { id: number; kind: string; status: string; last_error: string | null }[];
}

interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<void>;
}

function spawnWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const child = fork(WORKER, [], {
    execArgv: ["--import", TSX],
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.once("message", () => resolve({ child, exited }));
    void exited.then(() =>
      reject(new Error(`the crash worker exited before it was ready:\n${stderr}`)),
    );
  });
}

function drain(worker: WorkerProcess, now: Date, database: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string; lines?: string[]; message?: string }) => {
      worker.child.off("exit", onExit);
      worker.child.off("message", onMessage);
      if (message.type === "drained") resolve(message.lines ?? []);
      else reject(new Error(`the crash worker failed: ${message.message}`));
    };
    const onExit = () => {
      worker.child.off("message", onMessage);
      reject(new Error("the crash worker was killed"));
    };
    worker.child.on("message", onMessage);
    worker.child.once("exit", onExit);
    worker.child.send({ type: "drain", now: now.toISOString(), database });
  });
}

export interface CrashHarness {
  readonly sim: GitHubSimulator;
  /** Plays the story once on a fresh database; with `fault`, crashes at that write. */
  run(
    story: Story,
    options: { backend: Backend; fault?: { nth: number; mode: FaultMode } },
  ): Promise<RunResult>;
  close(): Promise<void>;
}

export async function startCrashHarness(): Promise<CrashHarness> {
  const sim = await startGitHubSimulator();
  const temp = mkdtempSync(join(tmpdir(), "agate-crash-"));
  const env = { ...sim.probotEnv(), AGATE_TEST_LEASE_MS: String(LEASE_MS) };
  const live = new Set<WorkerProcess>();
  let spare: Promise<WorkerProcess> | undefined;
  /** A worker starts while the run that will kill one plays up to its fault. */
  const prepareSpare = () => {
    spare ??= spawnWorker(env);
    spare.catch(() => undefined);
  };
  const take = async (): Promise<WorkerProcess> => {
    const next = await (spare ?? spawnWorker(env));
    spare = undefined;
    live.add(next);
    return next;
  };
  let worker = await take();
  let runs = 0;

  const run: CrashHarness["run"] = async (story, options) => {
    sim.reset();
    const clock: TestClock = frozenClock(START);
    sim.setClock(clock.now);
    const database =
      options.backend === "postgres"
        ? await freshPostgresDatabase()
        : { url: `file:${join(temp, `run-${++runs}.db`)}`, drop: async () => undefined };
    const store: Store = await openStore({ url: database.url, now: clock.now });
    const lines: string[] = [];
    let taken = 0;
    let fault: FaultEvent | undefined;
    let faulted: Promise<FaultEvent> | undefined;
    if (options.fault) {
      if (options.fault.mode === "hang") prepareSpare();
      faulted = sim.faults.arm(options.fault);
      void faulted.then((event) => {
        fault = event;
      });
    } else {
      sim.faults.count();
    }

    const record = async () => {
      await sim.flushWebhooks();
      const pending = sim.deliveries.slice(taken);
      taken = sim.deliveries.length;
      for (const d of pending) {
        const input = deliveryInput(d, clock.now().toISOString());
        await store.recordDelivery({
          ...input,
          jobs: agateRoute(d.event, JSON.parse(input.payload), d.id),
        });
      }
      return pending.length;
    };

    /** One drain; a hung write kills the worker and hands its job to the next one. */
    const drainOnce = async () => {
      const drained = drain(worker, clock.now(), database.url);
      drained.catch(() => undefined);
      const hung =
        faulted && !fault && options.fault?.mode === "hang"
          ? faulted.then(() => "hung" as const)
          : new Promise<never>(() => undefined);
      const outcome = await Promise.race([drained, hung]);
      if (outcome !== "hung") {
        lines.push(...outcome);
        return;
      }
      const victim = worker;
      victim.child.kill("SIGKILL");
      await victim.exited;
      live.delete(victim);
      sim.faults.release();
      lines.push(`-- killed the worker at write ${fault?.n} (${fault?.operationId})`);
      clock.advance(LEASE_MS + 1_000);
      worker = await take();
    };

    const context: StoryContext = {
      sim,
      work: async () => {
        for (let round = 0; round < 50; round++) {
          await record();
          await drainOnce();
          await sim.flushWebhooks();
          if (sim.deliveries.length === taken) {
            // Nothing new from GitHub: one more drain finds any job the last one queued.
            await drainOnce();
            await sim.flushWebhooks();
            if (sim.deliveries.length === taken) return;
          }
        }
        throw new Error("the story did not settle in 50 rounds (a loop of webhooks?)");
      },
      advance: async (ms) => {
        clock.advance(ms);
        await context.work();
      },
    };

    try {
      await story.play(context);
      const jobs = await store.listJobs();
      return {
        state: githubState(sim, story.repo),
        writes: sim.faults.counted,
        fault,
        lines,
        unfinished: jobs
          .filter(
            (j) => j.status !== "done" && !(j.status === "queued" && j.kind === "entries.deadline"),
          )
          .map((j) => ({ id: j.id, kind: j.kind, status: j.status, last_error: j.last_error })),
      };
    } finally {
      sim.faults.disarm();
      await store.close();
      await database.drop();
    }
  };

  return {
    sim,
    run,
    close: async () => {
      for (const w of live) {
        w.child.kill("SIGKILL");
        await w.exited;
      }
      const last = await spare?.catch(() => undefined);
      if (last) {
        last.child.kill("SIGKILL");
        await last.exited;
      }
      await sim.close();
      rmSync(temp, { recursive: true, force: true });
    },
  };
}
