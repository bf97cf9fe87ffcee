/**
 * Tests only: repositories the evidence e2e tests start from, and a pull request from a fork, as
 * the gate harness (gate-harness.ts) plays them against the simulator.
 */
import { expect } from "vitest";
import type { GitHubSimulator } from "../github/index.js";
import type { PermissionLevel } from "../github/state.js";
import { ANSWER_CONFIG, EVIDENCE_WORKFLOW_TEXT, type GateHarness } from "./gate-harness.js";

/** The answer config as written (no runner settings added), answer.txt at 0, the README's workflow. */
export async function createAnswerRepository(
  sim: GitHubSimulator,
  repo: string,
  config = ANSWER_CONFIG,
): Promise<void> {
  await sim.createRepository({
    repo,
    files: {
      ".github/agate.yml": config,
      "answer.txt": "0\n",
      ".github/workflows/agate.yml": EVIDENCE_WORKFLOW_TEXT,
    },
  });
}

/**
 * `outsider` forks `repo`, pushes `files` to the fork's `fix` and opens a pull request from it
 * into the default branch; the deliveries that causes are handled. Resolves with the fork's head.
 */
export async function outsiderPullRequest(
  gate: GateHarness,
  repo: string,
  files: Record<string, string>,
): Promise<string> {
  const fork = await gate.sim.forkRepository({ repo, owner: "outsider" });
  const head = await gate.sim.pushCommit({
    owner: fork.owner,
    repo: fork.repo,
    branch: "fix",
    files,
    author: "outsider",
  });
  await gate.sim.openPullRequest({
    repo,
    head: "fix",
    headOwner: "outsider",
    title: "Fix",
    user: "outsider",
  });
  await gate.processDeliveries();
  return head;
}

/** A local action the evidence workflow uses: as it stands on the base, and as the agent edits it. */
const SETUP_ACTION = ".github/actions/setup/action.yml";
const SETUP_ON_BASE =
  "runs:\n  using: composite\n  steps:\n    - run: echo set up\n      shell: bash\n";
const SETUP_EDITED = "runs:\n  using: composite\n  steps: []\n";

/**
 * A repository whose evidence workflow (`workflow`, on the base) uses the local action; the
 * agent's pull request sets answer.txt to `answer` and edits that action.
 */
export function pullRequestEditingSetupAction(
  gate: GateHarness,
  repo: string,
  workflow: string,
  answer: string,
): Promise<{ head: string; number: number; branch: string }> {
  return gate.agentPullRequest(
    repo,
    { "answer.txt": answer, [SETUP_ACTION]: SETUP_EDITED },
    { baseFiles: { ".github/workflows/agate.yml": workflow, [SETUP_ACTION]: SETUP_ON_BASE } },
  );
}

/** `user`, given `permission` on the repository, approves `head` (the deliveries wait). */
export async function approvesAs(
  gate: GateHarness,
  pull: { repo: string; number: number; head: string },
  user: string,
  permission: PermissionLevel,
): Promise<void> {
  const { repo, number, head } = pull;
  gate.sim.setPermission({ repo, user, permission });
  await gate.sim.submitReview({ repo, number, state: "APPROVED", user, commitId: head });
}

/** `maintainer`, given write access, approves `head`; the deliveries that causes are handled. */
export async function maintainerApproves(
  gate: GateHarness,
  repo: string,
  number: number,
  head: string,
): Promise<void> {
  await approvesAs(gate, { repo, number, head }, "maintainer", "write");
  await gate.processDeliveries();
}

/**
 * The agent's pull request also adds a workflow (a protected path): after CI it waits for a
 * maintainer (`action_required`), which this asserts.
 */
export async function workflowEditPullRequest(
  gate: GateHarness,
  repo: string,
): Promise<{ head: string; number: number; branch: string }> {
  const opened = await gate.agentPullRequest(repo, {
    "answer.txt": "42\n",
    ".github/workflows/lint.yml": "on: push\n",
  });
  await gate.ci(repo, opened.branch, opened.head);
  expect(gate.gateCheck(repo, opened.head)).toMatchObject({ conclusion: "action_required" });
  return opened;
}
