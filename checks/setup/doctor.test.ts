import { describe, expect, it } from "vitest";
import { AGATE_APP_EVENTS, AGATE_APP_PERMISSIONS } from "./app-requirements.js";
import {
  type DoctorFacts,
  diagnose,
  evidenceWorkflowPath,
  type Finding,
  hasProblem,
  renderFindings,
} from "./doctor.js";

const WORKFLOW = `on: [pull_request, merge_group]
permissions:
  contents: read
jobs:
  agate-commands:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: agate
        uses: agate-gate/agate@v0
`;

const APP = {
  id: 42,
  slug: "agate-acme",
  permissions: { ...AGATE_APP_PERMISSIONS },
  events: [...AGATE_APP_EVENTS],
};

function facts(change: Partial<DoctorFacts> = {}): DoctorFacts {
  return {
    repository: "acme/widgets",
    defaultBranch: "main",
    config: { ok: true, value: "version: 1\ncommands: [{ name: test, run: npm test }]\n" },
    workflow: { path: ".github/workflows/agate.yml", text: { ok: true, value: WORKFLOW } },
    rules: {
      ok: true,
      value: { checks: [{ context: "agate", appId: 42, where: "ruleset 1" }], mergeQueue: false },
    },
    protection: { ok: true, value: [] },
    app: { ok: true, value: APP },
    installation: {
      ok: true,
      value: {
        permissions: { ...AGATE_APP_PERMISSIONS },
        events: [...AGATE_APP_EVENTS],
        repositorySelection: "all",
        suspended: false,
      },
    },
    ...change,
  };
}

function workflow(text: string): Partial<DoctorFacts> {
  return { workflow: { path: ".github/workflows/agate.yml", text: { ok: true, value: text } } };
}

function finding(all: Finding[], check: Finding["check"]): Finding {
  const found = all.filter((item) => item.check === check && item.status !== "ok");
  expect(found, check).toHaveLength(1);
  return found[0] as Finding;
}

