/**
 * The README's evidence workflow, shortened, as a repository commits it on its default branch:
 * the same name, triggers, permissions, job and step (what the App pins and the simulated runner
 * reads), without the setup-node step and with the Action named OWNER/agate. test/docs.test.ts
 * holds the README's own text and this repository's workflow to the rules.
 */
export const EVIDENCE_WORKFLOW_TEXT = [
  "name: agate",
  "on:",
  "  pull_request:",
  "  merge_group:",
  "permissions:",
  "  contents: read",
  "jobs:",
  "  agate-commands:",
  "    runs-on: ubuntu-latest",
  "    steps:",
  "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2",
  "        with:",
  "          persist-credentials: false",
  "      - name: agate",
  "        uses: OWNER/agate@v1",
  "",
].join("\n");
