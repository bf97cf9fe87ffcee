import { describe, expect, it } from "vitest";
import type { GateFacts } from "../../schemas/gate.js";
import {
  BASE,
  commandEvidence,
  commandRecord,
  evidenceRun,
  gateFacts,
  HEAD,
  loadedConfig,
  TREE,
} from "../../test/support/gate-facts.js";
import { decideGate } from "./decide.js";
import { renderGateSummary } from "./render.js";

const evidence = commandEvidence;
const maintainer = (commit: string) => ({
  login: "octocat",
  commit_id: commit,
  submitted_at: "2026-12-02T11:00:00Z",
  maintainer: true,
});

describe("decideGate", () => {
  it("no config on the base: not adopted, neutral", () => {
    const d = decideGate(gateFacts({ config: { status: "missing", path: ".github/agate.yml" } }));
    expect([d.state, d.conclusion, d.title]).toEqual([
      "not_gated",
      "neutral",
      "Not gated: the base commit has no .github/agate.yml, so this repository has not adopted agate",
    ]);
  });

  it("an invalid base config blocks the check (the fix is on the base), showing the file, line and fix once", () => {
    const message =
      '.github/agate.yml is not a valid agate config (1 problem):\n  - commands at line 2, column 11: expected a list, got "x"';
    const facts = gateFacts({ config: { status: "invalid", path: ".github/agate.yml", message } });
    const d = decideGate(facts);
    expect([d.state, d.conclusion]).toEqual(["blocked", "failure"]);
    expect(d.title).toBe(
      "Blocked on 1111111: the base branch's .github/agate.yml is invalid; a maintainer must fix it there",
    );
    expect(d.missing).toEqual([
      "Ask a maintainer to fix .github/agate.yml on `main` (the problems are listed below); a change this pull request makes to it does not count, as the config is read from the base",
    ]);
    const summary = renderGateSummary(d, facts);
    expect(summary.split("\n")[0]).toBe(
      `**Blocked:** the fix is outside this pull request. **Next:** ${d.missing[0]}.`,
    );
    expect(summary).toContain(
      "| config | ⛔ blocked | .github/agate.yml at the base commit 2222222 is invalid (its problems are listed below) |",
    );
    // The parser's message once, whole, with its line and column.
    expect(summary.split("commands at line 2, column 11").length - 1).toBe(1);
    expect(summary).toContain(`\`\`\`text\n${message}\n\`\`\``);
  });

  it("every pull request is gated by default; one no rule selects under gate.all: false is neutral with the reason", () => {
    const facts = gateFacts();
    facts.pull_request.labels = [];
    expect(decideGate(facts).state).toBe("pending");
    const { config, digest } = loadedConfig(
      "version: 1\ngate: { all: false }\ncommands:\n  - { name: unit, run: npm test }\n",
    );
    facts.config = {
      status: "ok",
      path: ".github/agate.yml",
      blob_sha: "5".repeat(40),
      digest,
      config,
    };
    const d = decideGate(facts);
    expect([d.state, d.conclusion]).toEqual(["not_gated", "neutral"]);
    expect(d.title).toMatch(/^Not gated: author codex\[bot\] is not in gate\.authors/);
  });

  it("gated without evidence: in progress, waiting for the command record", () => {
    const d = decideGate(gateFacts());
    expect([d.state, d.conclusion]).toEqual(["pending", null]);
  });

  it("verified passing evidence: accepted", () => {
    const d = decideGate(gateFacts({ evidence: [evidence([0, 0])] }));
    expect([d.state, d.conclusion, d.title]).toEqual([
      "accepted",
      "success",
      "Accepted on 1111111: every requirement passed",
    ]);
    expect(d.missing).toEqual([]);
  });

  it("verified failing evidence: rejected, naming the commands, as next work items", () => {
    const d = decideGate(gateFacts({ evidence: [evidence([0, 2])] }));
    expect([d.state, d.conclusion]).toEqual(["rejected", "failure"]);
    expect(d.title).toBe("Rejected on 1111111: 1 of 2 required commands failed (lint)");
    expect(d.missing).toEqual([
      "Make `lint` pass and push: it exited 2 (its last output is below)",
    ]);
  });

  it("a refused record is shown with its reason, never counted", () => {
    const refused = decideGate(
      gateFacts({
        evidence: [
          evidence([0, 0], {
            refused:
              "the record says every command passed, but the runner says step agate failure: something in the job interfered with agate",
          }),
        ],
      }),
    );
    expect([refused.state, refused.conclusion]).toEqual(["pending", null]);
    expect(refused.reasons).toEqual([
      "command record refused: the record says every command passed, but the runner says step agate failure: something in the job interfered with agate",
    ]);
    expect(refused.requirements[0]?.reason).toBe(
      "no believable command record: the record says every command passed, but the runner says step agate failure: something in the job interfered with agate",
    );
  });

  it("waits for a run of the pinned workflow, naming it in the title and the job in the summary, with since when", () => {
    const d = decideGate(gateFacts());
    expect(d.title).toBe(
      "Waiting on 1111111: no command record from .github/workflows/agate.yml for this commit yet",
    );
    // Nobody can act on a run that has not reported: no work item, and the summary says so.
    expect(d.missing).toEqual([]);
    const summary = renderGateSummary(d, gateFacts());
    expect(summary.split("\n")[0]).toBe(
      "**Waiting:** the evidence is not complete yet. Nothing to do yet: this check updates itself when the evidence is in.",
    );
    // Since agate first looked at this head (here: this read), and what to check if no run comes.
    expect(summary).toContain(
      "Waiting since 2026-12-02 11:00 UTC for a run of `.github/workflows/agate.yml` (job `agate-commands`) on 1111111.",
    );
    const later = gateFacts({
      prior_records: [
        {
          id: 1,
          head_sha: HEAD,
          base_sha: null,
          tree_sha: null,
          state: "pending",
          config_digest: "d".repeat(64),
          agate_version: "0.1.0",
          decided_at: "2026-12-02T10:30:00.000Z",
          stale: null,
        },
      ],
    });
    expect(renderGateSummary(decideGate(later), later)).toContain(
      "Waiting since 2026-12-02 10:30 UTC",
    );
  });

  it("a file list that may be cut escalates, naming the cause and the maintainer's command", () => {
    const d = decideGate(
      gateFacts({
        evidence: [evidence([0, 0])],
        changed_files_listing: {
          complete: false,
          reason:
            "GitHub's file list of a pull request stops at 3000 files and this change has 3001, so agate cannot see every changed file",
        },
        approvals: [maintainer(HEAD)],
      }),
    );
    expect([d.state, d.conclusion]).toEqual(["escalated", "action_required"]);
    expect(d.title).toBe(
      "Escalated on 1111111: GitHub's file list of a pull request stops at 3000 files and this change has 3001, so agate…",
    );
    expect(d.missing).toEqual([
      `Ask a maintainer to accept this exact commit with \`/agate accept ${HEAD} <why this commit may merge>\``,
    ]);
  });

  it("a maintainer's override accepts this exact head over every requirement, and says so", () => {
    const override = {
      by: "octocat",
      reason: "the workflow change is reviewed",
      at: "2026-12-02T12:00:00Z",
      comment_url: null,
    };
    const facts = gateFacts({
      evidence: [
        evidence([0, 0], { refused: "the change modifies `.github/workflows/agate.yml`" }),
      ],
      changed_files: [
        { filename: ".github/workflows/agate.yml", previous_filename: null, status: "modified" },
      ],
      override,
    });
    const d = decideGate(facts);
    expect([d.state, d.conclusion]).toEqual(["accepted", "success"]);
    expect(d.title).toBe(
      "Accepted on 1111111 by octocat's override: `the workflow change is reviewed`",
    );
    expect(d.requirements.at(-1)).toEqual({
      id: "override",
      name: "maintainer override",
      status: "pass",
      reason: "octocat accepted 1111111 at 2026-12-02T12:00:00Z: `the workflow change is reviewed`",
    });
    // Under the accepted headline the requirements it overrode read as set aside, not waiting.
    const summary = renderGateSummary(d, facts);
    expect(summary).toContain(
      "| required commands | ↪️ set aside (was waiting) | no believable command record",
    );
    expect(summary).not.toContain("⏳");
    const without = gateFacts({ ...facts, override: null });
    expect(renderGateSummary(decideGate(without), without)).toContain(
      `### A maintainer can accept this commit\n\nagate cannot believe evidence for this commit on its own`,
    );
  });

  it("a head also seen in another pull request, or under another base, is blocked whatever else holds, even where nothing would gate it", () => {
    const shared = gateFacts({
      evidence: [evidence([0, 0])],
      head_shared_with: [
        { pull_number: 9, base_ref: "release" },
        { pull_number: 7, base_ref: "dev" },
      ],
    });
    const d = decideGate(shared);
    expect([d.state, d.conclusion]).toEqual(["blocked", "failure"]);
    expect(d.title).toBe(
      "Blocked on 1111111: this commit is also the head of #9 into `release`, this pull request into `dev`",
    );
    expect(d.requirements[0]?.reason).toContain("so agate cannot tell whose evidence is whose");
    const unconfigured = decideGate({
      ...shared,
      config: { status: "missing", path: ".github/agate.yml" },
    });
    expect(unconfigured.conclusion).toBe("failure");
  });

  it("a title over GitHub's 255 characters is cut at a word, with …", () => {
    const d = decideGate(
      gateFacts({
        head_shared_with: Array.from({ length: 12 }, (_, i) => ({
          pull_number: 100 + i,
          base_ref: `release/2026-${i}`,
        })),
      }),
    );
    expect(d.state).toBe("blocked");
    expect(d.title.length).toBeLessThanOrEqual(255);
    expect(d.title.endsWith("…")).toBe(true);
    // Whole words only: the text before … is the start of the full title, up to a space.
    const full = `Blocked on 1111111: ${d.requirements[0]?.reason}`;
    const kept = d.title.slice(0, -1);
    expect(full.startsWith(kept)).toBe(true);
    expect(full.slice(kept.length)).toMatch(/^[\s,;:.(-]/);
  });

  it("a pull request gated before stays gated on a base without the config: blocked, not neutral", () => {
    const d = decideGate(
      gateFacts({
        config: { status: "missing", path: ".github/agate.yml" },
        previously_gated: true,
      }),
    );
    expect([d.state, d.conclusion]).toEqual(["blocked", "failure"]);
    expect(d.title).toBe(
      "Blocked on 1111111: the base `main` has no .github/agate.yml; gated before, stays gated",
    );
  });

  it("protected paths escalate until a maintainer approves this exact head", () => {
    const changed_files = [
      { filename: ".github/workflows/ci.yml", previous_filename: null, status: "modified" },
    ];
    const none = decideGate(gateFacts({ changed_files, evidence: [evidence([0, 0])] }));
    expect([none.state, none.conclusion]).toEqual(["escalated", "action_required"]);
    expect(none.title).toBe(
      "Escalated on 1111111: changes `.github/workflows/ci.yml`: needs a maintainer's approving review of this commit",
    );
    expect(none.missing).toEqual([
      "Ask a maintainer to review and approve 1111111, which changes `.github/workflows/ci.yml`",
    ]);
    const old = decideGate(
      gateFacts({ changed_files, evidence: [evidence([0, 0])], approvals: [maintainer(BASE)] }),
    );
    expect(old.state).toBe("escalated");
    expect(old.requirements.find((r) => r.id === "protected_paths")?.reason).toContain(
      "(octocat's approval is for 2222222, an older commit)",
    );
    const notMaintainer = decideGate(
      gateFacts({
        changed_files,
        evidence: [evidence([0, 0])],
        approvals: [{ ...maintainer(HEAD), maintainer: false }],
      }),
    );
    expect(notMaintainer.state).toBe("escalated");
    const approved = decideGate(
      gateFacts({ changed_files, evidence: [evidence([0, 0])], approvals: [maintainer(HEAD)] }),
    );
    expect([approved.state, approved.conclusion]).toEqual(["accepted", "success"]);
  });

  it("failing commands win over escalation: the agent has work to do first", () => {
    const changed_files = [
      { filename: ".github/agate.yml", previous_filename: null, status: "modified" },
    ];
    expect(decideGate(gateFacts({ changed_files, evidence: [evidence([1, 0])] })).state).toBe(
      "rejected",
    );
  });

  it("carries an acceptance over only to another SHA with the same tree, config and agate version, on the same base commit", () => {
    const prior = {
      id: 3,
      head_sha: "6".repeat(40),
      base_sha: BASE,
      tree_sha: TREE,
      state: "accepted" as const,
      config_digest: loadedConfig().digest,
      agate_version: "0.1.0",
      decided_at: "2026-12-02T09:00:00Z",
      stale: { superseded_by: HEAD, at: "2026-12-02T10:00:00Z" },
    };
    const carried = decideGate(gateFacts({ prior_records: [prior] }));
    expect([carried.state, carried.conclusion, carried.carried_over_from]).toEqual([
      "accepted",
      "success",
      3,
    ]);
    expect(carried.requirements[0]?.reason).toBe(
      "carried over from 6666666, accepted on the identical tree 4444444 under the same config and agate version",
    );
    // The same SHA coming back (a force-push back to it) is graded afresh.
    expect(decideGate(gateFacts({ prior_records: [{ ...prior, head_sha: HEAD }] })).state).toBe(
      "pending",
    );
    expect(
      decideGate(gateFacts({ prior_records: [{ ...prior, tree_sha: "9".repeat(40) }] })).state,
    ).toBe("pending");
    expect(
      decideGate(gateFacts({ prior_records: [{ ...prior, config_digest: "0".repeat(64) }] })).state,
    ).toBe("pending");
    expect(
      decideGate(gateFacts({ prior_records: [{ ...prior, agate_version: "0.0.9" }] })).state,
    ).toBe("pending");
    expect(decideGate(gateFacts({ prior_records: [{ ...prior, state: "rejected" }] })).state).toBe(
      "pending",
    );
    // Accepted on another base commit (the agent's own branch, issue 26), or on one not kept.
    expect(
      decideGate(gateFacts({ prior_records: [{ ...prior, base_sha: "7".repeat(40) }] })).state,
    ).toBe("pending");
    expect(decideGate(gateFacts({ prior_records: [{ ...prior, base_sha: null }] })).state).toBe(
      "pending",
    );
  });

  it("success only ever comes with every requirement passing", () => {
    const variants: GateFacts[] = [
      gateFacts(),
      gateFacts({ evidence: [evidence([0, 0], { waiting: "job gate is still running" })] }),
      gateFacts({ evidence: [evidence([0, 0], { refused: "x" })] }),
      gateFacts({ evidence: [evidence([0, 1])] }),
      gateFacts({ evidence: [evidence([0, 0])] }),
      gateFacts({
        evidence: [evidence([0, 0])],
        changed_files: [{ filename: ".github/x", previous_filename: null, status: "added" }],
      }),
    ];
    for (const facts of variants) {
      const d = decideGate(facts);
      if (d.conclusion === "success")
        expect(d.requirements.every((r) => r.status === "pass")).toBe(true);
      if (d.state !== "not_gated") expect(d.conclusion).not.toBe("neutral");
    }
  });
});

describe("renderGateSummary", () => {
  it("puts the state and the next action first, then requirements, work items, commands, history", () => {
    const facts = gateFacts({
      evidence: [evidence([0, 3])],
      prior_records: [
        {
          id: 1,
          head_sha: "6".repeat(40),
          base_sha: BASE,
          tree_sha: TREE,
          state: "rejected",
          config_digest: "x",
          agate_version: "0.1.0",
          decided_at: "2026-12-02T09:00:00Z",
          stale: { superseded_by: HEAD, at: "2026-12-02T10:00:00Z" },
        },
      ],
    });
    const summary = renderGateSummary(decideGate(facts), facts);
    expect(summary.split("\n")[0]).toBe(
      "**Rejected:** it may not merge yet. **Next:** Make `lint` pass and push: it exited 3 (its last output is below).",
    );
    const at = (text: string) => {
      const index = summary.indexOf(text);
      expect(index, text).toBeGreaterThan(0);
      return index;
    };
    const order = [
      at("| required commands | ❌ fail | 1 of 2 required commands failed (lint) |"),
      at("| lint | ❌ failed (exit 3) | 1.2 s |"),
      // The failing output is open; a passing command's is not repeated here.
      at(
        "<details open><summary>lint: failed (exit 3), last output</summary>\n\n```text\nboom\n```",
      ),
      at(
        "| `6666666` | rejected | 2026-12-02T09:00:00Z | stale since 2026-12-02T10:00:00Z, by `1111111` |",
      ),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // The one work item is the first line's Next, said once.
    expect(summary).not.toContain("- [ ] Make `lint` pass");
    expect(summary).not.toContain("<summary>unit: passed");
  });

  it("links the run, the job and the step from GitHub's own URLs, never a record's", () => {
    const record = commandRecord([0, 1]);
    const facts = gateFacts({
      evidence: [commandEvidence([0, 1], { record })],
      evidence_run: evidenceRun(record),
    });
    const summary = renderGateSummary(decideGate(facts), facts);
    expect(summary).toContain(
      "in [run 99](https://github.com/octo/widgets/actions/runs/99), attempt 1 · [job agate-commands](https://github.com/octo/widgets/actions/runs/99/job/500) · [step agate](https://github.com/octo/widgets/actions/runs/99/job/500#step:3:1).",
    );
    // A URL GitHub did not give (or one that would end the link early) is plain text.
    const run = evidenceRun(record);
    run.run.html_url = "https://github.com/octo/widgets/actions/runs/99) [x](https://evil.example";
    if (run.job) run.job.html_url = null;
    const unlinked = gateFacts({
      evidence: [commandEvidence([0, 1], { record, run_url: null })],
      evidence_run: run,
    });
    const text = renderGateSummary(decideGate(unlinked), unlinked);
    expect(text).toContain("in run 99, attempt 1 · job agate-commands · step agate.");
    expect(text).not.toContain("evil.example");
  });

  it("shows a tail as a terminal would (no escape sequences), and a silent timeout as one line", () => {
    const record = commandRecord([0, 1]);
    const [unit, lint] = record.commands;
    if (!unit || !lint) throw new Error("two commands");
    lint.output.tail = "\u001b[31mFAIL\u001b[0m a.test.ts\r\nprogress 10%\rprogress 100%\n";
    Object.assign(unit, { exit_code: null, timed_out: true, duration_ms: 300_000 });
    unit.output.tail = "";
    const facts = gateFacts({ evidence: [commandEvidence([0, 1], { record })] });
    const summary = renderGateSummary(decideGate(facts), facts);
    expect(summary).toContain("```text\nFAIL a.test.ts\nprogress 100%\n```");
    expect(summary).not.toContain("\u001b");
    // The digest the record carries is over the raw bytes; only what is shown changes.
    expect(lint.output.tail).toContain("\u001b[31m");
    expect(summary).toContain("| unit | ❌ timed out | 5 min |");
    expect(summary).toContain(
      "Make `unit` pass and push: it timed out after 5 min, printing nothing",
    );
    expect(summary).toContain("\nunit: timed out after 5 min; it printed nothing.\n");
    expect(summary).not.toMatch(/<details[^>]*><summary>unit/);
  });

  it("stays within GitHub's summary limit whatever the tails", () => {
    const record = commandRecord([1, 1]);
    for (const c of record.commands) c.output.tail = "x".repeat(60_000);
    const facts = gateFacts({ evidence: [{ ...evidence([1, 1]), record }] });
    expect(renderGateSummary(decideGate(facts), facts).length).toBeLessThanOrEqual(65_535);
  });
});
