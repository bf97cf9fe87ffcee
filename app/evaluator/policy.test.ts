import { describe, expect, it } from "vitest";
import { loadedConfig } from "../../test/support/gate-facts.js";
import {
  commandSandboxSettingsFrom,
  evaluatorSettingsProblems,
  parseEvaluatorPolicy,
  policyRefusal,
} from "./policy.js";

const evaluatorOf = (yaml: string) => {
  const { evaluator } = loadedConfig(
    `version: 1\ncommands: [{ name: t, run: x }]\nevaluator: ${yaml}\n`,
  ).config;
  if (evaluator.kind !== "llm" && evaluator.kind !== "command") throw new Error("not asked");
  return evaluator;
};

describe("the operator's evaluator policy", () => {
  const policy = parseEvaluatorPolicy({
    AGATE_EVALUATOR_BASE_URLS: "http://localhost:11434/v1/, https://llm.example/v1",
    AGATE_EVALUATOR_COMMANDS: "claude -p --output-format json\n  node /opt/judge.mjs  \n",
  });

  it("parses both lists, trimming blanks", () => {
    expect(policy).toEqual({
      baseUrls: ["http://localhost:11434/v1/", "https://llm.example/v1"],
      commands: ["claude -p --output-format json", "node /opt/judge.mjs"],
    });
    expect(parseEvaluatorPolicy({})).toEqual({ baseUrls: [], commands: [] });
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

describe("the command evaluator's sandbox settings", () => {
  it("defaults to bwrap on the PATH, no network, nothing bound or passed beyond the system's", () => {
    expect(commandSandboxSettingsFrom({})).toEqual({
      ok: true,
      settings: { bwrap: "bwrap", network: "none", paths: [], env: [] },
    });
  });

  it("parses the operator's lists", () => {
    expect(
      commandSandboxSettingsFrom({
        AGATE_EVALUATOR_BWRAP: "/opt/bwrap/bin/bwrap",
        AGATE_EVALUATOR_COMMAND_NETWORK: "Allow",
        AGATE_EVALUATOR_COMMAND_PATHS: "/opt/claude-code/, /opt/judge/judge.mjs\n",
        AGATE_EVALUATOR_COMMAND_ENV: "ANTHROPIC_API_KEY,HTTPS_PROXY, ANTHROPIC_API_KEY",
      }),
    ).toEqual({
      ok: true,
      settings: {
        bwrap: "/opt/bwrap/bin/bwrap",
        network: "allow",
        paths: ["/opt/claude-code", "/opt/judge/judge.mjs"],
        env: ["ANTHROPIC_API_KEY", "HTTPS_PROXY"],
      },
    });
  });

  it("refuses what would expose the App, each problem naming its setting", () => {
    const parsed = commandSandboxSettingsFrom({
      AGATE_EVALUATOR_BWRAP: "bin/bwrap",
      AGATE_EVALUATOR_COMMAND_NETWORK: "host",
      AGATE_EVALUATOR_COMMAND_PATHS: "opt/judge, /, /proc/1, /opt/../root, /dev, /etc/",
      AGATE_EVALUATOR_COMMAND_ENV:
        "PRIVATE_KEY, private_key_path, WEBHOOK_SECRET, AGATE_EVALUATOR_API_KEY, AGATE_DATABASE_URL, NOT-A-NAME",
    });
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems).toEqual([
      expect.stringMatching(
        /^AGATE_EVALUATOR_BWRAP is "bin\/bwrap": give bubblewrap's absolute path/,
      ),
      expect.stringMatching(
        /^AGATE_EVALUATOR_COMMAND_NETWORK is "host": set it to none .* or allow/,
      ),
      expect.stringMatching(
        /^AGATE_EVALUATOR_COMMAND_PATHS names "opt\/judge": list absolute paths/,
      ),
      expect.stringMatching(
        /^AGATE_EVALUATOR_COMMAND_PATHS names \/, which the sandbox never shows/,
      ),
      expect.stringMatching(
        /^AGATE_EVALUATOR_COMMAND_PATHS names \/proc\/1, which the sandbox never shows/,
      ),
      expect.stringMatching(
        /^AGATE_EVALUATOR_COMMAND_PATHS names "\/opt\/..\/root": list absolute paths/,
      ),
      expect.stringMatching(
        /^AGATE_EVALUATOR_COMMAND_PATHS names \/dev, which the sandbox never shows/,
      ),
      expect.stringMatching(
        /^AGATE_EVALUATOR_COMMAND_PATHS names \/etc, which the sandbox never shows/,
      ),
      ...[
        "PRIVATE_KEY",
        "private_key_path",
        "WEBHOOK_SECRET",
        "AGATE_EVALUATOR_API_KEY",
        "AGATE_DATABASE_URL",
      ].map(
        (name) =>
          `AGATE_EVALUATOR_COMMAND_ENV names ${name}, one of the App's own settings, which no child process ever gets: remove it (give the command a key of its own under another name)`,
      ),
      expect.stringMatching(/^AGATE_EVALUATOR_COMMAND_ENV names "NOT-A-NAME": list variable names/),
    ]);
  });

  it("reports every evaluator setting problem for the App's start, the key bound to no endpoint among them", () => {
    expect(evaluatorSettingsProblems({})).toEqual([]);
    expect(
      evaluatorSettingsProblems({
        AGATE_EVALUATOR_API_KEY: "sk-1",
        AGATE_EVALUATOR_API_KEY_URL: "https://api.openai.com/v1",
      }),
    ).toEqual([]);
    expect(
      evaluatorSettingsProblems({
        AGATE_EVALUATOR_API_KEY: "sk-1",
        AGATE_EVALUATOR_COMMAND_NETWORK: "on",
      }),
    ).toEqual([
      expect.stringContaining("AGATE_EVALUATOR_COMMAND_NETWORK"),
      expect.stringContaining(
        "AGATE_EVALUATOR_API_KEY is set, but AGATE_EVALUATOR_API_KEY_URL does not say which endpoint it belongs to",
      ),
    ]);
    expect(evaluatorSettingsProblems({ AGATE_EVALUATOR_API_KEY_URL: "api.openai.com" })).toEqual([
      expect.stringContaining('AGATE_EVALUATOR_API_KEY_URL names "api.openai.com"'),
    ]);
  });
});
