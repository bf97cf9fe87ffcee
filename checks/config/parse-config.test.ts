import { describe, expect, it } from "vitest";
import { refusedWith } from "../../test/support/refused.js";
import { ConfigurationError } from "../errors.js";
import { DEFAULT_PROGRESS_THRESHOLDS } from "../progress/detector.js";
import { parseConfig } from "./parse-config.js";

const MINIMAL = "version: 1\ncommands:\n  - name: test\n    run: npm test\n";

const FULL = `# every section, with non-default values
version: 1
gate:
  all: false
  authors: ["my-agent[bot]", octo-agent]
  labels: [agent, ai]
  branches: ["codex/**", "bots/*"]
commands:
  - name: unit tests
    run: npm test
    timeout: 15m
  - name: lint
    run: npm run lint
    timeout: 90s
protected_paths: ["tests/acceptance/**"]
evaluator:
  kind: llm
  provider: anthropic
  model: claude-sonnet-4-5
  base_url: http://127.0.0.1:8080
  min_score: 0.9
  rubric: Every public function has a test.
handoff:
  path: docs/HANDOFF.md
  required_when:
    commits_over: 20
    open_longer_than: 48h
    changed_lines_over: 800
    labels: [long-task]
    sessions_over: 2
budgets:
  graded_attempts_per_pr: 5
  evaluator_calls_per_tree: 2
  evaluator_calls_per_pr_per_day: 4
  evaluator_bundle_tokens: 30000
  unchanged_failures_before_stalled: 2
escalation:
  maintainers: [octocat, "@octo-org/maintainers"]
  unanswered_timeout: 1h
  claim_timeout: 15m
  follow_up_limit: 2
  claim_expiries_before_blocked: 3
`;

const problemsOf = (text: string) =>
  refusedWith(ConfigurationError, () => parseConfig(text), "the config");

describe("parseConfig: valid configs", () => {
  it("accepts version 1 and one command, with every documented default applied", () => {
    const { config } = parseConfig(MINIMAL);
    expect(config).toEqual({
      version: 1,
      gate: {
        all: true,
        authors: [],
        labels: ["agent"],
        branches: ["codex/**", "claude/**", "copilot/**", "devin/**", "openhands/**", "agent/**"],
        report_only: false,
      },
      commands: [
        { name: "test", run: "npm test", timeout: 600_000, writes: [], privileged: false },
      ],
      protected_paths: [],
      evidence: {
        workflow: ".github/workflows/agate.yml",
        job: "agate-commands",
        step: "agate",
        isolation: "required",
      },
      evaluator: { kind: "none" },
      handoff: {
        path: ".agate/handoff.md",
        required_when: {
          commits_over: null,
          open_longer_than: null,
          changed_lines_over: null,
          labels: ["long-task"],
          sessions_over: 1,
        },
      },
      budgets: {
        graded_attempts_per_pr: 10,
        evaluator_calls_per_tree: 1,
        evaluator_calls_per_pr_per_day: 10,
        evaluator_bundle_tokens: 60_000,
        unchanged_failures_before_stalled: 3,
      },
      escalation: {
        maintainers: [],
        unanswered_timeout: 1_800_000,
        claim_timeout: 600_000,
        follow_up_limit: 1,
        claim_expiries_before_blocked: 2,
      },
      merge_queue: { record_timeout: 1_800_000 },
      progress: {
        identical_streak: 3,
        cycle_repeats: 3,
        reverts: 3,
        no_new_information: 12,
        steps_without_milestone: 50,
        idle_tail_share: 0.72,
        no_milestone_stale_share: 0,
        max_model_calls: null,
        max_tool_calls: null,
        max_tool_calls_per_turn: null,
        max_input_tokens: null,
        max_context_tokens: null,
        max_cost_usd: null,
      },
    });
  });

  it("defaults the progress thresholds to the detector's own, and reads each one", () => {
    expect(parseConfig(MINIMAL).config.progress).toEqual(DEFAULT_PROGRESS_THRESHOLDS);
    const { config } = parseConfig(
      `${MINIMAL}progress:\n  identical_streak: 5\n  no_milestone_stale_share: 0.75\n  max_tool_calls: 400\n  max_cost_usd: 2.5\n`,
    );
    expect(config.progress).toEqual({
      ...DEFAULT_PROGRESS_THRESHOLDS,
      identical_streak: 5,
      no_milestone_stale_share: 0.75,
      max_tool_calls: 400,
      max_cost_usd: 2.5,
    });
  });

  it("reads every section of a full config, durations in milliseconds", () => {
    const { config } = parseConfig(FULL);
    expect(config.commands.map((c) => [c.name, c.timeout])).toEqual([
      ["unit tests", 900_000],
      ["lint", 90_000],
    ]);
    expect(config.evaluator).toEqual({
      kind: "llm",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      base_url: "http://127.0.0.1:8080",
      min_score: 0.9,
      rubric: "Every public function has a test.",
    });
    expect(config.handoff.required_when.open_longer_than).toBe(48 * 3_600_000);
    expect(config.escalation.maintainers).toEqual(["octocat", "@octo-org/maintainers"]);
    expect(config.budgets.unchanged_failures_before_stalled).toBe(2);
  });

  it("accepts the command evaluator with its own defaults", () => {
    const { config } = parseConfig(
      `${MINIMAL}evaluator:\n  kind: command\n  run: ./bin/judge --json\n`,
    );
    expect(config.evaluator).toEqual({
      kind: "command",
      run: "./bin/judge --json",
      timeout: 600_000,
      min_score: 0.8,
      rubric: "",
    });
  });
});

