import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { JsonSchemaNode } from "../checks/config/json-schema.js";
import { parseConfig } from "../checks/config/parse-config.js";
import { configJsonSchema } from "../schemas/json-schema.js";

const ROOT = join(import.meta.dirname, "..");
const reference = readFileSync(join(ROOT, "docs", "config.md"), "utf8");

/** Every key a user can write, as a path such as `commands[].timeout` or `evaluator.model`. */
function leafPaths(node: JsonSchemaNode, prefix = ""): string[] {
  const branches = node.oneOf ?? node.anyOf ?? [node];
  return branches.flatMap((branch) => {
    if (branch.properties) {
      return Object.entries(branch.properties).flatMap(([key, child]) =>
        leafPaths(child, prefix ? `${prefix}.${key}` : key),
      );
    }
    if (branch.items?.properties) return leafPaths(branch.items, `${prefix}[]`);
    return [prefix];
  });
}

/** Each key's schema nodes (one per `kind` branch it appears in), by path. */
function leafNodes(node: JsonSchemaNode, prefix = "", out = new Map<string, JsonSchemaNode[]>()) {
  for (const branch of node.oneOf ?? node.anyOf ?? [node]) {
    if (branch.properties) {
      for (const [key, child] of Object.entries(branch.properties)) {
        leafNodes(child, prefix ? `${prefix}.${key}` : key, out);
      }
    } else if (branch.items?.properties) {
      leafNodes(branch.items, `${prefix}[]`, out);
    } else {
      out.set(prefix, [...(out.get(prefix) ?? []), branch]);
    }
  }
  return out;
}

/** The reference's key tables: each row's key and its default cell. */
function documentedDefaults(markdown: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of markdown.split("\n")) {
    const cells = line.split(" | ");
    const key = /^\| `([^`]+)`$/.exec(cells[0] ?? "")?.[1];
    if (key !== undefined && cells.length >= 4) rows.set(key, cells[2] ?? "");
  }
  return rows;
}

/** What a default cell says, as a value: `10m`, `null`, `[]`, or a list of code spans. */
function cellValue(cell: string, expected: unknown): unknown {
  const spans = [...cell.matchAll(/`([^`]+)`/g)].map((m) => parseYaml(m[1] ?? "") as unknown);
  if (Array.isArray(expected) && !(spans.length === 1 && Array.isArray(spans[0]))) return spans;
  return spans[0];
}

