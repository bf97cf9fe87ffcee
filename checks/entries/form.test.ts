import { describe, expect, it } from "vitest";
import { parseEntryForm, renderEntryForm } from "./form.js";

/** As GitHub renders the issue form (docs/issue-template/agate-entry.yml). */
const FORM = `### Project

widgets

### Question

Which port does the staging database listen on?

### Tried

Read README and config/; grep for 5432 finds nothing.

### Needed

The port number.

### Blocking pull request

_No response_
`;

describe("parseEntryForm", () => {
  it("reads every field of a rendered issue form; an empty optional field is null", () => {
    expect(parseEntryForm(FORM)).toEqual({
      kind: "entry",
      fields: {
        project: "widgets",
        question: "Which port does the staging database listen on?",
        tried: "Read README and config/; grep for 5432 finds nothing.",
        needed: "The port number.",
        blocking_pull: null,
      },
    });
  });

  it("reads the blocking pull request as #N, N or a URL, and refuses anything else", () => {
    const withPull = (text: string) => parseEntryForm(FORM.replace("_No response_", text));
    expect(withPull("#12")).toMatchObject({ fields: { blocking_pull: 12 } });
    expect(withPull("7")).toMatchObject({ fields: { blocking_pull: 7 } });
    expect(withPull("https://github.com/o/r/pull/31")).toMatchObject({
      fields: { blocking_pull: 31 },
    });
    expect(withPull("the big one")).toEqual({
      kind: "refused",
      missing: [],
      problems: [expect.stringContaining("is not a pull request")],
    });
  });

  it("names each required field that is missing or empty, in the form's order", () => {
    const body = "### Question\n\nWhy?\n\n### Tried\n\n_No response_\n\n### Needed\n\n   \n";
    expect(parseEntryForm(body)).toEqual({
      kind: "refused",
      missing: ["project", "tried", "needed"],
      problems: [],
    });
  });

  it("an issue without any heading of the form is not an entry; null body too", () => {
    expect(parseEntryForm("The build is broken on main.")).toEqual({ kind: "not_an_entry" });
    expect(parseEntryForm(null)).toEqual({ kind: "not_an_entry" });
    expect(parseEntryForm("### Steps to reproduce\n\n1. run it")).toEqual({
      kind: "not_an_entry",
    });
  });

  it("keeps an answer's own Markdown headings in it, takes the first of a repeated field, and reads CRLF", () => {
    const body = FORM.replace("The port number.", "The port.\n\n### Details\n\nAny form.")
      .replace("### Blocking pull request", "### Project\n\nother\n\n### Blocking pull request")
      .replace(/\n/g, "\r\n");
    const parsed = parseEntryForm(body);
    expect(parsed).toMatchObject({
      kind: "entry",
      fields: { project: "widgets", needed: "The port.\n\n### Details\n\nAny form." },
    });
  });

  it("accepts the longer headings and a heading's case", () => {
    const body = FORM.replace("### Tried", "### What was tried").replace(
      "### Needed",
      "### what is NEEDED",
    );
    expect(parseEntryForm(body).kind).toBe("entry");
  });

  it("renderEntryForm writes what parseEntryForm reads back", () => {
    const fields = {
      project: "p",
      question: "q?",
      tried: "t",
      needed: "n",
      blocking_pull: 4,
    };
    expect(parseEntryForm(renderEntryForm(fields))).toEqual({ kind: "entry", fields });
    expect(
      parseEntryForm(renderEntryForm({ ...fields, blocking_pull: null, tried: " " })),
    ).toMatchObject({ kind: "refused", missing: ["tried"] });
  });
});
