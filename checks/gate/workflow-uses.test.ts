import { describe, expect, it } from "vitest";
import { evidenceSourceChanges, localUses } from "./workflow-uses.js";

describe("localUses: the local paths a workflow or composite action runs", () => {
  it("finds local actions in steps and local reusable workflows in jobs, not remote ones", () => {
    const workflow = [
      "on: [pull_request, merge_group]",
      "jobs:",
      "  agate:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - uses: actions/checkout@0123456789abcdef0123456789abcdef01234567",
      "      - uses: ./.github/actions/setup/",
      "      - name: agate",
      "        uses: octo/agate@v1",
      "  lint:",
      "    uses: ./.github/workflows/lint.yml",
      "  other:",
      "    uses: octo/ci/.github/workflows/x.yml@v2",
    ].join("\n");
    expect(localUses(workflow, "agate.yml")).toEqual({
      ok: true,
      uses: [".github/actions/setup", ".github/workflows/lint.yml"],
    });
  });

  it("reads a composite action's steps, and `./` as the whole repository", () => {
    const action =
      "runs:\n  using: composite\n  steps:\n    - uses: ./\n    - run: echo\n      shell: bash\n";
    expect(localUses(action, "action.yml")).toEqual({ ok: true, uses: [""] });
  });

  it("follows YAML anchors and aliases as GitHub does: a step, a list of steps, a job, the path itself (issue 26)", () => {
    const workflow = [
      "on: pull_request",
      "x-setup: &setup",
      "  uses: ./.github/actions/setup",
      "x-path: &lint ./.github/workflows/lint.yml",
      "jobs:",
      "  agate: &job",
      "    runs-on: ubuntu-latest",
      "    steps: &steps",
      "      - *setup",
      "      - name: agate",
      "        uses: octo/agate@v1",
      "  again:",
      "    steps: *steps",
      "  copy: *job",
      "  lint:",
      "    uses: *lint",
    ].join("\n");
    expect(localUses(workflow, "agate.yml")).toEqual({
      ok: true,
      uses: [".github/actions/setup", ".github/workflows/lint.yml"],
    });
  });

  it("reads merge keys and duplicate keys on every side, so no reading GitHub may make is missed", () => {
    const workflow = [
      "jobs:",
      "  agate:",
      "    steps:",
      "      - <<: { uses: ./.github/actions/merged }",
      "        name: merged",
      "      - uses: ./.github/actions/first",
      "        uses: ./.github/actions/second",
    ].join("\n");
    expect(localUses(workflow, "agate.yml")).toEqual({
      ok: true,
      uses: [".github/actions/first", ".github/actions/merged", ".github/actions/second"],
    });
  });

  it("refuses an alias bomb and an alias to no anchor as unreadable, expanding nothing", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      levels.push(`${next}: &${next} [${Array(10).fill(`*${prev}`).join(", ")}]`);
    }
    const bomb = [...levels, "jobs:", "  agate:", "    steps:", "      - <<: [*i, *i, *i]"].join(
      "\n",
    );
    const started = Date.now();
    const found = localUses(bomb, "agate.yml");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(found).toEqual({ ok: true, uses: [] });
    const merges = ["s0: &s0 { uses: ./x }"];
    for (let i = 1; i < 8; i++) {
      merges.push(
        `s${i}: &s${i} { <<: [${Array(10)
          .fill(`*s${i - 1}`)
          .join(", ")}] }`,
      );
    }
    const nested = [...merges, "jobs:", "  agate:", "    steps:", "      - *s7"].join("\n");
    expect(localUses(nested, "agate.yml")).toEqual({
      ok: false,
      error: "agate.yml cannot be read: it needs more than 1000 alias resolutions to read",
    });
    expect(localUses("jobs:\n  agate:\n    steps:\n      - *nowhere\n", "agate.yml")).toEqual({
      ok: false,
      error: "agate.yml cannot be read: its alias *nowhere names no anchor before it",
    });
  });

  it("says which file is not valid YAML", () => {
    const found = localUses("jobs: [\n", ".github/workflows/agate.yml");
    expect(found.ok).toBe(false);
    expect(found.ok ? "" : found.error).toMatch(
      /^\.github\/workflows\/agate\.yml is not valid YAML/,
    );
  });
});

describe("evidenceSourceChanges", () => {
  const source = { workflow: ".github/workflows/agate.yml", uses: [".github/actions/setup"] };
  it("names changes to the workflow and under what it uses, on either side of a rename", () => {
    expect(
      evidenceSourceChanges(
        [
          { filename: ".github/actions/setup/run.sh", previous_filename: null, status: "added" },
          { filename: ".github/actions/setupx/a", previous_filename: null, status: "added" },
          {
            filename: "moved.yml",
            previous_filename: ".github/workflows/agate.yml",
            status: "renamed",
          },
          { filename: "src/a.ts", previous_filename: null, status: "modified" },
        ],
        source,
      ),
    ).toEqual([".github/actions/setup/run.sh", ".github/workflows/agate.yml"]);
  });
});