describe("docs/config.md", () => {
  const paths = [...new Set(leafPaths(configJsonSchema() as JsonSchemaNode))];

  it("gives each key the default the schema applies", () => {
    const cells = documentedDefaults(reference);
    const wrong = [...leafNodes(configJsonSchema() as JsonSchemaNode)].flatMap(([path, nodes]) => {
      const withDefault = nodes.find((node) => node.default !== undefined);
      if (withDefault === undefined) return [];
      const cell = cells.get(path);
      const said = cell === undefined ? undefined : cellValue(cell, withDefault.default);
      return JSON.stringify(said) === JSON.stringify(withDefault.default)
        ? []
        : [
            `${path}: docs/config.md says ${cell ?? "nothing"}, the schema applies ${JSON.stringify(withDefault.default)}`,
          ];
    });
    expect(wrong).toEqual([]);
  });

  it("finds the config's keys", () => {
    expect(paths).toContain("commands[].timeout");
    expect(paths).toContain("evaluator.model");
    expect(paths).toContain("handoff.required_when.sessions_over");
  });

  it.each(paths.map((path) => [path]))("documents `%s`", (path) => {
    expect(reference).toContain(`\`${path}\``);
  });

  it("every YAML example in it is a valid config or a fragment that says so", () => {
    const blocks = [...reference.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
    const configs = blocks.filter((block) => /^version: 1$/m.test(block));
    expect(configs.length).toBeGreaterThanOrEqual(2);
    for (const text of configs) expect(() => parseConfig(text)).not.toThrow();
  });

  it("this repository's own .github/agate.yml is valid", () => {
    expect(() =>
      parseConfig(readFileSync(join(ROOT, ".github", "agate.yml"), "utf8")),
    ).not.toThrow();
  });
});

/** A workflow file, as far as these rules read it. */
interface Workflow {
  on: Record<string, unknown>;
  permissions?: unknown;
  jobs: Record<
    string,
    {
      name?: string;
      permissions?: unknown;
      steps?: { name?: string; uses?: string; run?: string; with?: Record<string, unknown> }[];
    }
  >;
}

const README = readFileSync(join(ROOT, "README.md"), "utf8");
/** The README's evidence workflow: the block under "Use the Action". */
const readmeWorkflowText =
  [...README.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? "")
    .find((block) => block.startsWith("# .github/workflows/agate.yml")) ?? "";
const readmeWorkflow = parseYaml(readmeWorkflowText) as Workflow;
const WORKFLOWS = join(ROOT, ".github", "workflows");
const ownWorkflows = readdirSync(WORKFLOWS)
  .filter((file) => /\.ya?ml$/.test(file))
  .map((file) => ({
    file: `.github/workflows/${file}`,
    workflow: parseYaml(readFileSync(join(WORKFLOWS, file), "utf8")) as Workflow,
  }));
const ownConfig = parseConfig(readFileSync(join(ROOT, ".github", "agate.yml"), "utf8")).config;
/** The agate Action as a user names it: the major tag, or (before the first release) a commit. */
const AGATE_ACTION = /^agate-gate\/agate@(v0|[0-9a-f]{40})$/;
/** Any other action: pinned by the whole commit SHA, so a moved tag cannot change what runs. */
const PINNED = /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/;

/** The README's rules for a workflow that runs the pull request's code. */
function followsTheRules(file: string, workflow: Workflow): void {
  expect(workflow.permissions, file).toEqual({ contents: "read" });
  for (const [key, job] of Object.entries(workflow.jobs)) {
    // GitHub names a check run after each job: `agate` is the gate's own check.
    expect(key, file).not.toBe("agate");
    expect(job.name, `${file}: jobs.${key}.name`).not.toBe("agate");
    if (job.permissions !== undefined) {
      expect(job.permissions, `${file}: jobs.${key}`).toEqual({ contents: "read" });
    }
    for (const step of job.steps ?? []) {
      if (step.uses === undefined) continue;
      expect(step.uses, `${file}: jobs.${key}`).toMatch(
        step.uses.startsWith("agate-gate/agate@") ? AGATE_ACTION : PINNED,
      );
      if (step.uses.startsWith("actions/checkout@")) {
        expect(step.with?.["persist-credentials"], `${file}: jobs.${key}`).toBe(false);
      }
    }
  }
}

describe("the README's evidence workflow", () => {
  it("is in the README, and keeps the README's own rules", () => {
    expect(readmeWorkflow.jobs).toBeDefined();
    followsTheRules("README.md", readmeWorkflow);
    expect(Object.keys(readmeWorkflow.on).sort()).toEqual(["merge_group", "pull_request"]);
  });
});

describe("this repository's own workflows", () => {
  it("keep the README's rules: contents: read only, no job named agate, actions pinned by commit SHA", () => {
    expect(ownWorkflows.map((w) => w.file)).toContain(ownConfig.evidence.workflow);
    for (const { file, workflow } of ownWorkflows) followsTheRules(file, workflow);
  });

  it("use the same commits of actions/checkout and actions/setup-node as the README", () => {
    const readmeUses = Object.values(readmeWorkflow.jobs).flatMap((job) =>
      (job.steps ?? []).flatMap((step) => (step.uses ? [step.uses] : [])),
    );
    for (const { file, workflow } of ownWorkflows) {
      for (const job of Object.values(workflow.jobs)) {
        for (const step of job.steps ?? []) {
          if (!step.uses?.startsWith("actions/")) continue;
          const action = step.uses.split("@")[0];
          expect(
            readmeUses.filter((uses) => uses.startsWith(`${action}@`)),
            file,
          ).toEqual([step.uses]);
        }
      }
    }
  });

  it("take their evidence from the README's workflow, at the job and step .github/agate.yml names", () => {
    const own = ownWorkflows.find((w) => w.file === ownConfig.evidence.workflow)?.workflow;
    expect(own).toBeDefined();
    const job = own?.jobs[ownConfig.evidence.job];
    expect(job, `jobs.${ownConfig.evidence.job}`).toBeDefined();
    const steps = job?.steps ?? [];
    const agate = steps.findIndex((step) => step.name === ownConfig.evidence.step);
    expect(steps[agate]?.uses).toMatch(AGATE_ACTION);
    // No pull-request code runs before agate: the install is one of the config's commands.
    expect(steps.slice(0, agate).filter((step) => step.run !== undefined)).toEqual([]);
    // The README's workflow exactly, but for which release or commit of the Action it names.
    const withoutAgateRef = (workflow: Workflow | undefined) =>
      JSON.parse(
        JSON.stringify(workflow).replace(/"agate-gate\/agate@[^"]*"/g, '"agate-gate/agate"'),
      ) as unknown;
    expect(withoutAgateRef(own)).toEqual(withoutAgateRef(readmeWorkflow));
  });
});

describe("the Nodes the README promises", () => {
  const engines = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
    }
  ).engines.node;
  const ciRun = readFileSync(join(ROOT, ".ci", "run"), "utf8");
  const promised = (ciRun.match(/^promised_nodes="([\d ]+)"$/m)?.[1] ?? "").split(" ");
  const ci = parseYaml(readFileSync(join(WORKFLOWS, "ci.yml"), "utf8")) as {
    jobs: { ci: { strategy: { matrix: { node: number[] } } } };
  };

  it("are what package.json's engines allow, what .ci/run tests and what the CI workflow starts it on", () => {
    expect(engines).toBe(`>=${promised[0]}`);
    expect(ci.jobs.ci.strategy.matrix.node.map(String)).toEqual(promised);
    // The README's Node.js section names the same Nodes and the same lower bound.
    const section = README.split("### Node.js")[1]?.split("\n## ")[0] ?? "";
    expect(section).toContain(`engines: ${engines}`);
    for (const major of promised) expect(section).toContain(`Node.js ${major}`);
  });

  it(".ci/run makes the sandbox tests mandatory: a skip there is a failure", () => {
    expect(ciRun).toMatch(/^export AGATE_REQUIRE_SANDBOX=1$/m);
    expect(ciRun.indexOf("AGATE_REQUIRE_SANDBOX=1")).toBeLessThan(ciRun.indexOf("npm test"));
  });
});

