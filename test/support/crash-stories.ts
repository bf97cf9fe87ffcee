/**
 * Tests only: the stories the crash-at-every-write tests play (crash-harness.ts), each in a
 * repository of its own. Together they make every kind of write agate makes on GitHub: check
 * runs created and updated, labels added, removed and styled, replies to commands (accepted and
 * refused), comments about labels a person changed, a refused entry form, issues closed, the
 * dashboard issue opened and edited.
 */
import type { GitHubSimulator } from "../github/index.js";
import type { Story, StoryContext } from "./crash-harness.js";
import { ENTRY_FORM } from "./entries-harness.js";

const MINUTE = 60_000;

const CONFIG = `version: 1
commands:
  - name: test
    run: "true"
escalation:
  claim_timeout: 10m
  unanswered_timeout: 30m
`;

/** A story in a repository of its own, made with the config before `play` starts. */
function storyIn(repo: string, play: (h: StoryContext, repo: string) => Promise<void>): Story {
  return {
    repo,
    async play(h) {
      await h.sim.createRepository({ repo, files: { ".github/agate.yml": CONFIG } });
      await play(h, repo);
    },
  };
}

/**
 * The gate from an agent's pull request to accepted: its check in progress (no evidence yet); an
 * `/agate accept` from someone without write access, refused; an `agate:` label a person put on,
 * taken off with a comment; a maintainer's `/agate accept`, stored as an override: the check
 * accepted, its label (GitHub makes it grey, agate styles it), the reply.
 */
export const GATE_STORY = storyIn("gate", async ({ sim, work }, repo) => {
  sim.setPermission({ repo, user: "lead", permission: "write" });
  const head = await sim.pushCommit({ repo, branch: "codex/x", files: { "a.txt": "a\n" } });
  const { number } = await sim.openPullRequest({
    repo,
    head: "codex/x",
    title: "Half done",
    user: "agent-a",
  });
  await work();
  await sim.addIssueComment({
    repo,
    number,
    body: `/agate accept ${head} trust me`,
    user: "agent-b",
  });
  await work();
  await sim.addLabels({ repo, number, labels: ["agate:accepted"], user: "someone" });
  await work();
  await sim.addIssueComment({
    repo,
    number,
    body: `/agate accept ${head} checked by hand`,
    user: "lead",
  });
  await work();
});

/** Agent A opens a handoff entry titled `title`, its form filled (`fields` replace answers). */
const agentAsks = (
  sim: GitHubSimulator,
  repo: string,
  title: string,
  fields: Parameters<typeof ENTRY_FORM>[0] = {},
) => sim.createIssue({ repo, title, body: ENTRY_FORM(fields), user: "agent-a" });

/**
 * An entry from a question to its answer, with a timer: opened (labelled, styled, replied to),
 * claimed, the claim expiring 10 minutes later (back to open), a label a person took off put
 * back with a notice, claimed again, answered: resolved and closed.
 */
export const ENTRY_STORY = storyIn("entry", async ({ sim, work, advance }, repo) => {
  const n = await agentAsks(sim, repo, "Handoff");
  await work();
  await sim.addIssueComment({ repo, number: n, body: "/claim", user: "agent-b" });
  await work();
  await advance(11 * MINUTE);
  await sim.removeLabel({ repo, number: n, label: "agate:open", user: "someone" });
  await work();
  await sim.addIssueComment({ repo, number: n, body: "/claim", user: "agent-c" });
  await work();
  await sim.addIssueComment({ repo, number: n, body: "/answer 5433", user: "agent-c" });
  await work();
});

/**
 * The dashboard: two entries; one escalated (the dashboard issue is opened listing it), the other
 * blocked when nobody answers it for 30 minutes (the dashboard is edited to list both). Then a
 * form without what was tried: refused with a comment, and closed.
 */
export const DASHBOARD_STORY = storyIn("dash", async ({ sim, work, advance }, repo) => {
  const a = await agentAsks(sim, repo, "Paid plan");
  await agentAsks(sim, repo, "Region", { question: "Which region?" });
  await work();
  await sim.addIssueComment({
    repo,
    number: a,
    body: "/escalate money the staging database needs a paid plan",
    user: "agent-a",
  });
  await work();
  await advance(31 * MINUTE);
  await agentAsks(sim, repo, "Half a form", { tried: "_No response_" });
  await work();
});

export const STORIES = { gate: GATE_STORY, entry: ENTRY_STORY, dashboard: DASHBOARD_STORY };
