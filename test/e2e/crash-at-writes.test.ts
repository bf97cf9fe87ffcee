/**
 * Every GitHub write exactly once across crashes (issue 27). Each story (the gate from an agent's
 * pull request to accepted by a maintainer's override, an entry from question to answer with a
 * timer, the dashboard) is played once uninterrupted, then again with the simulator applying one
 * of its writes and holding the answer: the worker process making it is killed there (SIGKILL),
 * and another takes the job over when its lease has passed, as a replica would. GitHub's final
 * state (every comment and its text, labels and their looks, issues, check runs and their
 * output) must equal the uninterrupted run's: nothing doubled, nothing lost. And no job is left
 * undone. `drop` plays the other failure: the answer is lost and the same process retries.
 *
 * `npm test` runs a slice (SLICE: the writes that used to double or be lost); `npm run
 * test:crash` (AGATE_CRASH_MATRIX=full, run by .ci/run) kills at every write of every story on
 * SQLite and PostgreSQL, and drops the answer to every write on SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultMode } from "../github/index.js";
import {
  type Backend,
  type CrashHarness,
  type RunResult,
  type Story,
  startCrashHarness,
} from "../support/crash-harness.js";
import { STORIES } from "../support/crash-stories.js";

const FULL = process.env.AGATE_CRASH_MATRIX === "full";

type StoryName = keyof typeof STORIES;

/**
 * The slice `npm test` plays, on SQLite (the replicas test kills at writes on PostgreSQL): per
 * story, the writes to crash at (1-based, as the fault injector counts them) and how. Each is one
 * a retry used to double or lose: the `/agate accept` reply (doubled), the comment about a label
 * changed by hand and an entry's put-back notice (lost once the label was right again), the
 * dashboard issue (opened twice by the client's own retry of a lost answer).
 */
const SLICE: Record<StoryName, Partial<Record<Backend, [number, FaultMode][]>>> = {
  gate: {
    sqlite: [
      [4, "drop"],
      [8, "hang"],
    ],
  },
  entry: { sqlite: [[12, "hang"]] },
  dashboard: { sqlite: [[11, "drop"]] },
};

let h: CrashHarness;
beforeAll(async () => {
  h = await startCrashHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/**
 * The full matrix: a kill at every write on both backends, and a lost answer at every write on
 * SQLite (the same process retrying does nothing the backend changes).
 */
function points(name: StoryName, backend: Backend, writes: number): [number, FaultMode][] {
  if (!FULL) return SLICE[name][backend] ?? [];
  const all: [number, FaultMode][] = [];
  for (let nth = 1; nth <= writes; nth++) {
    all.push([nth, "hang"]);
    if (backend === "sqlite") all.push([nth, "drop"]);
  }
  return all;
}

async function crashAtEveryWrite(name: StoryName, story: Story, backend: Backend) {
  const baseline = await h.run(story, { backend });
  expect(baseline.unfinished).toEqual([]);
  expect(baseline.writes).toBeGreaterThan(0);
  for (const [nth, mode] of points(name, backend, baseline.writes)) {
    const crashed: RunResult = await h.run(story, { backend, fault: { nth, mode } });
    const where = `${name} on ${backend}, ${mode} at write ${nth} (${crashed.fault?.operationId ?? "never reached"})`;
    expect.soft(crashed.fault, where).toBeDefined();
    expect.soft(crashed.unfinished, where).toEqual([]);
    expect.soft(crashed.state, `${where}\n${crashed.lines.join("\n")}`).toEqual(baseline.state);
  }
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`a crash at a GitHub write, on ${backend === "sqlite" ? "SQLite" : "PostgreSQL"}`, () => {
    for (const [name, story] of Object.entries(STORIES) as [StoryName, Story][]) {
      const planned = FULL || (SLICE[name][backend]?.length ?? 0) > 0;
      it.runIf(planned)(
        `${name}: GitHub ends as an uninterrupted run leaves it`,
        () => crashAtEveryWrite(name, story, backend),
        FULL ? 900_000 : 120_000,
      );
    }
  });
}
