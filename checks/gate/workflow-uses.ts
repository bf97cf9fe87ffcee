import { isAlias, isMap, isScalar, isSeq, parseDocument } from "yaml";
import type { ChangedFile, EvidenceSourceFact } from "../../schemas/gate.js";

/** Alias resolutions followed in one file, then it is unreadable (no alias bomb is expanded). */
const MAX_ALIASES = 1_000;
/** Merge keys (`<<`) inside merge keys followed this deep. */
const MAX_MERGE_DEPTH = 8;

class Unfollowable extends Error {}

/**
 * The local paths a workflow or a composite action uses: `uses: ./path` in a job (a reusable
 * workflow) or in a step (a local action). Remote `owner/repo@ref` uses are pinned by the base's
 * text itself and are not listed. A path comes back without `./` and without a trailing slash;
 * `./` alone (the repository's root action) comes back as "" and covers every file.
 *
 * GitHub follows YAML anchors and aliases in workflows, so this does too: a `uses` reached
 * through an alias (a step, a list of steps, a job or the path itself) is one the workflow runs,
 * and a pull request that rewrote it would have its record believed. Aliases are resolved one
 * node at a time, never expanded, and a file needing more than MAX_ALIASES resolutions (or an
 * alias to no anchor) is unreadable: its records are refused. Merge keys (`<<`) and duplicate keys
 * are read on every side, so a reading GitHub may make is never missed.
 */
export function localUses(
  text: string,
  file: string,
): { ok: true; uses: string[] } | { ok: false; error: string } {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) {
    return { ok: false, error: `${file} is not valid YAML: ${doc.errors[0]?.message ?? ""}` };
  }
  let resolutions = 0;
  const deref = (node: unknown): unknown => {
    let current = node;
    while (isAlias(current)) {
      if (++resolutions > MAX_ALIASES) {
        throw new Unfollowable(`it needs more than ${MAX_ALIASES} alias resolutions to read`);
      }
      const target: unknown = current.resolve(doc);
      if (target === undefined) {
        throw new Unfollowable(`its alias *${current.source} names no anchor before it`);
      }
      current = target;
    }
    return current;
  };
  /** The values of a map's entries (under `key`, or all), its merge keys followed. */
  const valuesOf = (owner: unknown, key: string | null, depth = 0): unknown[] => {
    const map = deref(owner);
    if (!isMap(map)) return [];
    const values: unknown[] = [];
    for (const pair of map.items) {
      const name = deref(pair.key);
      const named = isScalar(name) ? name.value : undefined;
      if (named === "<<" && depth < MAX_MERGE_DEPTH) {
        const merged = deref(pair.value);
        for (const from of isSeq(merged) ? merged.items : [merged]) {
          values.push(...valuesOf(from, key, depth + 1));
        }
      }
      if (key === null ? named !== "<<" : named === key) values.push(deref(pair.value));
    }
    return values;
  };
  const found = new Set<string>();
  const collect = (value: unknown) => {
    const node = deref(value);
    if (!isScalar(node) || typeof node.value !== "string") return;
    const uses = node.value.trim();
    if (uses.startsWith("./")) found.add(normalise(uses));
  };
  const stepsOf = (owner: unknown) => {
    for (const steps of valuesOf(owner, "steps")) {
      if (!isSeq(steps)) continue;
      for (const step of steps.items) for (const uses of valuesOf(step, "uses")) collect(uses);
    }
  };
  try {
    const root = deref(doc.contents);
    for (const jobs of valuesOf(root, "jobs")) {
      for (const job of valuesOf(jobs, null)) {
        for (const uses of valuesOf(job, "uses")) collect(uses);
        stepsOf(job);
      }
    }
    // A composite action: `runs: { using: composite, steps: [...] }`.
    for (const runs of valuesOf(root, "runs")) stepsOf(runs);
  } catch (error) {
    if (!(error instanceof Unfollowable)) throw error;
    return { ok: false, error: `${file} cannot be read: ${error.message}` };
  }
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
