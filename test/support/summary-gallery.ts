/**
 * The summaries gallery (docs/summaries.md): one example of every state, rendered by the real
 * renderers from fixed facts, so a change to what people read is reviewed as a text diff.
 * scripts/write-summaries.ts writes it; checks/gate/summaries-gallery.test.ts fails when the
 * committed file is stale.
 */
import { renderRecordMarkdown } from "../../action/summary.js";
import { decideGate } from "../../checks/gate/decide.js";
import { GLOSSARY } from "../../checks/gate/glossary.js";
import { decideMergeGroup, renderMergeGroupSummary } from "../../checks/gate/merge-group.js";
import { renderGateSummary } from "../../checks/gate/render.js";
import { codeSpan } from "../../checks/markdown.js";
import { DEFAULT_PROGRESS_THRESHOLDS } from "../../checks/progress/detector.js";
import type { CommandRecord } from "../../schemas/command-record.js";
import type { GateDecision, GateFacts, SetupFact, TraceFact } from "../../schemas/gate.js";
import type { MergeGroupFacts } from "../../schemas/merge-group.js";
import {
  attemptFact,
  BASE,
  CONFIG_TEXT,
  commandEvidence,
  commandRecord,
  configFact,
  EVIDENCE_WORKFLOW,
  evidenceRun,
  gateFacts,
  HEAD,
  judgedEvaluation,
  TREE,
} from "./gate-facts.js";

/** How the App read a branch's rules, for the entries about where a pass counts. */
function setupFact(branch: string, requires: SetupFact["requires"]): SetupFact {
  return {
    branch,
    status: requires === "this_app" ? "ok" : "problem",
    summary:
      requires === "this_app"
        ? `ruleset 42 of octo/widgets requires agate on \`${branch}\` from agate (app id 42)`
        : `no ruleset or branch protection requires agate on \`${branch}\`: pull requests can merge whatever agate decides`,
    fix: null,
    requires,
    merge_queue: false,
    read_at: "2026-12-02T10:00:00.000Z",
  };
}

export interface GalleryEntry {
  heading: string;
  /** When a reader sees it, in a sentence. */
  when: string;
  /** The gate state shown (for the coverage test); null for the Action's job summary. */
  state: GateDecision["state"] | null;
  /** The check run's title and conclusion; null for the job summary, which has neither. */
  check: { title: string; conclusion: string | null } | null;
  markdown: string;
  /** The facts a gate entry is decided on (for tests of what else is made of them). */
  facts?: GateFacts;
}

const sha = (c: string) => c.repeat(40);

/** A base config trying agate out: gate.report_only. */
const REPORT_ONLY = `${CONFIG_TEXT}gate:\n  report_only: true\n`;

/** The Action's trace reports of run 99: one Claude Code session busy without progress. */
function stalledTrace(): TraceFact {
  return {
    run_id: 99,
    run_attempt: 1,
    artifact: "agate-trace-report-attempt-1",
    traces: [
      {
        source: ".agate/trace/session.jsonl",
        report: {
          version: 1,
          format: "claude-code",
          records: 212,
          steps: 96,
          exit_status: null,
          counters: {
            new_information: 31,
            no_new_information: 65,
            milestones: 2,
            steps_since_last_milestone: 58,
            longest_without_milestone: 58,
            longest_without_new_information: 19,
            reverts: 3,
          },
          budgets: {
            model_calls: 97,
            tool_calls: 96,
            executed_tool_calls: 96,
            max_tool_calls_per_turn: 96,
            max_tool_calls_per_model_call: 1,
            turns: 1,
            input_tokens: 2_904_311,
            cached_input_tokens: 2_611_870,
            output_tokens: 18_422,
            peak_context_tokens: 61_950,
            cost_usd: null,
          },
          infrastructure_failures: [],
          infrastructure_failure_count: 0,
          findings: [
            {
              kind: "revert-cycle",
              from_step: 38,
              to_step: 71,
              at: "line 131",
              why: "the work tree returned to an earlier state 3 times without a command newly passing",
              excerpt:
                "step 41: git checkout src/lines.py | step 55: cp src/lines.py.orig src/lines.py",
            },
            {
              kind: "no-milestone",
              from_step: 39,
              to_step: 96,
              at: "line 133",
              why: "58 tool calls without a milestone (no command newly passing, no new failure, no edit that survived to the end) after the last one: the last 60% of the run; 48 brought nothing new, 3 restores of earlier work",
              excerpt: "python ×21, git ×9, cp ×6; first: sed -n 40,80p src/lines.py",
            },
            {
              kind: "no-new-information",
              from_step: 72,
              to_step: 90,
              at: "line 178",
              why: "19 tool calls in a row brought no new information",
              excerpt: "python -m pytest tests/test_lines.py -q",
            },
          ],
          findings_not_listed: 0,
          stalled: true,
          thresholds: { ...DEFAULT_PROGRESS_THRESHOLDS },
        },
        error: null,
      },
    ],
    error: null,
  };
}