describe("parseConfig: errors name the field, its line and column, and what to write", () => {
  it("a bad duration, exactly as the user reads it", () => {
    const text = `version: 1
commands:
  - name: test
    run: npm test
  - name: lint
    run: npm run lint
    timeout: 10x
`;
    expect(() => parseConfig(text)).toThrow(
      '.github/agate.yml is not a valid agate config (1 problem):\n  - commands[1].timeout at line 7, column 14: "10x" is not a duration such as 90s, 10m or 1h',
    );
  });

  it("a duration without a unit says which unit to write", () => {
    expect(problemsOf(`${MINIMAL}    timeout: 600\n`)).toEqual([
      {
        path: "commands[0].timeout",
        line: 5,
        column: 14,
        message: "600 is not a duration: write the unit, such as 600s or 600m",
      },
    ]);
  });

  it("an unknown key is an error, with the likely key and the allowed ones", () => {
    expect(problemsOf(`${MINIMAL}gate:\n  lables: [agent]\n`)).toEqual([
      {
        path: "gate.lables",
        line: 6,
        column: 3,
        message:
          "unknown key; did you mean labels? (gate takes all, authors, labels, branches, report_only)",
      },
    ]);
  });

  it("an unknown key at the top level and inside a list item", () => {
    const problems = problemsOf(
      "version: 1\ncommands:\n  - name: test\n    run: npm test\n    timout: 5m\nprotected: []\n",
    );
    expect(problems.map((p) => [p.path, p.line, p.column])).toEqual([
      ["commands[0].timout", 5, 5],
      ["protected", 6, 1],
    ]);
    expect(problems[0]?.message).toBe(
      "unknown key; did you mean timeout? (commands[0] takes name, run, timeout, writes, privileged)",
    );
    expect(problems[1]?.message).toContain("the top level takes version, gate, commands");
  });

  it("unknown keys follow the evaluator's kind", () => {
    const problems = problemsOf(
      `${MINIMAL}evaluator:\n  kind: llm\n  model: m\n  temperature: 0\n`,
    );
    expect(problems).toEqual([
      {
        path: "evaluator.temperature",
        line: 8,
        column: 3,
        message: "unknown key (evaluator takes kind, provider, model, base_url, min_score, rubric)",
      },
    ]);
  });

  it("a missing field points at its mapping and shows an example", () => {
    expect(problemsOf("version: 1\ncommands:\n  - name: test\n")).toEqual([
      {
        path: "commands[0].run",
        line: 3,
        column: 5,
        message: "is missing, for example run: npm test",
      },
    ]);
    expect(problemsOf("version: 1\n")).toEqual([
      {
        path: "commands",
        line: 1,
        column: 1,
        message: "is missing, for example commands: [ { name: test, run: npm test } ]",
      },
    ]);
  });

  it("wrong types, enums, ranges and the version", () => {
    const problems = problemsOf(`version: 2
commands: npm test
evaluator:
  kind: llm
  provider: openia
  model: m
  min_score: 1.5
budgets:
  graded_attempts_per_pr: 0
`);
    expect(problems).toEqual([
      {
        path: "version",
        line: 1,
        column: 10,
        message: "version must be 1, the only config version this agate reads",
      },
      { path: "commands", line: 2, column: 11, message: 'expected a list, got "npm test"' },
      {
        path: "evaluator.provider",
        line: 5,
        column: 13,
        message: '"openia" is not one of openai, anthropic',
      },
      {
        path: "evaluator.min_score",
        line: 7,
        column: 14,
        message: "min_score is a score between 0 and 1",
      },
      {
        path: "budgets.graded_attempts_per_pr",
        line: 9,
        column: 27,
        message: "must be more than 0, got 0",
      },
    ]);
  });

  it("progress thresholds out of range, of the wrong type or misspelt", () => {
    const text = `${MINIMAL}progress:
  identical_streak: 1
  reverts: 2.5
  no_milestone_stale_share: 1.5
  max_cost_usd: 0
  max_tool_calls: ten
  no_new_informaton: 20
`;
    expect(() => parseConfig(text)).toThrow(
      [
        ".github/agate.yml is not a valid agate config (6 problems):",
        "  - progress.identical_streak at line 6, column 21: must be at least 2, got 1",
        "  - progress.reverts at line 7, column 12: expected a whole number, got 2.5",
        "  - progress.no_milestone_stale_share at line 8, column 29: must be at most 1, got 1.5",
        "  - progress.max_cost_usd at line 9, column 17: must be more than 0, got 0",
        '  - progress.max_tool_calls at line 10, column 19: expected a number, got "ten"',
        "  - progress.no_new_informaton at line 11, column 3: unknown key; did you mean no_new_information?",
      ].join("\n"),
    );
  });

  it("an unknown evaluator kind lists the kinds", () => {
    expect(problemsOf(`${MINIMAL}evaluator:\n  kind: gpt\n`)).toEqual([
      {
        path: "evaluator.kind",
        line: 6,
        column: 9,
        message: '"gpt" is not an evaluator kind: use none, llm, command or review',
      },
    ]);
  });

  it("no commands, and duplicate command names", () => {
    expect(problemsOf("version: 1\ncommands: []\n")[0]?.message).toBe(
      "needs at least one command, such as - { name: test, run: npm test }",
    );
    expect(
      problemsOf("version: 1\ncommands:\n  - { name: test, run: a }\n  - { name: test, run: b }\n"),
    ).toEqual([
      {
        path: "commands[1].name",
        line: 4,
        column: 13,
        message: '"test" is used by an earlier command: names must be unique',
      },
    ]);
  });

  it("bad logins and teams", () => {
    const problems = problemsOf(
      `${MINIMAL}gate:\n  authors: ["not a login"]\nescalation:\n  maintainers: ["@org/team ok"]\n`,
    );
    expect(problems.map((p) => p.message)).toEqual([
      '"not a login" is not a GitHub login such as octocat or copilot-swe-agent[bot]',
      '"@org/team ok" is neither a login (octocat) nor a team (@my-org/maintainers)',
    ]);
  });

  it("YAML syntax errors and duplicate keys carry their position", () => {
    expect(problemsOf("version: 1\nversion: 1\n")).toEqual([
      { path: "", line: 2, column: 1, message: "YAML syntax: Map keys must be unique" },
    ]);
    const [problem] = problemsOf("version: 1\ncommands: [\n");
    expect(problem?.message).toMatch(/^YAML syntax: /);
    expect(problem?.line).toBeGreaterThanOrEqual(2);
  });

  it("an empty file and a file that is not a mapping", () => {
    expect(problemsOf("")[0]?.message).toMatch(
      /^the file is empty: it needs at least `version: 1`/,
    );
    expect(problemsOf("# only a comment\n")[0]?.message).toMatch(/^the file is empty/);
    expect(problemsOf("- version: 1\n")).toEqual([
      {
        path: "",
        line: 1,
        column: 1,
        message: "the top level must be a mapping with keys such as version and commands",
      },
    ]);
  });

  it("an alias bomb is refused, not expanded", () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from({ length: 8 }, (_, i) => {
        const prev = i === 0 ? "a" : `l${i - 1}`;
        return `l${i}: &l${i} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`;
      }),
    ].join("\n");
    expect(problemsOf(bomb)[0]?.message).toMatch(/^YAML: .*alias/i);
  });

  it("names the file it was given", () => {
    expect(() => parseConfig("version: 1\n", "base:.github/agate.yml")).toThrow(
      /^base:\.github\/agate\.yml is not a valid agate config/,
    );
  });

  it("lists every problem, in file order", () => {
    const problems = problemsOf(
      "version: 1\nbudgets:\n  bogus: 1\ncommands:\n  - name: t\n    run: x\n    timeout: 1y\n",
    );
    expect(problems.map((p) => p.line)).toEqual([3, 7]);
  });
});