describe("doctor: the findings", () => {
  it("a well set-up repository is all ok, but for the advice to require a merge queue", () => {
    const all = diagnose(facts());
    expect(all.map((item) => [item.check, item.status])).toEqual([
      ["config", "ok"],
      ["workflow", "ok"],
      ["workflow permissions", "ok"],
      ["required check", "ok"],
      ["merge queue", "advice"],
      ["app", "ok"],
      ["installation", "ok"],
    ]);
    expect(hasProblem(all)).toBe(false);
  });

  it("merge queue: advice without one (the window a retarget leaves, issue 26); ok with one", () => {
    const without = finding(diagnose(facts()), "merge queue");
    expect(without.summary).toContain(
      "a pass computed for one base stands for the same commit proposed to another branch that requires agate",
    );
    expect(without.fix).toContain("require a merge queue in the ruleset on main");
    const queued = diagnose(
      facts({
        rules: {
          ok: true,
          value: {
            checks: [{ context: "agate", appId: 42, where: "ruleset 1" }],
            mergeQueue: true,
          },
        },
      }),
    );
    expect(queued.find((item) => item.check === "merge queue")?.status).toBe("ok");
    expect(
      diagnose(facts({ rules: { ok: false, reason: "cannot read the rules" } })).find(
        (item) => item.check === "merge queue",
      ),
    ).toMatchObject({ status: "could-not-check", summary: "cannot read the rules" });
  });

  it("no config on the default branch", () => {
    const item = finding(diagnose(facts({ config: { ok: true, value: null } })), "config");
    expect(item.status).toBe("problem");
    expect(item.fix).toContain("commit .github/agate.yml to main");
  });

  it("the workflow the config names is the one checked", () => {
    const config =
      "version: 1\ncommands: [{ name: t, run: t }]\nevidence:\n  workflow: .github/workflows/ci.yml\n  job: gate\n";
    expect(evidenceWorkflowPath(config)).toBe(".github/workflows/ci.yml");
    expect(evidenceWorkflowPath("version: 2\n")).toBe(".github/workflows/agate.yml");
    const item = finding(diagnose(facts({ config: { ok: true, value: config } })), "workflow");
    expect(item.summary).toBe(
      ".github/workflows/agate.yml has no job gate (evidence.job); its jobs: agate-commands",
    );
  });

  it.each([
    [
      "no permissions at all",
      WORKFLOW.replace("permissions:\n  contents: read\n", ""),
      "sets no permissions for job agate-commands",
    ],
    [
      "read-all",
      WORKFLOW.replace("permissions:\n  contents: read\n", "permissions: read-all\n"),
      "sets permissions: read-all: more than agate needs",
    ],
    [
      "contents: write",
      WORKFLOW.replace("contents: read", "contents: write"),
      "grants contents: write",
    ],
    [
      "an extra permission",
      WORKFLOW.replace("contents: read", "contents: read\n  pull-requests: write"),
      "grants pull-requests: write: more than agate needs",
    ],
    [
      "no contents",
      WORKFLOW.replace("contents: read", "actions: none"),
      "does not grant contents: read",
    ],
  ])("workflow permissions: %s is a problem", (_, text, summary) => {
    const item = finding(diagnose(facts(workflow(text))), "workflow permissions");
    expect(item.status).toBe("problem");
    expect(item.summary).toContain(summary);
  });

  it("the job's own permissions replace the workflow's", () => {
    const text = WORKFLOW.replace(
      "permissions:\n  contents: read\n",
      "permissions: write-all\n",
    ).replace(
      "    runs-on: ubuntu-latest\n",
      "    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n",
    );
    const all = diagnose(facts(workflow(text)));
    expect(all.find((item) => item.check === "workflow permissions")).toMatchObject({
      status: "ok",
      summary: "job agate-commands in .github/workflows/agate.yml: contents: read only",
    });
  });

  it("triggers: no pull_request is a problem; no merge_group is one only under a merge queue", () => {
    const noPull = finding(
      diagnose(facts(workflow(WORKFLOW.replace("pull_request, ", "")))),
      "workflow",
    );
    expect(noPull.summary).toContain("does not run on pull_request");
    const noGroup = workflow(WORKFLOW.replace(", merge_group", ""));
    expect(hasProblem(diagnose(facts(noGroup)))).toBe(false);
    const queued = facts({
      ...noGroup,
      rules: {
        ok: true,
        value: { checks: [{ context: "agate", appId: 42, where: "ruleset 1" }], mergeQueue: true },
      },
    });
    expect(finding(diagnose(queued), "workflow").summary).toContain("does not run on merge_group");
  });

  it("a missing step, and invalid YAML", () => {
    const noStep = finding(
      diagnose(facts(workflow(WORKFLOW.replace("name: agate", "name: gate")))),
      "workflow",
    );
    expect(noStep.summary).toBe("job agate-commands has no step named agate (evidence.step)");
    const broken = finding(diagnose(facts(workflow("on: [pull_request\n"))), "workflow");
    expect(broken.summary).toContain("is not a workflow GitHub can run");
  });

  it("required check: any source and another App are problems; an unknown App id cannot be checked", () => {
    const rules = (appId: number | null) => ({
      rules: {
        ok: true as const,
        value: { checks: [{ context: "agate", appId, where: "ruleset 3" }], mergeQueue: false },
      },
    });
    expect(finding(diagnose(facts(rules(null))), "required check").summary).toContain(
      "from any source",
    );
    expect(finding(diagnose(facts(rules(7))), "required check").summary).toContain(
      "from app id 7, not from agate-acme (app id 42)",
    );
    const unnamed = finding(
      diagnose(facts({ ...rules(7), app: null, installation: null })),
      "required check",
    );
    expect(unnamed.status).toBe("could-not-check");
    // A check of another name does not count.
    const other = {
      rules: {
        ok: true as const,
        value: {
          checks: [{ context: "agate-commands", appId: 42, where: "ruleset 1" }],
          mergeQueue: false,
        },
      },
    };
    expect(finding(diagnose(facts(other)), "required check").status).toBe("problem");
  });

  it("required check: when a source could not be read and nothing else requires agate, it could not be checked", () => {
    const item = finding(
      diagnose(
        facts({
          rules: { ok: false, reason: "cannot read the rules on main: GitHub answered 403" },
          protection: { ok: true, value: [] },
        }),
      ),
      "required check",
    );
    expect(item.status).toBe("could-not-check");
    expect(item.summary).toContain("rulesets: cannot read the rules on main: GitHub answered 403");
  });

  it("the App: missing and extra permissions, a missing event", () => {
    const missing = {
      ...APP,
      permissions: { ...APP.permissions, checks: "read" },
      events: APP.events.filter((e) => e !== "merge_group"),
    };
    expect(finding(diagnose(facts({ app: { ok: true, value: missing } })), "app").summary).toBe(
      "agate-acme does not ask for permissions checks: write and events merge_group, which agate needs",
    );
    const extra = {
      ...APP,
      permissions: { ...APP.permissions, administration: "write", contents: "write" },
    };
    expect(finding(diagnose(facts({ app: { ok: true, value: extra } })), "app").summary).toContain(
      "asks for contents: write, administration: write, more than agate needs",
    );
  });

  it("the installation: absent, suspended, on selected repositories", () => {
    const installed = facts().installation;
    if (!installed?.ok || !installed.value) throw new Error("fixture");
    const base = installed.value;
    expect(
      finding(diagnose(facts({ installation: { ok: true, value: null } })), "installation").fix,
    ).toBe("install it: https://github.com/apps/agate-acme/installations/new");
    expect(
      finding(
        diagnose(facts({ installation: { ok: true, value: { ...base, suspended: true } } })),
        "installation",
      ).status,
    ).toBe("problem");
    const selected = finding(
      diagnose(
        facts({ installation: { ok: true, value: { ...base, repositorySelection: "selected" } } }),
      ),
      "installation",
    );
    expect(selected.status).toBe("could-not-check");
  });

  it("renders one line per finding, the fix under it, and a closing count", () => {
    const text = renderFindings(
      "acme/widgets",
      diagnose(facts({ config: { ok: true, value: null } })),
    );
    expect(text.split("\n")[0]).toBe("agate doctor: acme/widgets");
    expect(text).toMatch(/^ {2}PROBLEM +config: main has no \.github\/agate\.yml/m);
    expect(text).toMatch(/^ +→ commit \.github\/agate\.yml to main/m);
    expect(text.trimEnd().split("\n").at(-1)).toBe("1 problem to fix.");
  });
});

