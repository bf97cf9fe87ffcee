#!/usr/bin/env node
/**
 * The demo's evaluator: a `command` evaluator that reads the bundle on stdin and checks the
 * rubric's `requires: <path>` lines against the files the diff really changes. A rule-based
 * stand-in for a model (none can be reached here), honest about what it checks: each required
 * path missing from the diff is a missing item, and the score is the share present.
 */
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const bundle = JSON.parse(input);
  const changed = new Set(bundle.diff.files.map((file) => file.filename));
  const required = [...bundle.rubric.matchAll(/^requires: (\S+)(?: (.*))?$/gm)].map((m) => ({
    path: m[1],
    why: m[2] ?? "",
  }));
  const missing = required
    .filter((r) => !changed.has(r.path))
    .map((r) => `Change ${r.path}${r.why ? `: ${r.why}` : ""}`);
  const present = required.filter((r) => changed.has(r.path)).map((r) => `${r.path} is changed`);
  const score = required.length === 0 ? 1 : present.length / required.length;
  process.stdout.write(
    JSON.stringify({ complete: missing.length === 0, score, missing, evidence: present }),
  );
});