/** The evaluator's failure on HEAD's tree, as the evaluator job stores it: no verdict. */
function failedEvaluation(): GateFacts["evaluation"] {
  const judged = judgedEvaluation({ complete: false, score: 0, missing: [] });
  if (judged.status !== "judged") throw new Error("a judged evaluation");
  return {
    status: "judged",
    evaluation: {
      ...judged.evaluation,
      outcome: {
        status: "failed",
        error:
          "HTTP 401 from https://api.openai.com/v1/chat/completions: Incorrect API key provided",
        fix: "set OPENAI_API_KEY (or AGATE_EVALUATOR_API_KEY with AGATE_EVALUATOR_API_KEY_URL) to a valid key in the App's environment, and restart it",
      },
    },
  };
}

/** A failing record as a real run leaves it: colour codes in one tail, a silent timeout. */
function failingRecord(): CommandRecord {
  const record = commandRecord([1, 1]);
  const [unit, lint] = record.commands;
  if (!unit || !lint) throw new Error("two commands");
  Object.assign(unit, { exit_code: null, timed_out: true, duration_ms: 600_000 });
  unit.output = { ...unit.output, bytes: 0, tail: "" };
  lint.duration_ms = 21;
  lint.output = {
    ...lint.output,
    bytes: 96,
    tail: "\u001b[31mFAIL\u001b[0m src/answer.ts:3:7\n  \u001b[1mno-unused-vars\u001b[22m: 'x' is assigned a value but never used\n",
  };
  return record;
}

function gateEntry(
  heading: string,
  when: string,
  facts: GateFacts,
  expected: GateDecision["state"],
): GalleryEntry {
  const decision = decideGate(facts);
  // The gallery shows what it says it shows, or it fails to build.
  if (decision.state !== expected) {
    throw new Error(`${heading}: the facts decide ${decision.state}, not ${expected}`);
  }
  return {
    heading,
    when,
    state: decision.state,
    check: { title: decision.title, conclusion: decision.conclusion },
    markdown: renderGateSummary(decision, facts),
    facts,
  };
}

function withRun(exitCodes: number[], record = commandRecord(exitCodes)) {
  return {
    evidence: [commandEvidence(exitCodes, { record })],
    evidence_run: evidenceRun(
      record,
      exitCodes.every((code) => code === 0) ? "success" : "failure",
    ),
  };
}

/** A head whose commands passed, under an `llm` evaluator that came to `evaluation`. */
function afterLlmEvaluator(evaluation: GateFacts["evaluation"]) {
  return {
    config: configFact(`${CONFIG_TEXT}evaluator: { kind: llm, model: judge-1, min_score: 0.8 }\n`),
    ...withRun([0, 0]),
    evaluation,
  };
}

