import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decisionStateSchema } from "../../schemas/acceptance-record.js";
import { galleryEntries, summariesGallery } from "../../test/support/summary-gallery.js";
import { GITHUB_TITLE_LIMIT } from "../markdown.js";

/** How a title names its state, first thing. */
const STATE_WORDS = [
  "Accepted",
  "Rejected",
  "Waiting",
  "Escalated",
  "Stalled",
  "Capped",
  "Blocked",
  "Not gated",
];

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
      if (entry.check) {
        const { title } = entry.check;
        expect(title.length).toBeLessThanOrEqual(GITHUB_TITLE_LIMIT);
        // "Waiting on …: waiting for …" said the state twice.
        const state = STATE_WORDS.find((word) => title.startsWith(word));
        expect(state, title).toBeDefined();
        expect(title.slice(state?.length)).not.toMatch(new RegExp(`\\b${state}\\b`, "i"));
      }
    },
  );

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
