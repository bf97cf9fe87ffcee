/**
 * What the words in agate's summaries mean. A summary says what happened and what to do; the
 * definitions live once, in docs/summaries.md (written from this list by
 * scripts/write-summaries.ts), and each summary links there once, at its end.
 */

/** Where the definitions are on GitHub: a summary is read there, where a relative link breaks. */
export const GLOSSARY_URL =
  "https://github.com/agate-gate/agate/blob/main/docs/summaries.md#what-the-words-mean";

export interface GlossaryTerm {
  term: string;
  definition: string;
}

export const GLOSSARY: readonly GlossaryTerm[] = [
  {
    term: "Graded attempt",
    definition:
      "A head of the pull request counts as a graded attempt once a command record of it is believed, or when its unchanged tree replays an earlier failure. `budgets.graded_attempts_per_pr` caps them: past it the pull request is capped.",
  },
  {
    term: "Believed record",
    definition:
      "A command record the App believes: the one record of the newest attempt of the evidence workflow's run for this exact head, with GitHub's own data (the workflow, the job, the step's conclusion, the tested commit) agreeing with it. Any other record is listed under Not believed, with why.",
  },
  {
    term: "Stale",
    definition:
      "A push makes every record of earlier heads stale: they stay in the history, and count for nothing on the new head.",
  },
  {
    term: "Override",
    definition:
      "A maintainer (a person listed in `escalation.maintainers` or in a team listed there; with none listed, anyone with write access; never a bot, never the author) accepted this exact head with `/agate accept <sha> <why>`. It stands over every other requirement, which the summary still shows as set aside; any push or retarget voids it.",
  },
  {
    term: "Handoff entry",
    definition:
      "An issue an agent opened when stuck. An entry whose form names this pull request, or that its description mentions, only holds it back: open or claimed waits for its answer, blocked parks it, escalated needs a maintainer; resolved releases it.",
  },
  {
    term: "Agent trace",
    definition:
      "The agent's own log of its run, read by agate's stall detector in the evidence job. The agent wrote it, so it is shown as data; a stall is told to the evaluator and never accepts or rejects by itself.",
  },
  {
    term: "Report only",
    definition:
      "`gate.report_only: true` in the base config: everything runs as when enforced, the summary says what agate would decide, and the check concludes neutral, so it never blocks a merge or a merge queue.",
  },
];

/** The one link a summary carries to the definitions. */
export const GLOSSARY_LINK = `[What the words here mean](${GLOSSARY_URL}).`;