export function galleryEntries(): GalleryEntry[] {
  const workflowChange = [
    { filename: EVIDENCE_WORKFLOW, previous_filename: null, status: "modified" },
  ];
  const stalledAttempts = [attemptFact(sha("a"), sha("8")), attemptFact(sha("c"), sha("9"))];
  const mergeGroupRecord = commandRecord([0, 1], {
    tested: { ...commandRecord().tested, sha: HEAD, tree_sha: TREE, parents: [BASE] },
    pull_request: null,
    merge_group: {
      head_ref: "refs/heads/gh-readonly-queue/main/pr-7-abc",
      head_sha: HEAD,
      base_sha: BASE,
    },
  });
  const mergeGroupRun = evidenceRun(mergeGroupRecord, "failure");
  mergeGroupRun.run.event = "merge_group";
  const mergeGroup: MergeGroupFacts = {
    merge_group: {
      repository: "octo/widgets",
      head_sha: HEAD,
      head_ref: "refs/heads/gh-readonly-queue/main/pr-7-abc",
      base_sha: BASE,
    },
    config: configFact(),
    changed_files: [{ filename: "src/a.ts", previous_filename: null, status: "modified" }],
    changed_files_listing: { complete: true, reason: null },
    evidence_source: null,
    evidence_run: mergeGroupRun,
    evidence: [commandEvidence([], { record: mergeGroupRecord })],
    deadline_passed: false,
    agate_version: "0.1.0",
  };
  const mergeDecision = decideMergeGroup(mergeGroup);
  const reportOnlyGroup: MergeGroupFacts = { ...mergeGroup, config: configFact(REPORT_ONLY) };
  const reportOnlyGroupDecision = decideMergeGroup(reportOnlyGroup);

  return [
    gateEntry(
      "Accepted",
      "Every required command passed on the head, and nothing else is asked for.",
      gateFacts(withRun([0, 0])),
      "accepted",
    ),
    gateEntry(
      "Accepted by a maintainer's override",
      "The pull request changed the evidence workflow, so agate believes no record of it; a maintainer accepted this exact commit with `/agate accept`.",
      gateFacts({
        changed_files: workflowChange,
        evidence: [
          commandEvidence([0, 0], {
            refused: `the change modifies \`${EVIDENCE_WORKFLOW}\`, which the evidence workflow is or uses`,
          }),
        ],
        override: {
          by: "octocat",
          reason: "the workflow change is reviewed",
          at: "2026-12-02T12:00:00Z",
          comment_url: null,
        },
      }),
      "accepted",
    ),
    gateEntry(
      "Rejected: a command failed",
      "A required command failed on the head: one timed out without output, one failed with coloured output (shown without its escape codes).",
      gateFacts(withRun([1, 1], failingRecord())),
      "rejected",
    ),
    gateEntry(
      "Rejected: the evaluator found work missing",
      "The commands passed; the evaluator (a fresh model session) did not sign off, and its missing items are the next work.",
      gateFacts(
        afterLlmEvaluator(
          judgedEvaluation({
            complete: false,
            score: 0.4,
            missing: ["Document the retry count in README.md"],
          }),
        ),
      ),
      "rejected",
    ),
    gateEntry(
      "Stalled",
      "The third failed attempt in a row with the same normalised output: busy, but no progress.",
      gateFacts({ attempts: stalledAttempts, ...withRun([1, 0]) }),
      "stalled",
    ),
    gateEntry(
      "Capped",
      "The pull request has used its graded attempts (budgets.graded_attempts_per_pr); a new head is not graded.",
      gateFacts({
        attempts: Array.from({ length: 10 }, (_, i) =>
          attemptFact(sha(String.fromCharCode(97 + (i % 6))), sha(String(i)), sha(String(i))),
        ),
        ...withRun([0, 0]),
      }),
      "capped",
    ),
    gateEntry(
      "Blocked: the base branch's config is invalid",
      "The config is read from the base branch, so the pull request cannot fix it: a maintainer must.",
      gateFacts({
        config: {
          status: "invalid",
          path: ".github/agate.yml",
          message:
            '.github/agate.yml is not a valid agate config (1 problem):\n  - commands[0].timeout at line 5, column 14: "10x" is not a duration such as 90s, 10m or 1h',
        },
      }),
      "blocked",
    ),
    gateEntry(
      "Escalated",
      "The commands passed, but the pull request changes a protected path; it needs a maintainer's approval of this exact commit.",
      gateFacts({
        changed_files: [
          {
            filename: ".github/workflows/release.yml",
            previous_filename: null,
            status: "modified",
          },
        ],
        ...withRun([0, 0]),
      }),
      "escalated",
    ),
    gateEntry(
      "Escalated: a linked handoff entry needs a maintainer",
      "Every requirement passed, but the agent's handoff entry that names this pull request was escalated: a maintainer must decide what it asks.",
      gateFacts({
        ...withRun([0, 0]),
        entries: [
          {
            issue_number: 31,
            state: "escalated",
            author: "codex[bot]",
            owner: "claude[bot]",
            escalation_reason: "money",
            why: "the fix needs the paid geocoding tier (about 40 EUR a month)",
            question: "Which geocoding provider may the importer call in production?",
            state_changed_at: "2026-12-02T11:20:00.000Z",
          },
          {
            issue_number: 29,
            state: "resolved",
            author: "codex[bot]",
            owner: "claude[bot]",
            escalation_reason: null,
            why: null,
            question: "Which port does the staging database listen on?",
            state_changed_at: "2026-12-02T10:05:00.000Z",
          },
        ],
      }),
      "escalated",
    ),
    gateEntry(
      "Rejected, with a stall in the agent's trace",
      "The evidence run uploaded the agent's trace; agate's detector found it busy without progress, the evaluator was told, and named what is missing (the stall itself decides nothing).",
      gateFacts({
        ...afterLlmEvaluator(
          judgedEvaluation({
            complete: false,
            score: 0.4,
            missing: ["The retry limit is hard-coded; read it from the config as the task asks"],
          }),
        ),
        trace: stalledTrace(),
      }),
      "rejected",
    ),
    gateEntry(
      "Blocked: the evaluator is unavailable",
      "The commands passed, but the evaluator could not be asked (here its endpoint refused the App's key): the fix is the App operator's, and the check offers Re-run evaluator.",
      gateFacts(afterLlmEvaluator(failedEvaluation())),
      "blocked",
    ),
    gateEntry(
      "Waiting",
      "The pull request was opened or pushed; no run of the evidence workflow has reported yet.",
      gateFacts(),
      "pending",
    ),
    gateEntry(
      "Accepted, in a repository that does not require agate",
      "The base branch's rulesets and branch protection, as the App's installation reads them, require no agate check from this App: the summary says the check may not block merging and what to change (the decision is the same).",
      gateFacts({
        ...withRun([0, 0]),
        setup: {
          branch: "main",
          status: "problem",
          summary:
            "ruleset 42 of octo/widgets requires agate on `main` from any source: a check run of that name from anyone (a workflow the pull request edits) would satisfy it",
          fix: "pick agate as the check's source there",
          requires: "any_source",
          merge_queue: true,
          read_at: "2026-12-02T10:00:00.000Z",
        },
      }),
      "accepted",
    ),
    gateEntry(
      "Accepted on a branch that does not require agate, while the default branch does",
      "The pull request targets `evil`, a branch whose rules require no agate check, and every requirement passed; `main` requires agate from this App. A pass here would stand for the commit if it were proposed to `main` next (a retarget), so the check is held in progress, saying why.",
      (() => {
        const facts = gateFacts({
          ...withRun([0, 0]),
          setup: setupFact("evil", "none"),
          default_setup: setupFact("main", "this_app"),
        });
        facts.pull_request = { ...facts.pull_request, base_ref: "evil" };
        return facts;
      })(),
      "accepted",
    ),
    gateEntry(
      "Report only: would be rejected",
      "The base config sets `gate.report_only: true` (agate being tried out): a required command failed, so enforced the check would fail; it concludes neutral and never blocks a merge.",
      gateFacts({ config: configFact(REPORT_ONLY), ...withRun([0, 1]) }),
      "rejected",
    ),
    gateEntry(
      "Report only: would be waiting",
      "The base config sets `gate.report_only: true`; no run of the evidence workflow has reported yet. Enforced, the check would stay in progress; tried out, it is neutral at once, so it holds no merge.",
      gateFacts({ config: configFact(REPORT_ONLY) }),
      "pending",
    ),
    gateEntry(
      "Not gated",
      "The base branch has no config: this repository has not adopted agate (the check is neutral).",
      gateFacts({ config: { status: "missing", path: ".github/agate.yml" } }),
      "not_gated",
    ),
    {
      heading: "Merge group: rejected",
      when: "A merge queue group whose head failed a required command.",
      state: null,
      check: { title: mergeDecision.title, conclusion: mergeDecision.conclusion },
      markdown: renderMergeGroupSummary(mergeDecision, mergeGroup),
    },
    {
      heading: "Merge group: report only",
      when: "The same merge group with `gate.report_only: true` in the base config: what agate would decide, concluded neutral, so the queue is never failed or held.",
      state: null,
      check: {
        title: reportOnlyGroupDecision.title,
        conclusion: reportOnlyGroupDecision.conclusion,
      },
      markdown: renderMergeGroupSummary(reportOnlyGroupDecision, reportOnlyGroup),
    },
    {
      heading: "The Action's job summary",
      when: "What the agate step writes to the workflow run's page (no title: a job summary has none).",
      state: null,
      check: null,
      markdown: renderRecordMarkdown(failingRecord()),
    },
  ];
}

