/**
 * Every label agate owns, with its look: one table for pull requests and handoff entries. The two
 * share `agate:blocked` and `agate:escalated`, and a repository has one label of each name, so a
 * name has one look here (with a look each, every use restyled it to its own).
 */
export interface LabelStyle {
  color: string;
  description: string;
}

export const AGATE_LABELS = {
  // Pull requests: the states one stays in until someone acts (checks/gate/plan.ts).
  "agate:accepted": { color: "0e8a16", description: "agate: every requirement passed on the head" },
  "agate:rejected": {
    color: "b60205",
    description: "agate: a requirement failed; see the agate check",
  },
  "agate:stalled": {
    color: "e4e669",
    description:
      "agate: attempts stopped making progress; the agate check shows the repeated failure",
  },
  "agate:capped": {
    color: "c5def5",
    description: "agate: a budget is spent; the agate check names it and how to raise it",
  },
  // Both: what agate says on the pull request's check or on the entry.
  "agate:blocked": {
    color: "5319e7",
    description: "agate: blocked on something outside it, or parked; its check or entry says what",
  },
  "agate:escalated": {
    color: "d93f0b",
    description: "agate: needs a maintainer's decision; its check or entry says which",
  },
  // Handoff entries (checks/entries/projection.ts).
  "agate:open": {
    color: "0e8a16",
    description: "Handoff entry: waiting for an agent to /claim it",
  },
  "agate:claimed": { color: "fbca04", description: "Handoff entry: one owner is answering it" },
  "agate:resolved": { color: "5319e7", description: "Handoff entry: answered by its owner" },
  "agate:blocking": {
    color: "e99695",
    description: "An agent is waiting on this entry (derived)",
  },
  "agate:background": {
    color: "c5def5",
    description: "Nobody is waiting on this entry (derived)",
  },
} as const satisfies Record<string, LabelStyle>;

/**
 * The labels people filter on: each state a pull request stays in until someone acts. `pending`
 * (waiting for evidence, minutes after every push) has none: the check shows it in progress, and
 * a label for it would cost two label writes and two webhooks per push. agate removes a
 * `agate:pending` left by earlier versions as it removes any other stray state label.
 */
export const STATE_LABELS: Record<string, LabelStyle> = Object.fromEntries(
  (
    [
      "agate:accepted",
      "agate:rejected",
      "agate:blocked",
      "agate:stalled",
      "agate:capped",
      "agate:escalated",
    ] as const
  ).map((name) => [name, AGATE_LABELS[name]]),
);
