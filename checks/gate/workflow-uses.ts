import { isMap, isScalar, isSeq, parseDocument, type YAMLMap } from "yaml";
import type { ChangedFile, EvidenceSourceFact } from "../../schemas/gate.js";

/**
 * The local paths a workflow or a composite action uses: `uses: ./path` in a job (a reusable
 * workflow) or in a step (a local action). Remote `owner/repo@ref` uses are pinned by the base's
 * text itself and are not listed. A path comes back without `./` and without a trailing slash;
 * `./` alone (the repository's root action) comes back as "" and covers every file.
 */
export function localUses(
  text: string,
  file: string,
): { ok: true; uses: string[] } | { ok: false; error: string } {
  // Aliases are not followed (an alias node is neither a map nor a scalar), so no alias bomb.
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) {
    return { ok: false, error: `${file} is not valid YAML: ${doc.errors[0]?.message ?? ""}` };
  }
  const found = new Set<string>();
  const collect = (value: unknown) => {
    if (!isScalar(value) || typeof value.value !== "string") return;
    const uses = value.value.trim();
    if (!uses.startsWith("./")) return;
    found.add(normalise(uses));
  };
  const stepsOf = (owner: unknown) => {
    if (!isMap(owner)) return;
    const steps = owner.get("steps", true);
    if (!isSeq(steps)) return;
    for (const step of steps.items) if (isMap(step)) collect(step.get("uses", true));
  };
  const root = doc.contents;
  if (!isMap(root)) return { ok: true, uses: [] };
  const jobs = root.get("jobs", true);
  if (isMap(jobs)) {
    for (const pair of (jobs as YAMLMap).items) {
      collect(isMap(pair.value) ? pair.value.get("uses", true) : undefined);
      stepsOf(pair.value);
    }
  }
  // A composite action: `runs: { using: composite, steps: [...] }`.
  stepsOf(root.get("runs", true));
  return { ok: true, uses: [...found].sort() };
}

/** `./a/b/` and `./a//b` are the same path as `a/b`; `./` is the repository root (""). */
function normalise(uses: string): string {
  const withoutRef = uses.split("@")[0] ?? uses;
  return withoutRef
    .slice(2)
    .split("/")
    .filter((part) => part !== "" && part !== ".")
    .join("/");
}

/** Whether `file` is `use` itself or lies under it (a directory of a local action). */
export function isUnder(file: string, use: string): boolean {
  return use === "" || file === use || file.startsWith(`${use}/`);
}

/**
 * The changed files that touch the evidence workflow or anything it uses locally. A rename counts
 * on both sides: moving a file away from a used path changes what the workflow runs too.
 */
export function evidenceSourceChanges(
  changedFiles: readonly ChangedFile[],
  source: Pick<EvidenceSourceFact, "workflow" | "uses">,
): string[] {
  const watched = [source.workflow, ...source.uses];
  const touched = new Set<string>();
  for (const file of changedFiles) {
    for (const name of [file.filename, file.previous_filename]) {
      if (name && watched.some((use) => isUnder(name, use))) touched.add(name);
    }
  }
  return [...touched].sort();
}
