import { describe, expect, it } from "vitest";
import { refusedWith } from "../../test/support/refused.js";
import { ConfigurationError } from "../errors.js";
import { mergeDefaults, parseExtendsReference, pinnedCommitProblem } from "./extends.js";
import { type ConfigSources, configExtends, parseConfig } from "./parse-config.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const OTHER_SHA = "89abcdef0123456789abcdef0123456789abcdef";
const REF = `my-org/.github:agate/defaults.yml@${SHA}`;
const FILE = ".github/agate.yml";

/** Organisation defaults: line numbers matter to the location tests below. */
const DEFAULTS = `version: 1
gate:
  all: false
  authors: [org-agent]
commands:
  - name: test
    run: npm test
    timeout: 15m
budgets:
  graded_attempts_per_pr: 5
  evaluator_calls_per_tree: 2
evaluator:
  kind: llm
  model: gpt-4.1-mini
handoff:
  required_when:
    commits_over: 20
`;

const own = (rest = "") => `extends: ${REF}\n${rest}`;
const parse = (text: string, sources: ConfigSources = { owner: "my-org", defaults: DEFAULTS }) =>
  parseConfig(text, FILE, sources);

const problemsOf = (text: string, sources?: ConfigSources) =>
  refusedWith(ConfigurationError, () => parse(text, sources), "the config");

describe("extends: the reference", () => {
  it("reads owner, path and a full commit SHA", () => {
    expect(parseExtendsReference(REF, "My-Org")).toEqual({
      ok: true,
      ref: {
        owner: "my-org",
        repo: ".github",
        path: "agate/defaults.yml",
        sha: SHA,
        reference: REF,
      },
    });
    expect(configExtends(own(), FILE, "my-org")?.sha).toBe(SHA);
    expect(configExtends("version: 1\n", FILE, "my-org")).toBeNull();
  });

  it.each([
    ["my-org/.github:agate.yml@main", /"main" is a branch or tag name, which can move/],
    ["my-org/.github:agate.yml@v1.2.0", /is a branch or tag name/],
    ["my-org/.github:agate.yml@0123456", /abbreviated commit SHA: write all 40 hex digits/],
    ["my-org/.github:agate.yml", /is not a reference to a defaults file/],
    [`my-org/.github:agate.yml@${SHA.toUpperCase()}`, /in capitals: write it in lowercase/],
  ])("refuses a reference that is not pinned: %s", (reference, why) => {
    const problems = problemsOf(`version: 1\nextends: ${reference}\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "extends", line: 2, column: 10 });
    expect(problems[0]?.file).toBeUndefined();
    expect(problems[0]?.message).toMatch(why);
    if (reference.includes("@")) {
      expect(problems[0]?.message).toContain("Pin the defaults to a full 40-hex commit SHA");
    }
  });

  it("refuses another owner's .github, and any repository but .github, saying why", () => {
    const other = problemsOf(`extends: other-org/.github:agate.yml@${SHA}\n`);
    expect(other[0]?.message).toContain(
      "extends may name only this repository's owner's .github repository (my-org/.github), not other-org/.github",
    );
    expect(other[0]?.message).toContain("the App's installation and the Action's token reach");
    const repo = problemsOf(`extends: my-org/agate-config:agate.yml@${SHA}\n`);
    expect(repo[0]?.message).toMatch(
      /only the owner's \.github repository .* not my-org\/agate-config/,
    );
    // Without a known owner the owner is not checked; the repository still is.
    expect(parseExtendsReference(`other-org/.github:a.yml@${SHA}`, null).ok).toBe(true);
    expect(parseExtendsReference(`other-org/config:a.yml@${SHA}`, null).ok).toBe(false);
  });

  it.each(["", "/agate.yml", "../agate.yml", "a//b.yml", "a\\b.yml"])(
    "refuses the path %j",
    (path) => {
      const result = parseExtendsReference(`my-org/.github:${path}@${SHA}`, "my-org");
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problem).toContain("write a relative path such as agate.yml");
    },
  );

  it("never uses the file alone: defaults not read, or unreadable, refuse it at the extends line", () => {
    const notRead = problemsOf(own(DEFAULTS.replace("version: 1\n", "")), { owner: "my-org" });
    expect(notRead).toEqual([
      {
        path: "extends",
        line: 1,
        column: 10,
        message: `cannot use the defaults ${REF}: they were not read here, and this file alone is not the config`,
      },
    ]);
    const unreadable = problemsOf(own(), {
      owner: "my-org",
      defaults: { unreadable: "GitHub answered 404: give the token read access to my-org/.github" },
    });
    expect(unreadable[0]?.message).toBe(
      `cannot use the defaults ${REF}: GitHub answered 404: give the token read access to my-org/.github`,
    );
  });
});

describe("extends: the pinned commit must be on the .github repository's default branch", () => {
  const parsed = parseExtendsReference(REF, "my-org");
  if (!parsed.ok) throw new Error(parsed.problem);
  const { ref } = parsed;

  it("is used when the default branch is at it or past it", () => {
    expect(pinnedCommitProblem(ref, { defaultBranch: "main", status: "identical" })).toBeNull();
    expect(pinnedCommitProblem(ref, { defaultBranch: "main", status: "behind" })).toBeNull();
  });

  it("is refused when it has commits the default branch lacks, or no history in common with it", () => {
    for (const status of ["ahead", "diverged"] as const) {
      expect(pinnedCommitProblem(ref, { defaultBranch: "trunk", status })).toBe(
        `commit ${SHA} is not on my-org/.github's default branch trunk (GitHub compares it with trunk as "${status}": it has commits trunk does not). agate reads defaults only at a commit of the default branch: GitHub also serves other branches', unmerged pull requests' and forks' commits under my-org/.github's name, and nobody merged those as the defaults. Merge the change into trunk and pin a commit of it (git rev-parse origin/trunk in a clone of my-org/.github)`,
      );
    }
    expect(pinnedCommitProblem(ref, { defaultBranch: "main", status: null })).toContain(
      "(GitHub finds no history it shares with main)",
    );
  });

  it("refused defaults refuse the config at its extends line, like unreadable ones", () => {
    const own = `extends: ${REF}\n`;
    expect(() =>
      parseConfig(own, FILE, { owner: "my-org", defaults: { refused: "off main" } }),
    ).toThrow(
      "extends at line 1, column 10: cannot use the defaults my-org/.github:agate/defaults.yml@0123456789abcdef0123456789abcdef01234567: off main",
    );
  });
});

