import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decisionStateSchema } from "../../schemas/acceptance-record.js";
import { galleryEntries, summariesGallery } from "../../test/support/summary-gallery.js";
import { TITLE_LIMIT } from "../markdown.js";
import { GLOSSARY, GLOSSARY_URL } from "./glossary.js";

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
const REPORT_ONLY_LEAD = /^Report only\W+(?:merge group \S+ (?:\(#\d+\) )?)?would be /i;

/** What is wrong with a check title, or null: the state named first and only once, in users' words. */
function titleProblem(title: string): string | null {
  if (title.length > TITLE_LIMIT) return `longer than ${TITLE_LIMIT} characters`;
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

/**
 * A summary's sentences as a reader meets them, normalised: split at line ends, table cells,
 * sentence ends and colons (so "**Next:** X" and "- [ ] X" are the same X), markup and case
 * dropped; command output (fenced) is the command's, not agate's, and is left out. Only those of
 * six words or more: "2 of 2 passed" may well be said of two things.
 */
function sentences(markdown: string): string[] {
  return markdown
    .replace(/```[\s\S]*?```/g, "")
    .replace(/<[^>]+>/g, " ")
    .split(/\n|\s\|\s|(?<=[.;!?])\s+|:\s+/)
    .map((s) =>
      s
        .toLowerCase()
        .replace(/[`*_#>[\]()|]/g, " ")
        .replace(/\s+/g, " ")
        .trim()
        .replace(/[.;:,]+$/, ""),
    )
    .filter((s) => s.split(" ").length >= 6);
}

/** The sentences said more than once in a summary. */
function repeated(markdown: string): string[] {
  const seen = new Map<string, number>();
  for (const s of sentences(markdown)) seen.set(s, (seen.get(s) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([s]) => s);
}

/** Each <details> block's label and body. */
function detailsBlocks(markdown: string): { label: string; body: string }[] {
  return [
    ...markdown.matchAll(/<details[^>]*><summary>(.*?)<\/summary>([\s\S]*?)<\/details>/g),
  ].map((m) => ({ label: m[1] ?? "", body: m[2] ?? "" }));
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
    "%s: a first line with the state and what to do, a title of at most 120 characters that does not repeat itself",
    (_heading, entry) => {
      const first = entry.markdown.split("\n")[0] ?? "";
      expect(first).toMatch(/^(\*\*|### agate: )/);
      expect(first).toMatch(/Next:|Nothing to do/);
      if (entry.check) expect(titleProblem(entry.check.title), entry.check.title).toBeNull();
    },
  );

  it.each(entries.map((e) => [e.heading, e] as const))(
    "%s: says no sentence twice, defines no word the docs define, links the definitions at most once",
    (_heading, entry) => {
      expect(repeated(entry.markdown)).toEqual([]);
      for (const { definition } of GLOSSARY) {
        const first = definition.split(/(?<=\.) /)[0] ?? definition;
        expect(entry.markdown).not.toContain(first.slice(0, 60));
      }
      expect(entry.markdown.split(GLOSSARY_URL).length - 1).toBeLessThanOrEqual(1);
    },
  );

  it.each(entries.map((e) => [e.heading, e] as const))(
    "%s: a fold only for output worth opening: a failing command's, never a passing one's",
    (_heading, entry) => {
      for (const block of detailsBlocks(entry.markdown)) {
        expect(block.label).not.toMatch(/: passed$/);
        expect(block.body.replace(/```text|```|\s/g, "")).not.toBe("");
      }
    },
  );

  it("the rules catch what the summaries said before: a repeated next step, a passed command's fold", () => {
    expect(
      repeated(
        "**Stalled:** no progress. **Next:** Push a change that changes the failure: the same failure three times in a row.\n\n### Next work items\n\n- [ ] Push a change that changes the failure: the same failure three times in a row",
      ),
    ).toEqual(["the same failure three times in a row"]);
    expect(
      detailsBlocks("<details><summary>unit: passed</summary>\n\n```text\nok\n```\n\n</details>"),
    ).toEqual([{ label: "unit: passed", body: "\n\n```text\nok\n```\n\n" }]);
  });

  it("under an accepted headline, no requirement still reads waiting or failing", () => {
    for (const entry of entries.filter((e) => e.state === "accepted")) {
      const rows = entry.markdown.split("\n").filter((line) => /^\| [^|]+ \| /.test(line));
      expect(
        rows.filter((row) => /⏳|❌|\| waiting|\| fail/.test(row)),
        entry.heading,
      ).toEqual([]);
    }
  });

  it("waiting for a run says since when, and what to check when none comes", () => {
    const waiting = entries.filter((e) => e.state === "pending");
    expect(waiting.length).toBeGreaterThan(0);
    for (const entry of waiting) {
      expect(entry.markdown, entry.heading).toMatch(/Waiting since \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(entry.markdown, entry.heading).toContain(
        "If none has after a few minutes, look at the pull request's Checks tab",
      );
    }
  });

  it("a failed merge group names the pull request it was built for", () => {
    const group = entries.find((e) => e.heading === "Merge group: rejected");
    expect(group?.check?.title).toMatch(/^Rejected merge group 1111111 \(#7\): /);
    expect(group?.markdown.split("\n")[0]).toContain("in #7, which GitHub took out of the queue");
  });

  it("holds the summary a first demo or a broken evaluator shows: the evaluator unavailable, its fix once", () => {
    const entry = entries.find((e) => e.heading === "Blocked: the evaluator is unavailable");
    expect(entry?.state).toBe("blocked");
    expect(entry?.markdown.split("Re-run evaluator").length).toBe(2);
  });

  it("defines each word once, in the section the summaries link to", () => {
    const gallery = summariesGallery();
    const section = gallery.split("## What the words mean\n")[1] ?? "";
    for (const { term, definition } of GLOSSARY) {
      expect(section).toContain(`### ${term}\n\n${definition}\n`);
      expect(gallery.split(definition).length - 1, term).toBe(1);
    }
    expect(GLOSSARY_URL.endsWith("docs/summaries.md#what-the-words-mean")).toBe(true);
  });

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
    expect(titleProblem(`Rejected on 1111111: ${"x".repeat(TITLE_LIMIT)}`)).toMatch(
      /longer than 120/,
    );
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
