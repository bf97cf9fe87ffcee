// What the simulator's own test files share: one simulator per file, reset before each test, and
// the pull request most tests start from (an agent's branch and its pull request).
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type Receiver, startReceiver } from "./receiver.js";
import { type GitHubSimulator, type SimulatorOptions, startGitHubSimulator } from "./simulator.js";

/**
 * One simulator for the test file (start-up costs seconds): started before its tests, closed
 * after them, `reset()` before each test, then `seed` runs. With `receiver: true` webhooks go to a
 * local receiver, emptied before each test too. Call once, at the top level. What it returns
 * stands for the simulator and receiver, which exist only once the file's tests start: use them
 * inside hooks and tests.
 */
export function useSimulator(
  setup: {
    options?: SimulatorOptions;
    receiver?: boolean;
    seed?: (sim: GitHubSimulator) => Promise<unknown>;
  } = {},
): { sim: GitHubSimulator; receiver: Receiver } {
  let sim: GitHubSimulator | undefined;
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    receiver = setup.receiver ? await startReceiver() : undefined;
    sim = await startGitHubSimulator({
      ...setup.options,
      ...(receiver ? { webhookUrl: receiver.url } : {}),
    });
  });
  afterAll(async () => {
    await sim?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    const started = need(sim, "simulator");
    started.reset();
    if (receiver) receiver.received.length = 0;
    await setup.seed?.(started);
  });
  return {
    sim: standIn(() => need(sim, "simulator")),
    receiver: standIn(() => need(receiver, "receiver (useSimulator({receiver: true}))")),
  };
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the ${what} is not started: use it inside a test`);
  return value;
}

/** Forwards every property read to the object `get` returns at that moment. */
function standIn<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(get(), key),
    has: (_, key) => Reflect.has(get(), key),
  });
}

/**
 * What most tests start from: an agent pushes `files` to a branch (default `agent/1`) and opens
 * a pull request into the default branch. Resolves once its webhooks were answered.
 */
export async function agentPull(
  sim: GitHubSimulator,
  input: {
    repo: string;
    files?: Record<string, string | null>;
    branch?: string;
    title?: string;
    labels?: string[];
    /** The branch it goes into; the default branch when absent. */
    base?: string;
  },
): Promise<{ head: string } & Awaited<ReturnType<GitHubSimulator["openPullRequest"]>>> {
  const branch = input.branch ?? "agent/1";
  const head = await sim.pushCommit({
    repo: input.repo,
    branch,
    files: input.files ?? { "a.txt": "a\n" },
    author: "codex[bot]",
  });
  const opened = await sim.openPullRequest({
    repo: input.repo,
    head: branch,
    ...(input.base ? { base: input.base } : {}),
    title: input.title ?? "Task",
    user: "codex[bot]",
    ...(input.labels ? { labels: input.labels } : {}),
  });
  return { head, ...opened };
}

/**
 * A pull request from a fork: `owner` (a user) forks `repo`, pushes `files` to `branch` of the
 * fork and opens a pull request from it into the default branch.
 */
export async function forkPull(
  sim: GitHubSimulator,
  input: {
    repo: string;
    owner: string;
    files: Record<string, string>;
    branch?: string;
    title?: string;
  },
): Promise<
  { fork: Awaited<ReturnType<GitHubSimulator["forkRepository"]>>; head: string } & Awaited<
    ReturnType<GitHubSimulator["openPullRequest"]>
  >
> {
  const { repo, owner } = input;
  const branch = input.branch ?? "fix";
  const fork = await sim.forkRepository({ repo, owner });
  const head = await sim.pushCommit({ owner, repo, branch, files: input.files, author: owner });
  const opened = await sim.openPullRequest({
    repo,
    head: branch,
    headOwner: owner,
    title: input.title ?? "Fork fix",
    user: owner,
  });
  return { fork, head, ...opened };
}
