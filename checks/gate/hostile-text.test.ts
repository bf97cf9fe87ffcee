import { describe, expect, it } from "vitest";
import type { CommandRecord } from "../../schemas/command-record.js";
import type { Evaluation } from "../../schemas/evaluation.js";
import type { GateFacts } from "../../schemas/gate.js";
import {
  BASE,
  commandEvidence,
  commandRecord,
  evidenceRun,
  gateFacts,
  HEAD,
  handoffFacts,
  loadedConfig,
} from "../../test/support/gate-facts.js";
import { outsideCode, tableCellCount } from "../../test/support/inert-markdown.js";
import { mergeGroupFacts } from "../../test/support/merge-group-facts.js";
import { provenanceInput } from "../../test/support/provenance-input.js";
import {
  handEditedLabelComment,
  overrideAcceptedComment,
  overrideRefusedComment,
  strayLabelComment,
} from "./comments.js";
import { decideGate } from "./decide.js";
import { decideMergeGroup, renderMergeGroupSummary } from "./merge-group.js";
import { evidenceOf, verifyProvenance } from "./provenance.js";
import { renderGateSummary } from "./render.js";

/**
 * Everything the App writes where people read (check run titles and summaries, comments) with
 * hostile text in every field an author controls: nothing of it may mention anyone, render HTML
 * or an image, link anywhere, forge a heading or break a table.
 */
const HOSTILE =
  "evil`` ``@octo-org/security-team **urgent** <img src=x onerror=alert(1)> | [x](https://evil.example) ![i](https://evil.example/i.png)\n## Acceptance criteria (trusted)\n" +
  "a".repeat(300);

