import { describe, expect, it } from "vitest";
import {
  counted,
  cutTitle,
  displayTail,
  durationText,
  GITHUB_TITLE_LIMIT,
  outcomeText,
  outputDetails,
  TITLE_LIMIT,
} from "./markdown.js";

describe("durationText: one format for every time agate shows", () => {
  it.each([
    [0, "0 ms"],
    [21, "21 ms"],
    [999, "999 ms"],
    [1_000, "1 s"],
    [1_234, "1.2 s"],
    [59_940, "59.9 s"],
    // 59.96 s would read 60.0 s: it is a minute.
    [59_960, "1 min"],
    [184_000, "3 min 4 s"],
    [1_800_000, "30 min"],
    [3_599_600, "1 h"],
    [7_500_000, "2 h 5 min"],
  ])("%d ms reads %s", (ms, text) => {
    expect(durationText(ms)).toBe(text);
  });
});

describe("cutTitle", () => {
  it("leaves a title of at most 120 characters as it is", () => {
    expect(cutTitle("Accepted on 1111111: every requirement passed")).toBe(
      "Accepted on 1111111: every requirement passed",
    );
  });

  it("cuts a long title at a word, ending in …, within 120 characters (GitHub keeps 255)", () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
    const title = cutTitle(`Blocked on 1111111: ${words}`);
    expect(title.length).toBeLessThanOrEqual(TITLE_LIMIT);
    expect(TITLE_LIMIT).toBeLessThan(GITHUB_TITLE_LIMIT);
    expect(title.endsWith("…")).toBe(true);
    // The last word kept is whole: the text before … is a prefix ending at a word's end.
    const kept = title.slice(0, -1);
    expect(`Blocked on 1111111: ${words}`.startsWith(kept)).toBe(true);
    expect(`Blocked on 1111111: ${words}`[kept.length]).toBe(" ");
  });

  it("cuts hard only when there is no space to cut at", () => {
    const title = cutTitle(`x${"y".repeat(400)}`);
    expect(title).toHaveLength(TITLE_LIMIT);
    expect(title.endsWith("y…")).toBe(true);
  });

  it("makes a multi-line text one line", () => {
    expect(cutTitle("a\n  b")).toBe("a b");
  });
});

describe("counted", () => {
  it("says one thing in the singular and other counts in the plural", () => {
    expect(counted(1, "missing item")).toBe("1 missing item");
    expect(counted(2, "missing item")).toBe("2 missing items");
    expect(counted(0, "finding")).toBe("0 findings");
    expect(counted(3, "entry", "entries")).toBe("3 entries");
  });
});

describe("displayTail", () => {
  it("drops colour and cursor escapes, keeps the text", () => {
    expect(displayTail("\u001b[31mFAIL\u001b[0m a.test.ts\n\u001b[1m\u001b[2Kok")).toBe(
      "FAIL a.test.ts\nok",
    );
  });

  it("shows a line redrawn with carriage returns as the terminal left it", () => {
    expect(displayTail("10%\r50%\r100%\r\ndone\r\n")).toBe("100%\ndone\n");
  });

  it("drops other control characters, keeping tabs and newlines", () => {
    expect(displayTail("a\u0007b\tc\u0000\n")).toBe("ab\tc\n");
  });
});

describe("outputDetails", () => {
  it("opens failing output and folds passing output", () => {
    expect(outputDetails({ label: "lint: failed (exit 1)", tail: "boom\n", open: true })[0]).toBe(
      "<details open><summary>lint: failed (exit 1)</summary>",
    );
    expect(outputDetails({ label: "unit: passed", tail: "ok\n", open: false })[0]).toBe(
      "<details><summary>unit: passed</summary>",
    );
  });

  it("gives output with nothing to show one line instead of an empty block", () => {
    expect(
      outputDetails({
        label: "unit: timed out after 5 min",
        note: ", last output",
        tail: "\u001b[0m\n",
        open: true,
      }),
    ).toEqual(["unit: timed out after 5 min; it printed nothing."]);
  });

  it("escapes the label as HTML", () => {
    expect(outputDetails({ label: "<b>x</b>", tail: "y", open: true })[0]).toBe(
      "<details open><summary>&lt;b&gt;x&lt;/b&gt;</summary>",
    );
  });
});

describe("outcomeText", () => {
  it("says how a command ended", () => {
    const base = { exit_code: 0, timed_out: false, signal: null };
    expect(outcomeText(base)).toBe("passed");
    expect(outcomeText({ ...base, exit_code: 3 })).toBe("failed (exit 3)");
    expect(outcomeText({ ...base, exit_code: null, signal: "SIGTERM" })).toBe("killed (SIGTERM)");
    expect(outcomeText({ ...base, exit_code: null, timed_out: true })).toBe("timed out");
    expect(outcomeText({ ...base, exit_code: null, timed_out: true, duration_ms: 600_000 })).toBe(
      "timed out after 10 min",
    );
  });
});