describe("the README's settings table", () => {
  it("names every variable the App reads, the registration's included", async () => {
    const { agateEnvSchema, setupEnvSchema } = await import("../app/runtime/settings.js");
    const table = README.split("\n").filter((line) => line.startsWith("| `"));
    const named = new Set(
      table.flatMap((row) =>
        [...(row.split(" | ")[0] ?? "").matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]),
      ),
    );
    const read = [...Object.keys(agateEnvSchema.shape), ...Object.keys(setupEnvSchema.shape)];
    expect(read.filter((name) => !named.has(name))).toEqual([]);
  });
});

/** Directories of this repository a doc names paths in: a path starting with one must exist. */
const REPOSITORY_AREAS = /^(?:app|action|checks|schemas|github|scripts|test|docs|dist)\//;

/** Every file and directory of the repository (node_modules and .git aside), as "a/b.ts" and "a/". */
function repositoryPaths(): string[] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((top) => top.name !== "node_modules" && top.name !== ".git")
    .flatMap((top) => {
      if (!top.isDirectory()) return [top.name];
      const inner = readdirSync(join(ROOT, top.name), { withFileTypes: true, recursive: true });
      return [
        `${top.name}/`,
        ...inner.map((entry) => {
          const path = relative(ROOT, join(entry.parentPath, entry.name));
          return entry.isDirectory() ? `${path}/` : path;
        }),
      ];
    });
}

/**
 * The paths a Markdown text names in code spans: a word that starts with one of this repository's
 * directories (`app/gate/route.ts`, `npx tsx scripts/bench-intake.ts`, `test/e2e/{a,b}.test.ts`),
 * and a TypeScript file named by its last parts (`gather.ts`, `trace/read.ts`). Fenced blocks are
 * examples of a user's files, so they are left out.
 */
function namedPaths(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  const words = [...prose.matchAll(/`([^`\n]+)`/g)].flatMap((m) => (m[1] ?? "").split(/\s+/));
  return words
    .map((word) => word.replace(/^[("']+|[)"',:;.]+$/g, ""))
    .filter((word) => REPOSITORY_AREAS.test(word) || /^[\w./-]*\.ts$/.test(word));
}

/** Why a named path is not in the repository, or undefined when it is. */
function missing(path: string, paths: readonly string[]): string | undefined {
  if (/[*{]/.test(path)) {
    const matches = picomatch(path.replace(/\/$/, "/**"), { dot: true });
    return paths.some((p) => matches(p)) ? undefined : "matches no file";
  }
  if (REPOSITORY_AREAS.test(path)) return paths.includes(path) ? undefined : "does not exist";
  return paths.some((p) => p === path || p.endsWith(`/${path}`)) ? undefined : "is no file here";
}

describe("paths the docs name", () => {
  const paths = repositoryPaths();
  const docs = [
    "AGENTS.md",
    "README.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((file) => file.endsWith(".md"))
      .map((file) => `docs/${file}`),
  ];

  it.each(docs.map((doc) => [doc]))("%s names only paths that exist", (doc) => {
    const named = namedPaths(readFileSync(join(ROOT, doc), "utf8"));
    expect(
      [...new Set(named)].flatMap((path) => {
        const why = missing(path, paths);
        return why
          ? [
              `${doc} names \`${path}\`, which ${why}: write where it is now (or, for a path in a user's repository, say so without a code span)`,
            ]
          : [];
      }),
    ).toEqual([]);
  });

  it("finds paths in code spans, commands and globs, and catches one that moved", () => {
    const text =
      "See `app/gate/route.ts`, `npx tsx scripts/bench-intake.ts` and `gather.ts` (in `app/gate/`).\n" +
      "```yaml\nrun: scripts/only-in-a-users-repo.sh\n```\n`test/e2e/{gate,app-gate}.test.ts`, `trace/read.ts`.";
    expect(namedPaths(text)).toEqual([
      "app/gate/route.ts",
      "scripts/bench-intake.ts",
      "gather.ts",
      "app/gate/",
      "test/e2e/{gate,app-gate}.test.ts",
      "trace/read.ts",
    ]);
    for (const path of namedPaths(text)) expect(missing(path, paths), path).toBeUndefined();
    expect(missing("app/gate/caches-old.ts", paths)).toBe("does not exist");
    expect(missing("app/nowhere/", paths)).toBe("does not exist");
    expect(missing("gone-away.ts", paths)).toBe("is no file here");
    expect(missing("test/e2e/{no,none}.test.ts", paths)).toBe("matches no file");
  });
});