describe("extends: the merge", () => {
  it("merges maps key by key with the repository's value winning, and replaces lists and scalars", () => {
    const { config, extends: ref } = parse(
      own(`gate:
  authors: [repo-agent]
budgets:
  graded_attempts_per_pr: 3
handoff:
  required_when:
    commits_over: null
`),
    );
    expect(ref?.sha).toBe(SHA);
    expect(config.extends).toBe(REF);
    // gate: all from the defaults, authors replaced whole (not [org-agent, repo-agent]).
    expect(config.gate.all).toBe(false);
    expect(config.gate.authors).toEqual(["repo-agent"]);
    expect(config.budgets.graded_attempts_per_pr).toBe(3);
    expect(config.budgets.evaluator_calls_per_tree).toBe(2);
    // null switches off a rule the defaults set.
    expect(config.handoff.required_when.commits_over).toBeNull();
    expect(config.commands).toEqual([
      { name: "test", run: "npm test", timeout: 15 * 60_000, writes: [], privileged: false },
    ]);
    expect(config.evaluator).toMatchObject({ kind: "llm", model: "gpt-4.1-mini" });
  });

  it("replaces a list of commands whole", () => {
    const { config } = parse(own("commands:\n  - name: lint\n    run: npm run lint\n"));
    expect(config.commands.map((c) => c.name)).toEqual(["lint"]);
  });

  it("replaces a map of another kind whole (an evaluator of another kind takes other keys)", () => {
    const { config } = parse(own("evaluator:\n  kind: review\n"));
    expect(config.evaluator).toEqual({ kind: "review" });
    const same = parse(own("evaluator:\n  min_score: 0.95\n")).config.evaluator;
    expect(same).toMatchObject({ kind: "llm", model: "gpt-4.1-mini", min_score: 0.95 });
    expect(mergeDefaults({ a: { kind: "x", p: 1 } }, { a: { kind: "y" } })).toEqual({
      a: { kind: "y" },
    });
  });

  it("refuses defaults that extend other defaults (one level), located in the defaults", () => {
    const problems = problemsOf(own(), {
      owner: "my-org",
      defaults: `version: 1\nextends: my-org/.github:base.yml@${OTHER_SHA}\n`,
    });
    expect(problems).toEqual([
      {
        path: "extends",
        line: 2,
        column: 10,
        file: REF,
        message:
          "the defaults may not extend other defaults (one level only): put what they need in this file",
      },
    ]);
  });
});

