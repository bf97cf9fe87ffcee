import { describe, expect, it } from "vitest";
import { loadedConfig } from "../../test/support/gate-facts.js";
import { evaluatorPolicyFrom, policyRefusal } from "./policy.js";

const evaluatorOf = (yaml: string) => {
  const { evaluator } = loadedConfig(
    `version: 1\ncommands: [{ name: t, run: x }]\nevaluator: ${yaml}\n`,
  ).config;
  if (evaluator.kind !== "llm" && evaluator.kind !== "command") throw new Error("not asked");
  return evaluator;
};

describe("the operator's evaluator policy", () => {
  const policy = evaluatorPolicyFrom({
    AGATE_EVALUATOR_BASE_URLS: "http://localhost:11434/v1/, https://llm.example/v1",
    AGATE_EVALUATOR_COMMANDS: "claude -p --output-format json\n  node /opt/judge.mjs  \n",
  });

  it("parses both lists, trimming blanks", () => {
    expect(policy).toEqual({
      baseUrls: ["http://localhost:11434/v1/", "https://llm.example/v1"],
      commands: ["claude -p --output-format json", "node /opt/judge.mjs"],
    });
    expect(evaluatorPolicyFrom({})).toEqual({ baseUrls: [], commands: [] });
  });

  it("lets the public endpoints and listed base URLs through, trailing slashes aside", () => {
    expect(policyRefusal(evaluatorOf("{ kind: llm, model: m }"), policy)).toBeNull();
    expect(
      policyRefusal(
        evaluatorOf("{ kind: llm, model: m, base_url: 'http://localhost:11434/v1' }"),
        policy,
      ),
    ).toBeNull();
  });

  it("refuses another base URL: the operator's key would go to it", () => {
    expect(
      policyRefusal(
        evaluatorOf("{ kind: llm, model: m, base_url: 'http://169.254.169.254/v1' }"),
        policy,
      ),
    ).toEqual({
      error: "evaluator.base_url http://169.254.169.254/v1 is not an endpoint this App may call",
      fix: expect.stringContaining("AGATE_EVALUATOR_BASE_URLS"),
    });
  });

  it("runs only an exactly listed command: a repository must not run programs on the App's host", () => {
    expect(
      policyRefusal(evaluatorOf("{ kind: command, run: node /opt/judge.mjs }"), policy),
    ).toBeNull();
    const refused = policyRefusal(
      evaluatorOf("{ kind: command, run: 'node /opt/judge.mjs; curl evil' }"),
      policy,
    );
    expect(refused?.error).toBe(
      'evaluator.run "node /opt/judge.mjs; curl evil" is not a command this App may execute',
    );
    expect(refused?.fix).toContain("AGATE_EVALUATOR_COMMANDS");
  });
});
