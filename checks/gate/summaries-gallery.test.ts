import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decisionStateSchema } from "../../schemas/acceptance-record.js";
import { galleryEntries, summariesGallery } from "../../test/support/summary-gallery.js";
import { GITHUB_TITLE_LIMIT } from "../markdown.js";

/**
 * How a title names its state, first thing (after "Report only: would be", or "Report only:
 * merge group … would be", in report-only mode). "pending" is the internal word for waiting.
 */
const STATE_WORDS = [
  ["accepted"],
  ["rejected"],
  ["waiting", "pending"],
  ["escalated"],
  ["stalled"],
  ["capped"],
  ["blocked"],
  ["not gated", "not_gated"],
];
const REPORT_ONLY_LEAD = /^Report only\W+(?:merge group \S+ )?would be /i;

/** What is wrong with a check title, or null: the state named first and only once, in users' words. */
function titleProblem(title: string): string | null {
  if (title.length > GITHUB_TITLE_LIMIT) return `longer than ${GITHUB_TITLE_LIMIT} characters`;
  if (/\bpending\b|not_gated/i.test(title)) return "an internal state word (users read waiting)";
  const lead = title.replace(REPORT_ONLY_LEAD, "");
  const words = STATE_WORDS.find((names) =>
    names.some((name) => lead.toLowerCase().startsWith(name)),
  );
  if (!words) return "does not start with its state";
  // "Waiting on …: waiting for …" said the state twice.
  const named = title.match(new RegExp(`\\b(${words.join("|")})\\b`, "gi")) ?? [];
  return named.length > 1 ? `names its state ${named.length} times` : null;
}

const GALLERY = join(import.meta.dirname, "..", "..", "docs", "summaries.md");

describe("docs/summaries.md, the gallery of summaries", () => {
  it("is committed and fresh", () => {
    expect(
      readFileSync(GALLERY, "utf8"),
      "docs/summaries.md is stale: run npm run summaries and commit it",
    ).toBe(summariesGallery());
  });

  const entries = galleryEntries();

  it("shows every state of the agate check, the merge-group check and the job summary", () => {
    const shown = new Set(entries.map((e) => e.state));
    for (const state of decisionStateSchema.options) expect(shown, state).toContain(state);
    expect(entries.map((e) => e.heading)).toEqual(
      expect.arrayContaining(["Merge group: rejected", "The Action's job summary"]),
    );
  });

  it.each(entries.map((e) => [e.heading, e] as const))(
    "%s: a first line with the state and what to do, a title within GitHub's limit that does not repeat itself",
    (_heading, entry) => {
      const first = entry.markdown.split("\n")[0] ?? "";
      expect(first).toMatch(/^(\*\*|### agate: )/);
      expect(first).toMatch(/Next:|Nothing to do/);
      if (entry.check) expect(titleProblem(entry.check.title), entry.check.title).toBeNull();
    },
  );

  it("the title rule catches titles that said their state twice or in internal words", () => {
    expect(titleProblem("Waiting on 1111111: waiting for the evidence workflow")).toMatch(
      /2 times/,
    );
    // gate.report_only's first titles.
    expect(
      titleProblem("Report only, would be rejected: Rejected on 1111111: lint exited 1"),
    ).toMatch(/2 times/);
    expect(
      titleProblem("Report only, would be pending: Waiting on 1111111: no run has reported"),
    ).toMatch(/internal/);
    expect(titleProblem("Report only: would be rejected on 1111111: lint exited 1")).toBeNull();
    expect(titleProblem("Report only: merge group 1111111 would be waiting: no record")).toBeNull();
  });

  it.each(entries.map((e) => [e.heading, e] as const))(
    "%s: no escape codes, no empty output block, no count with the wrong number",
    (_heading, entry) => {
      expect(entry.markdown).not.toContain("\u001b");
      expect(entry.markdown).not.toMatch(/<\/summary>\n\n(`{3,})text\n\1/);
      expect(entry.markdown).not.toMatch(/\b1 (missing items|findings|failed attempts)\b/);
      // One duration format: no "1.2s" or "21ms" beside "1.2 s".
      expect(entry.markdown).not.toMatch(/\|\s*[\d.]+(ms|s|m)\s*\|/);
    },
  );
});
