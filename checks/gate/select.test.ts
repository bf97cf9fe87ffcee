import { describe, expect, it } from "vitest";
import { gateFacts, loadedConfig } from "../../test/support/gate-facts.js";
import { protectedChanges } from "./protected-paths.js";
import { selectGate } from "./select.js";

/** The rules other than `all`: what gates when a repository sets `gate.all: false`. */
const gate = { ...loadedConfig().config.gate, all: false };
const pr = (overrides: Partial<ReturnType<typeof gateFacts>["pull_request"]>) => ({
  ...gateFacts().pull_request,
  labels: [],
  ...overrides,
});

describe("selectGate", () => {
  it("gates every pull request by default (gate.all): labels and branches are the author's choice", () => {
    expect(loadedConfig().config.gate.all).toBe(true);
    expect(selectGate(loadedConfig().config.gate, pr({ head_ref: "feature/x" }), false)).toEqual({
      gated: true,
      reason: "every pull request is gated (gate.all)",
    });
  });

  it("gates by label, author, branch glob or all, and says which rule", () => {
    expect(selectGate(gate, pr({ labels: ["agent"] }), false)).toEqual({
      gated: true,
      reason: "it carries the label agent (gate.labels)",
    });
    expect(selectGate(gate, pr({ head_ref: "codex/fix-1" }), false).reason).toBe(
      "its branch `codex/fix-1` matches codex/** (gate.branches)",
    );
    expect(
      selectGate(
        { ...gate, authors: ["My-Agent[bot]"] },
        pr({ author: { login: "my-agent[bot]", type: "Bot" } }),
        false,
      ).reason,
    ).toBe("author my-agent[bot] is listed in gate.authors");
    expect(selectGate({ ...gate, all: true }, pr({}), false).gated).toBe(true);
  });

  it("does not gate what no rule selects, and says why in one line", () => {
    expect(
      selectGate(
        gate,
        pr({ head_ref: "feature/x", author: { login: "octocat", type: "User" } }),
        false,
      ),
    ).toEqual({
      gated: false,
      reason:
        "not gated: author octocat is not in gate.authors, it has none of the labels agent, and its branch `feature/x` matches none of codex/**, claude/**, copilot/**, devin/**, openhands/**, agent/**",
    });
  });

  it("matches labels as GitHub names them, whatever their case: a config's `agent` gates `Agent`", () => {
    expect(selectGate(gate, pr({ head_ref: "feature/x", labels: ["Agent"] }), false)).toEqual({
      gated: true,
      reason: "it carries the label Agent (gate.labels)",
    });
    expect(
      selectGate(
        { ...gate, labels: ["AI-Written"] },
        pr({ head_ref: "feature/x", labels: ["ai-written"] }),
        false,
      ).gated,
    ).toBe(true);
  });

  it("once gated stays gated: removing the label or renaming nothing frees it", () => {
    expect(selectGate(gate, pr({ labels: [] }), true)).toEqual({
      gated: true,
      reason: "gated earlier; a pull request once gated stays gated",
    });
  });
});

describe("protectedChanges", () => {
  const config = loadedConfig(
    'version: 1\ncommands: [{ name: t, run: x }]\nprotected_paths: ["tests/acceptance/**"]\n',
  ).config;
  it("always protects .github/** and the config, plus configured globs, and renames both ways", () => {
    const changed = protectedChanges(
      [
        { filename: "src/a.ts", previous_filename: null, status: "modified" },
        { filename: ".github/workflows/ci.yml", previous_filename: null, status: "modified" },
        { filename: "tests/acceptance/login.test.ts", previous_filename: null, status: "added" },
        {
          filename: "tests/moved.test.ts",
          previous_filename: "tests/acceptance/old.test.ts",
          status: "renamed",
        },
      ],
      config,
    );
    expect(changed).toEqual([
      ".github/workflows/ci.yml",
      "tests/acceptance/login.test.ts",
      "tests/acceptance/old.test.ts",
    ]);
    expect(
      protectedChanges(
        [{ filename: "src/x.ts", previous_filename: null, status: "added" }],
        config,
      ),
    ).toEqual([]);
  });
});