describe("extends: problems name the file and line their value came from", () => {
  it("a bad value set in the defaults is located in the defaults", () => {
    const problems = problemsOf(own(), {
      owner: "my-org",
      defaults: DEFAULTS.replace("timeout: 15m", "timeout: 10x"),
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      path: "commands[0].timeout",
      line: 8,
      column: 14,
      file: REF,
    });
    const error = (() => {
      try {
        parse(own(), {
          owner: "my-org",
          defaults: DEFAULTS.replace("timeout: 15m", "timeout: 10x"),
        });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).toContain(`commands[0].timeout at line 8, column 14 of ${REF}: "10x"`);
  });

  it("a bad value set in the repository's file is located there, even when the defaults set it too", () => {
    const problems = problemsOf(own("budgets:\n  graded_attempts_per_pr: 0\n"));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "budgets.graded_attempts_per_pr", line: 3 });
    expect(problems[0]?.file).toBeUndefined();
  });

  it("an unknown key is located in the file that has it; the repository's problems come first", () => {
    const problems = problemsOf(own("budgets:\n  bogus: 1\n"), {
      owner: "my-org",
      defaults: DEFAULTS.replace("  all: false", "  lables: [x]"),
    });
    expect(problems.map((p) => [p.path, p.line, p.file])).toEqual([
      ["budgets.bogus", 3, undefined],
      ["gate.lables", 3, REF],
    ]);
    expect(problems[1]?.message).toContain("did you mean labels?");
  });

  it("a key missing from a list the repository replaced is the repository's problem", () => {
    const problems = problemsOf(own("commands:\n  - name: test\n"));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: "commands[0].run", line: 3 });
    expect(problems[0]?.message).toContain("is missing");
    expect(problems[0]?.file).toBeUndefined();
  });

  it("YAML syntax in the defaults is located in the defaults", () => {
    const problems = problemsOf(own(), { owner: "my-org", defaults: "version: 1\ngate: [\n" });
    expect(problems[0]?.file).toBe(REF);
    expect(problems[0]?.message).toMatch(/^YAML syntax/);
  });
});

describe("extends: the digest", () => {
  const digest = (text: string, defaults = DEFAULTS) =>
    parseConfig(text, FILE, { owner: "my-org", defaults }).digest;

  it("changes with the pinned SHA even when the defaults' text is the same", () => {
    expect(digest(own())).not.toBe(digest(own().replace(SHA, OTHER_SHA)));
  });

  it("changes with the defaults' content, and is the same for the same inputs", () => {
    expect(digest(own())).toBe(digest(`# comment\n${own()}`));
    expect(digest(own())).not.toBe(digest(own(), DEFAULTS.replace("npm test", "npm test --ci")));
  });

  it("covers the reference: the merged config written out whole has another digest", () => {
    const whole = parseConfig(DEFAULTS).digest;
    expect(digest(own())).not.toBe(whole);
    expect(parse(own()).config).toEqual({ ...parseConfig(DEFAULTS).config, extends: REF });
  });
});