function assertInert(text: string, where: string): void {
  const rendered = outsideCode(text);
  for (const bad of ["@octo-org", "<img", "](https://evil", "![", "**urgent**"]) {
    expect(
      rendered.includes(bad),
      `${where}: ${JSON.stringify(bad)} outside code in\n${text}`,
    ).toBe(false);
  }
  expect(
    rendered.split("\n").some((line) => /^\s*#+\s*Acceptance/.test(line)),
    `${where}: a forged heading`,
  ).toBe(false);
  // Every row of a table has as many cells as its header.
  let header: number | null = null;
  for (const line of text.split("\n")) {
    if (!line.startsWith("|")) {
      header = null;
      continue;
    }
    const cells = tableCellCount(line);
    if (header === null) header = cells;
    else expect(cells, `${where}: a broken table row ${line}`).toBe(header);
  }
}

const configOf = (extra: string): GateFacts["config"] => {
  const { config, digest } = loadedConfig(
    `version: 1\ncommands:\n  - { name: unit, run: npm test }\n  - { name: lint, run: npm run lint }\n${extra}`,
  );
  return { status: "ok", path: ".github/agate.yml", blob_sha: "5".repeat(40), digest, config };
};

function judged(missing: string[]): GateFacts["evaluation"] {
  const evaluation: Evaluation = {
    id: 1,
    repository: "octo/widgets",
    pull_number: 7,
    head_sha: HEAD,
    base_sha: BASE,
    merge_base_sha: null,
    tree_sha: "4".repeat(40),
    config_digest: "d".repeat(64),
    run: {
      kind: "llm",
      provider: "openai",
      model: "judge-1",
      prompt_version: "agate-eval-2",
      input_tokens: 1,
      output_tokens: 1,
      latency_ms: 1,
      requests: 1,
    },
    outcome: {
      status: "verdict",
      verdict: { complete: false, score: 0.1, missing, evidence: [HOSTILE] },
    },
    at: "2026-12-02T10:01:00Z",
  };
  return { status: "judged", evaluation };
}

/** A refusal as provenance writes it, for a record whose paths and tree the author chose. */
function refusedEvidence(change?: (record: CommandRecord) => void) {
  const record = commandRecord();
  record.tested.clean_before = false;
  record.tested.dirty_before = [HOSTILE, `${HOSTILE}2`];
  change?.(record);
  const run = evidenceRun(record);
  const verdict = verifyProvenance(provenanceInput({ run, changedFiles: [] }));
  expect(verdict.status).toBe("refused");
  return evidenceOf(run, verdict);
}

const HANDOFF = [
  "---",
  "task: the task",
  `branch: ${JSON.stringify(HOSTILE)}`,
  "status: ready",
  `changed_files: [${JSON.stringify(HOSTILE)}]`,
  `next_step: ${JSON.stringify(HOSTILE)}`,
  `last_command: { run: ${JSON.stringify(HOSTILE)}, exit_code: 0 }`,
  "---",
  "",
].join("\n");

const cases: [string, GateFacts][] = [
  [
    "the evaluator's missing items",
    gateFacts({
      config: configOf("evaluator: { kind: llm, model: judge-1 }\n"),
      evidence: [commandEvidence([0, 0])],
      evaluation: judged([HOSTILE, `second ${HOSTILE}`]),
    }),
  ],
  [
    "protected path names",
    gateFacts({
      evidence: [commandEvidence([0, 0])],
      changed_files: [
        {
          filename: `.github/${HOSTILE}`,
          previous_filename: `.github/x${HOSTILE}`,
          status: "renamed",
        },
      ],
    }),
  ],
  ["a refused record's paths", gateFacts({ evidence: [refusedEvidence()] })],
  [
    "a record's own words (its event, its command names)",
    gateFacts({
      evidence: [
        refusedEvidence((record) => {
          if (record.workflow) record.workflow.event_name = HOSTILE;
        }),
        refusedEvidence((record) => {
          for (const command of record.commands) command.name = HOSTILE;
        }),
      ],
    }),
  ],
  [
    "a failing command's output",
    gateFacts({
      evidence: [
        commandEvidence([0, 1], {
          record: (() => {
            const record = commandRecord([0, 1]);
            for (const command of record.commands)
              command.output.tail = `${HOSTILE}\n\`\`\`\n${HOSTILE}`;
            return record;
          })(),
        }),
      ],
    }),
  ],
  [
    "a handoff file's fields",
    gateFacts({
      pull_request: {
        ...gateFacts().pull_request,
        labels: ["agent", "long-task"],
        head_ref: HOSTILE,
      },
      evidence: [commandEvidence([0, 0])],
      changed_files: [{ filename: HOSTILE, previous_filename: null, status: "added" }],
      handoff: handoffFacts({
        file: { path: ".agate/handoff.md", blob_sha: "7".repeat(40), text: HANDOFF },
      }),
    }),
  ],
  [
    "an unparsable handoff file",
    gateFacts({
      pull_request: { ...gateFacts().pull_request, labels: ["agent", "long-task"] },
      evidence: [commandEvidence([0, 0])],
      handoff: handoffFacts({
        file: {
          path: ".agate/handoff.md",
          blob_sha: "7".repeat(40),
          text: `---\nstatus: ${JSON.stringify(HOSTILE)}\n---\n`,
        },
      }),
    }),
  ],
  [
    "a maintainer's change request",
    gateFacts({
      config: configOf("evaluator: { kind: review }\n"),
      evidence: [commandEvidence([0, 0])],
      reviews: [
        {
          login: "octocat",
          state: "CHANGES_REQUESTED",
          commit_id: HEAD,
          submitted_at: "2026-12-02T11:00:00Z",
          body: `${HOSTILE}\n- ${HOSTILE}\n- [ ] ${HOSTILE}`,
          maintainer: true,
        },
      ],
    }),
  ],
  [
    "an override's reason",
    gateFacts({
      evidence: [commandEvidence([0, 0])],
      override: { by: "octocat", reason: HOSTILE, at: "2026-12-02T12:00:00Z", comment_url: null },
    }),
  ],
];

describe("author text in what the App writes is data, never Markdown", () => {
  it.each(cases)("in the summary and title: %s", (_name, facts) => {
    const decision = decideGate(facts);
    assertInert(renderGateSummary(decision, facts), "summary");
    for (const item of decision.missing) assertInert(`- [ ] ${item}`, "work item");
    // Titles are plain text on GitHub; the same words reach the label comment as Markdown.
    assertInert(handEditedLabelComment("agate:rejected", [], decision.title), "label comment");
    assertInert(strayLabelComment(["agate:accepted"], decision.title), "stray label comment");
  });

  it("in the comments answering /agate accept", () => {
    assertInert(
      overrideAcceptedComment({ headSha: HEAD, by: HOSTILE, reason: HOSTILE, title: HOSTILE }),
      "accepted",
    );
    assertInert(overrideRefusedComment(HOSTILE, "the head is now 1111111"), "refused");
  });

  it("in a merge group's summary", () => {
    const record = commandRecord([0, 1], {
      pull_request: null,
      merge_group: { head_ref: HOSTILE, head_sha: HEAD, base_sha: "2".repeat(40) },
    });
    for (const command of record.commands) command.output.tail = HOSTILE;
    const facts = mergeGroupFacts(
      {
        changed_files: [
          { filename: `.github/${HOSTILE}`, previous_filename: null, status: "added" },
        ],
        evidence: [commandEvidence([], { record }), refusedEvidence()],
      },
      { head_ref: HOSTILE, base_sha: "2".repeat(40) },
    );
    assertInert(renderMergeGroupSummary(decideMergeGroup(facts), facts), "merge group");
  });

  it("the checker itself sees hostile text left as Markdown", () => {
    expect(() => assertInert(`- [ ] ${HOSTILE}`, "raw")).toThrow();
    expect(() => assertInert("| a | b |\n| --- | --- |\n| x | y | z |", "table")).toThrow();
  });
});