/** docs/summaries.md, whole. */
export function summariesGallery(): string {
  const entries = galleryEntries();
  const lines = [
    "# What agate's summaries look like",
    "",
    "<!-- Generated by `npm run summaries` (scripts/write-summaries.ts) from the real renderers and fixed facts; do not edit. -->",
    "",
    "One example of every state of the `agate` check, the merge-group check and the Action's job summary, rendered by the code that writes them. On GitHub the check's title is shown above its summary. A change to any summary changes this file, so it is reviewed as text.",
    "",
    ...entries.map((e) => `- [${e.heading}](#${anchor(e.heading)})`),
    `- [What the words mean](#${anchor(GLOSSARY_HEADING)})`,
    "",
  ];
  for (const entry of entries) {
    lines.push("---", "", `## ${entry.heading}`, "", entry.when, "");
    if (entry.check) {
      lines.push(
        `Check title: ${codeSpan(entry.check.title, 300)}  `,
        `Conclusion: ${entry.check.conclusion === null ? "none yet (in progress)" : `\`${entry.check.conclusion}\``}`,
        "",
      );
    }
    lines.push(entry.markdown.trimEnd(), "");
  }
  // The definitions the summaries link to, once each (checks/gate/glossary.ts).
  lines.push("---", "", `## ${GLOSSARY_HEADING}`, "");
  for (const { term, definition } of GLOSSARY) lines.push(`### ${term}`, "", definition, "");
  return `${lines.join("\n")}`;
}

/** The heading GLOSSARY_URL points at. */
export const GLOSSARY_HEADING = "What the words mean";

/** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");
}
