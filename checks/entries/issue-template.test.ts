/** The issue form agate ships is one the entry parser reads: same headings, same required fields. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REQUIRED_ENTRY_FIELDS } from "../../schemas/handoff-entry.js";
import { FIELD_HEADINGS, parseEntryForm } from "./form.js";

const FILE = join(import.meta.dirname, "..", "..", "docs", "issue-template", "agate-entry.yml");

interface FormField {
  type: string;
  id?: string;
  attributes: { label?: string };
  validations?: { required?: boolean };
}

const form = parse(readFileSync(FILE, "utf8")) as { name: string; body: FormField[] };
const inputs = form.body.filter((field) => field.type !== "markdown");

describe("docs/issue-template/agate-entry.yml", () => {
  it("has one field per entry field, labelled with the heading the parser reads", () => {
    expect(inputs.map((f) => [f.id, f.attributes.label])).toEqual(
      Object.entries(FIELD_HEADINGS).map(([id, names]) => [id, names[0]]),
    );
  });

  it("requires exactly the required fields", () => {
    expect(inputs.filter((f) => f.validations?.required).map((f) => f.id)).toEqual([
      ...REQUIRED_ENTRY_FIELDS,
    ]);
  });

  it("renders (as GitHub renders a form, empty optional field included) into an entry", () => {
    const body = inputs
      .map(
        (f) =>
          `### ${f.attributes.label}\n\n${f.validations?.required ? `a ${f.id}` : "_No response_"}`,
      )
      .join("\n\n");
    expect(parseEntryForm(body)).toEqual({
      kind: "entry",
      fields: {
        project: "a project",
        question: "a question",
        tried: "a tried",
        needed: "a needed",
        blocking_pull: null,
      },
    });
  });
});