describe("doctor: a config that extends organisation defaults", () => {
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const reference = `acme/.github:agate.yml@${sha}`;
  const config = { ok: true as const, value: `extends: ${reference}\n` };
  const defaults = "version: 1\ncommands: [{ name: test, run: npm test }]\nevidence:\n  job: ci\n";

  it("is checked merged with the defaults it read, whose evidence job applies", () => {
    const all = diagnose(facts({ config, defaults }));
    const found = all.find((item) => item.check === "config");
    expect(found).toMatchObject({
      status: "ok",
      summary: `.github/agate.yml on main is valid with the defaults of ${reference} (1 required command)`,
    });
    // The workflow has job agate-commands; the merged config names ci.
    expect(all.some((item) => item.status === "problem" && /\bci\b/.test(item.summary))).toBe(true);
    expect(evidenceWorkflowPath(config.value, { owner: "acme", defaults })).toBe(
      ".github/workflows/agate.yml",
    );
  });

  it("defaults this token cannot read are 'could not check', not a problem of the config", () => {
    const all = diagnose(
      facts({ config, defaults: { unreadable: "GitHub answered 404 for agate.yml" } }),
    );
    expect(finding(all, "config")).toMatchObject({
      status: "could-not-check",
      summary: expect.stringContaining(
        "extends organisation defaults that this token cannot read, so the merged config was not checked: GitHub answered 404 for agate.yml",
      ),
    });
  });

  it("defaults refused (a pinned commit off the default branch) are a problem of the config", () => {
    const all = diagnose(
      facts({
        config,
        defaults: { refused: `commit ${sha} is not on acme/.github's default branch main` },
      }),
    );
    expect(finding(all, "config")).toMatchObject({ status: "problem" });
    expect(finding(all, "config").details?.join("\n")).toContain(
      `cannot use the defaults ${reference}: commit ${sha} is not on acme/.github's default branch main`,
    );
  });

  it("a reference that is not pinned, or another owner's, is a problem", () => {
    const unpinned = diagnose(
      facts({ config: { ok: true, value: "extends: acme/.github:agate.yml@main\n" } }),
    );
    expect(finding(unpinned, "config")).toMatchObject({ status: "problem" });
    expect(finding(unpinned, "config").details?.join("\n")).toContain("a branch or tag name");
    const other = diagnose(
      facts({ config: { ok: true, value: `extends: umbrella/.github:agate.yml@${sha}\n` } }),
    );
    expect(finding(other, "config").details?.join("\n")).toContain(
      "(acme/.github), not umbrella/.github",
    );
  });
});