describe("config digest", () => {
  const digest = (text: string) => parseConfig(text).digest;

  it("is a sha256, stable across key order, formatting, comments and default spelling", () => {
    const base = digest(MINIMAL);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(digest('# comment\ncommands: [{ run: "npm test", name: test }]\nversion: 1\n')).toBe(
      base,
    );
    expect(digest(`${MINIMAL}    timeout: 10m\n`)).toBe(base);
    expect(digest(`${MINIMAL}    timeout: 600s\n`)).toBe(base);
    expect(digest(`${MINIMAL}budgets:\n  graded_attempts_per_pr: 10\n`)).toBe(base);
  });

  it("changes when a command, its timeout or any enforced setting changes", () => {
    const base = digest(MINIMAL);
    const variants = [
      MINIMAL.replace("npm test", "npm test -- --bail"),
      MINIMAL.replace("name: test", "name: tests"),
      `${MINIMAL}    timeout: 11m\n`,
      `${MINIMAL}  - name: lint\n    run: npm run lint\n`,
      `${MINIMAL}protected_paths: ["tests/**"]\n`,
      `${MINIMAL}evaluator: { kind: review }\n`,
      `${MINIMAL}progress: { identical_streak: 4 }\n`,
    ];
    const digests = variants.map(digest);
    for (const d of digests) expect(d).not.toBe(base);
    expect(new Set(digests).size).toBe(variants.length);
  });

  it("depends on command order, since commands run in order", () => {
    const ab = "version: 1\ncommands:\n  - { name: a, run: a }\n  - { name: b, run: b }\n";
    const ba = "version: 1\ncommands:\n  - { name: b, run: b }\n  - { name: a, run: a }\n";
    expect(digest(ab)).not.toBe(digest(ba));
  });
});
