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
