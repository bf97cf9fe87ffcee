import { describe, expect, it } from "vitest";
import { verdictSchema } from "../../schemas/verdict.js";
import { parseVerdictText, VERDICT_ERROR_LIMIT, verdictJsonSchema } from "./parse-verdict.js";

const verdict = {
  complete: false,
  score: 0.4,
  missing: ["add the --dry-run flag the issue asks for"],
  evidence: ["src/cli.ts parses only --force"],
};

function errorOf(text: string): string {
  const parsed = parseVerdictText(text);
  if (parsed.ok) throw new Error(`expected a refusal for ${text}`);
  return parsed.error;
}

describe("parseVerdictText", () => {
  it("accepts a bare JSON object, with whitespace around it", () => {
    expect(parseVerdictText(`\n  ${JSON.stringify(verdict)}\n`)).toEqual({ ok: true, verdict });
  });

  it("accepts one ```json fence around the whole answer, and a bare ``` fence", () => {
    const body = JSON.stringify(verdict, null, 2);
    expect(parseVerdictText(`\`\`\`json\n${body}\n\`\`\``)).toEqual({ ok: true, verdict });
    expect(parseVerdictText(`  \`\`\`\n${body}\n\`\`\`\n`)).toEqual({ ok: true, verdict });
  });

  it("refuses prose around the JSON instead of digging the object out", () => {
    const error = errorOf(`Here is my verdict: ${JSON.stringify(verdict)}`);
    expect(error).toMatch(/^not JSON: /);
    expect(error).toContain("no text around it");
    expect(errorOf(`\`\`\`json\n${JSON.stringify(verdict)}\n\`\`\`\nHope this helps!`)).toMatch(
      /^not JSON/,
    );
  });

  it("refuses an empty answer and a JSON value that is not an object", () => {
    expect(errorOf("   ")).toBe(
      "empty answer: expected one JSON object with complete, score, missing, evidence",
    );
    expect(errorOf("[1, 2]")).toBe(
      "expected one JSON object with complete, score, missing, evidence, got an array",
    );
    expect(errorOf('"complete"')).toContain('got "complete"');
  });

  it("names a missing field and the shape it must have", () => {
    const { evidence: _evidence, ...partial } = verdict;
    expect(errorOf(JSON.stringify(partial))).toBe(
      'missing field: expected an array of non-empty strings at "evidence"',
    );
  });

  it("names each wrong field with what it got, unknown fields and empty items", () => {
    const error = errorOf(
      JSON.stringify({ complete: "yes", score: 7, missing: [""], evidence: "tests", extra: 1 }),
    );
    expect(error.split("; ")).toEqual([
      'expected a boolean at "complete", got "yes"',
      'expected a number from 0 to 1 at "score", got number 7',
      'expected a non-empty string at "missing[0]"',
      'expected an array of non-empty strings at "evidence", got "tests"',
      'unknown field "extra": only complete, score, missing, evidence are allowed',
    ]);
  });

  it("names an item of the wrong type by its index", () => {
    expect(errorOf(JSON.stringify({ ...verdict, missing: ["a", 2] }))).toBe(
      'expected string at "missing[1]", got number 2',
    );
  });

  it("keeps the error short whatever the answer", () => {
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field_${i}`, i]));
    const error = errorOf(JSON.stringify({ ...verdict, ...many }));
    expect(error.length).toBeLessThanOrEqual(VERDICT_ERROR_LIMIT);
    expect(error.endsWith("…")).toBe(true);
  });
});

describe("verdictJsonSchema", () => {
  it("is a strict object schema: every field required, nothing extra, no $schema or minLength", () => {
    const schema = verdictJsonSchema();
    expect(schema).toMatchObject({
      type: "object",
      required: ["complete", "score", "missing", "evidence"],
      additionalProperties: false,
      properties: {
        complete: { type: "boolean" },
        score: { type: "number", minimum: 0, maximum: 1 },
        missing: { type: "array", items: { type: "string" } },
        evidence: { type: "array", items: { type: "string" } },
      },
    });
    expect(Object.keys(schema.properties as object)).toEqual(Object.keys(verdictSchema.shape));
    expect(JSON.stringify(schema)).not.toMatch(/\$schema|minLength/);
  });
});
