import { parseDocument } from "yaml";
import { CONFIG_PATH, type Config, evidenceSchema } from "../../schemas/config.js";
import type { DefaultsRead } from "../config/extends.js";
import { type ConfigSources, parseConfig } from "../config/parse-config.js";
import { ConfigurationError, formatProblem } from "../errors.js";
import { AGATE_APP_EVENTS, AGATE_APP_PERMISSIONS, covers } from "./app-requirements.js";
import {
  type Finding,
  type FindingStatus,
  gateRequirementFinding,
  type Read,
  type RequiredCheck,
} from "./required-check.js";

export type { Finding, FindingStatus, Read, RequiredCheck } from "./required-check.js";

/**
 * `agate-gate doctor`: a repository's set-up as far as GitHub's API shows it, judged from facts
 * an adapter gathered (action/cli/doctor-github.ts). Pure: every read is done before, and a read
 * that failed arrives as its reason, so "could not check" always says why.
 */

export interface AppFacts {
  id: number;
  slug: string;
  permissions: Record<string, string>;
  events: string[];
}

export interface InstallationFacts {
  permissions: Record<string, string>;
  events: string[];
  repositorySelection: "all" | "selected";
  suspended: boolean;
}

export interface DoctorFacts {
  repository: string;
  defaultBranch: string;
  /** `.github/agate.yml` on the default branch; null when there is none. */
  config: Read<string | null>;
  /**
   * The organisation defaults the config extends, read at their pinned commit; absent or null
   * when it extends none (or cannot be parsed far enough to say).
   */
  defaults?: DefaultsRead | null;
  /** The evidence workflow at the default branch (`evidenceWorkflowPath`); null when absent. */
  workflow: { path: string; text: Read<string | null> };
  /** The active rulesets' rules on the default branch. */
  rules: Read<{ checks: RequiredCheck[]; mergeQueue: boolean }>;
  /** Branch protection's required checks on the default branch (empty: none or unprotected). */
  protection: Read<RequiredCheck[]>;
  /** The App named with --app; null when none was named. */
  app: Read<AppFacts> | null;
  /** The App's installation on the repository's owner: null value when it is not installed. */
  installation: Read<InstallationFacts | null> | null;
}

/** The workflow the config names as evidence.workflow, or the default when it names none. */
export function evidenceWorkflowPath(
  configText: string | null,
  sources: ConfigSources = {},
): string {
  return evidenceOf(configText, sources).workflow;
}

/** What parseConfig needs besides the text: the owner, and the defaults as they were read. */
function sourcesOf(facts: DoctorFacts): ConfigSources {
  const owner = facts.repository.split("/")[0] ?? null;
  if (!facts.defaults) return { owner };
  return { owner, defaults: facts.defaults };
}

function evidenceOf(configText: string | null, sources: ConfigSources): Config["evidence"] {
  if (configText !== null) {
    try {
      return parseConfig(configText, CONFIG_PATH, sources).config.evidence;
    } catch {
      // An invalid config is its own finding; the workflow is checked at the default path.
    }
  }
  return evidenceSchema.parse({});
}

export function diagnose(facts: DoctorFacts): Finding[] {
  const evidence = evidenceOf(facts.config.ok ? facts.config.value : null, sourcesOf(facts));
  const rules = facts.rules.ok ? facts.rules.value : null;
  return [
    configFinding(facts),
    ...workflowFindings(facts, evidence, rules?.mergeQueue ?? false),
    requiredCheckFinding(facts),
    mergeQueueFinding(facts),
    appFinding(facts.app),
    installationFinding(facts),
  ];
}

/**
 * The window only a merge queue closes (checks/gate/base-requirement.ts): GitHub keeps agate's
 * check on a commit, so a pass computed for one base stands for the same commit proposed to
 * another branch that requires agate until the App has looked again. A queue closes it: agate
 * grades every merge group itself. Advice, not a problem: merge queues are not on every plan.
 */
function mergeQueueFinding(facts: DoctorFacts): Finding {
  const check = "merge queue";
  const branch = facts.defaultBranch;
  if (!facts.rules.ok)
    return { check, status: "could-not-check", summary: facts.rules.reason, fix: null };
  if (facts.rules.value.mergeQueue) {
    return {
      check,
      status: "ok",
      summary: `a ruleset requires a merge queue on ${branch}: agate grades each merge group itself, so no pass computed for another base can stand for what merges`,
      fix: null,
    };
  }
  return {
    check,
    status: "advice",
    summary: `no merge queue on ${branch}: agate's check belongs to a commit, so a pass computed for one base stands for the same commit proposed to another branch that requires agate (a retarget, a second pull request) until the App has looked again, seconds unless it is down; only a merge queue closes that`,
    fix: `require a merge queue in the ruleset on ${branch} (Settings → Rules → Rulesets → Require merge queue) and add merge_group to the evidence workflow's triggers`,
  };
}

export function hasProblem(findings: readonly Finding[]): boolean {
  return findings.some((finding) => finding.status === "problem");
}

function configFinding(facts: DoctorFacts): Finding {
  const { config, defaultBranch } = facts;
  const check = "config";
  if (!config.ok) {
    return { check, status: "could-not-check", summary: config.reason, fix: null };
  }
  if (config.value === null) {
    return {
      check,
      status: "problem",
      summary: `${defaultBranch} has no ${CONFIG_PATH}, so no pull request into it is gated`,
      fix: `commit ${CONFIG_PATH} to ${defaultBranch} (docs/config.md; check it first with agate-gate validate)`,
    };
  }
  if (facts.defaults && typeof facts.defaults !== "string" && "unreadable" in facts.defaults) {
    // This token's reach, not necessarily the App's or the Action's: not a finding either way.
    return {
      check,
      status: "could-not-check",
      summary: `${CONFIG_PATH} on ${defaultBranch} extends organisation defaults that this token cannot read, so the merged config was not checked: ${facts.defaults.unreadable}`,
      fix: null,
    };
  }
  try {
    const loaded = parseConfig(config.value, CONFIG_PATH, sourcesOf(facts));
    const count = loaded.config.commands.length;
    const extended = loaded.extends ? ` with the defaults of ${loaded.extends.reference}` : "";
    return {
      check,
      status: "ok",
      summary: `${CONFIG_PATH} on ${defaultBranch} is valid${extended} (${count} required command${count === 1 ? "" : "s"})`,
      fix: null,
    };
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    return {
      check,
      status: "problem",
      summary: `${CONFIG_PATH} on ${defaultBranch} is invalid (${error.problems.length} problem${error.problems.length === 1 ? "" : "s"}): every gated pull request into it is blocked`,
      fix: `fix it on ${defaultBranch} (agate-gate validate shows the same problems locally)`,
      details: error.problems.map(formatProblem),
    };
  }
}

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Json)
    : null;
}

function workflowFindings(
  facts: DoctorFacts,
  evidence: Config["evidence"],
  mergeQueue: boolean,
): Finding[] {
  const { path, text } = facts.workflow;
  const check = "workflow";
  if (!text.ok) return [{ check, status: "could-not-check", summary: text.reason, fix: null }];
  if (text.value === null) {
    return [
      {
        check,
        status: "problem",
        summary: `${facts.defaultBranch} has no ${path} (evidence.workflow), so no command record can be believed`,
        fix: `commit the workflow from the README ("Use the Action") as ${path} on ${facts.defaultBranch}`,
      },
    ];
  }
  const doc = parseDocument(text.value, { prettyErrors: false });
  const root = doc.errors.length === 0 ? asObject(doc.toJS()) : null;
  if (!root) {
    return [
      {
        check,
        status: "problem",
        summary: `${path} is not a workflow GitHub can run (${doc.errors[0]?.message ?? "not a mapping"})`,
        fix: `fix its YAML on ${facts.defaultBranch}`,
      },
    ];
  }
  const findings: Finding[] = [triggerFinding(path, root.on, mergeQueue)];
  const jobs = asObject(root.jobs) ?? {};
  const entry = Object.entries(jobs).find(
    ([key, job]) => key === evidence.job || asObject(job)?.name === evidence.job,
  );
  if (!entry) {
    findings.push({
      check,
      status: "problem",
      summary: `${path} has no job ${evidence.job} (evidence.job); its jobs: ${Object.keys(jobs).join(", ") || "none"}`,
      fix: `name the job that runs the agate Action ${evidence.job}, or set evidence.job in ${CONFIG_PATH}`,
    });
    return findings;
  }
  const [jobKey, jobValue] = entry;
  const job = asObject(jobValue) ?? {};
  if (typeof job.uses === "string") {
    findings.push({
      check,
      status: "could-not-check",
      summary: `job ${jobKey} calls the reusable workflow ${job.uses}; the doctor reads only ${path}`,
      fix: null,
    });
    return findings;
  }
  const steps = Array.isArray(job.steps) ? job.steps.map(asObject) : [];
  const step = steps.find((s) => s?.name === evidence.step);
  if (!step || typeof step.uses !== "string") {
    findings.push({
      check,
      status: "problem",
      summary: step
        ? `step ${evidence.step} of job ${jobKey} runs no action (it has no uses:)`
        : `job ${jobKey} has no step named ${evidence.step} (evidence.step)`,
      fix: `give the step that runs the agate Action (uses: agate-gate/agate@v0) name: ${evidence.step}`,
    });
  }
  findings.push(permissionsFinding(path, jobKey, job.permissions, root.permissions));
  return findings;
}

function triggerFinding(path: string, on: unknown, mergeQueue: boolean): Finding {
  const events = new Set(
    typeof on === "string"
      ? [on]
      : Array.isArray(on)
        ? on.map(String)
        : Object.keys(asObject(on) ?? {}),
  );
  const check = "workflow";
  if (!events.has("pull_request")) {
    return {
      check,
      status: "problem",
      summary: `${path} does not run on pull_request, so pull requests never get a command record`,
      fix: "add pull_request (and merge_group) to its on:",
    };
  }
  if (!events.has("merge_group")) {
    return mergeQueue
      ? {
          check,
          status: "problem",
          summary: `the default branch requires a merge queue, and ${path} does not run on merge_group: every merge group will fail its agate check`,
          fix: "add merge_group to its on:",
        }
      : {
          check,
          status: "ok",
          summary: `${path} runs on pull_request (not merge_group: add it before you turn on a merge queue)`,
          fix: null,
        };
  }
  return {
    check,
    status: "ok",
    summary: `${path} runs on pull_request and merge_group`,
    fix: null,
  };
}

const READ_ONLY_FIX =
  "set `permissions: contents: read` on the workflow or the job, and nothing else";

/**
 * The job runs the pull request's code, and whatever its token may do, that code may do: it needs
 * `contents: read` (checkout, the base config) and nothing more. The job's own `permissions:`
 * replaces the workflow's.
 */
function permissionsFinding(
  path: string,
  job: string,
  jobPermissions: unknown,
  workflowPermissions: unknown,
): Finding {
  const own = jobPermissions !== undefined;
  const permissions = own ? jobPermissions : workflowPermissions;
  const where = own ? `job ${job} in ${path}` : `${path}`;
  const check = "workflow permissions";
  const problem = (summary: string, fix = READ_ONLY_FIX): Finding => ({
    check,
    status: "problem",
    summary,
    fix,
  });
  if (permissions === undefined || permissions === null) {
    return problem(
      `${path} sets no permissions for job ${job}, so its token gets the repository's default, which can be write access to everything, beside the pull request's code`,
    );
  }
  if (typeof permissions === "string") {
    return problem(
      `${where} sets permissions: ${permissions}: ${permissions === "write-all" ? "the pull request's code could push, label and approve with the job's token" : "more than agate needs beside the pull request's code"}`,
    );
  }
  const map = asObject(permissions);
  if (!map) return problem(`${where} has permissions GitHub does not read`);
  const extra = Object.entries(map).filter(
    ([name, level]) => name !== "contents" && String(level) !== "none",
  );
  if (extra.length > 0) {
    return problem(
      `${where} grants ${extra.map(([name, level]) => `${name}: ${String(level)}`).join(", ")}: more than agate needs, and the pull request's code runs with it`,
      `remove ${extra.map(([name]) => name).join(", ")} from its permissions (agate needs contents: read only)`,
    );
  }
  const contents = String(map.contents ?? "none");
  if (contents === "write") {
    return problem(
      `${where} grants contents: write: the pull request's code could push with the job's token`,
    );
  }
  if (contents !== "read") {
    return problem(
      `${where} does not grant contents: read, which checkout of a private repository and the Action's read of the base config need`,
      "set `permissions: contents: read`",
    );
  }
  return { check, status: "ok", summary: `${where}: contents: read only`, fix: null };
}

function requiredCheckFinding(facts: DoctorFacts): Finding {
  const app = facts.app?.ok ? facts.app.value : null;
  return gateRequirementFinding({
    branch: facts.defaultBranch,
    rules: facts.rules.ok ? { ok: true, value: facts.rules.value.checks } : facts.rules,
    protection: facts.protection,
    app: app ? { id: app.id, slug: app.slug } : null,
  });
}

function missingOf(
  permissions: Record<string, string>,
  events: readonly string[],
): { permissions: string[]; events: string[] } {
  return {
    permissions: Object.entries(AGATE_APP_PERMISSIONS)
      .filter(([name, level]) => !covers(permissions[name], level))
      .map(([name, level]) => `${name}: ${level}`),
    events: AGATE_APP_EVENTS.filter((event) => !events.includes(event)),
  };
}

function lacking(missing: { permissions: string[]; events: string[] }): string[] {
  return [
    missing.permissions.length > 0 ? `permissions ${missing.permissions.join(", ")}` : "",
    missing.events.length > 0 ? `events ${missing.events.join(", ")}` : "",
  ].filter(Boolean);
}

function appFinding(app: DoctorFacts["app"]): Finding {
  const check = "app";
  if (app === null) {
    return {
      check,
      status: "could-not-check",
      summary: "no App named, so its permissions, events and check-run source cannot be compared",
      fix: "name the App: --app SLUG (the end of its page's address, https://github.com/apps/SLUG)",
    };
  }
  if (!app.ok) return { check, status: "could-not-check", summary: app.reason, fix: null };
  const { slug, id, permissions, events } = app.value;
  const missing = lacking(missingOf(permissions, events));
  if (missing.length > 0) {
    return {
      check,
      status: "problem",
      summary: `${slug} does not ask for ${missing.join(" and ")}, which agate needs`,
      fix: `add them in the App's settings (Permissions & events), as app.yml lists them`,
    };
  }
  const extra = Object.entries(permissions).filter(
    ([name, level]) =>
      !(name in AGATE_APP_PERMISSIONS) || !covers(AGATE_APP_PERMISSIONS[name], level),
  );
  if (extra.length > 0) {
    return {
      check,
      status: "problem",
      summary: `${slug} asks for ${extra.map(([name, level]) => `${name}: ${level}`).join(", ")}, more than agate needs: whoever holds its private key holds that too`,
      fix: "lower them in the App's settings (Permissions & events) to what app.yml lists",
    };
  }
  return {
    check,
    status: "ok",
    summary: `${slug} (app id ${id}) asks for the permissions and events agate needs, no more`,
    fix: null,
  };
}

function installationFinding(facts: DoctorFacts): Finding {
  const check = "installation";
  const owner = facts.repository.split("/")[0] ?? facts.repository;
  const { installation } = facts;
  const app = facts.app?.ok ? facts.app.value : null;
  if (installation === null) {
    return {
      check,
      status: "could-not-check",
      summary: `which permissions the App's installation on ${owner} granted is unknown without the App's name`,
      fix: "name the App: --app SLUG",
    };
  }
  if (!installation.ok) {
    return { check, status: "could-not-check", summary: installation.reason, fix: null };
  }
  const slug = app?.slug ?? "the App";
  const found = installation.value;
  if (found === null) {
    return {
      check,
      status: "problem",
      summary: `${slug} is not installed on ${owner}: it receives no webhooks and writes no check`,
      fix: `install it: https://github.com/apps/${app?.slug ?? "SLUG"}/installations/new`,
    };
  }
  if (found.suspended) {
    return {
      check,
      status: "problem",
      summary: `${slug}'s installation on ${owner} is suspended: it receives no webhooks`,
      fix: `unsuspend it in ${owner}'s settings (GitHub Apps → ${slug} → Configure)`,
    };
  }
  const missing = lacking(missingOf(found.permissions, found.events));
  if (missing.length > 0) {
    return {
      check,
      status: "problem",
      summary: `the installation on ${owner} has not granted ${missing.join(" and ")}`,
      fix: `accept the App's requested permissions in ${owner}'s settings (GitHub Apps → ${slug} → Configure → Review request)`,
    };
  }
  if (found.repositorySelection === "selected") {
    return {
      check,
      status: "could-not-check",
      summary: `${slug} is installed on ${owner} for selected repositories, with what agate needs; whether ${facts.repository} is among them is not shown to this token`,
      fix: `make sure it is: ${owner}'s settings → GitHub Apps → ${slug} → Configure → Repository access`,
    };
  }
  return {
    check,
    status: "ok",
    summary: `${slug} is installed on all of ${owner}'s repositories with the permissions and events agate needs`,
    fix: null,
  };
}

const MARK: Record<FindingStatus, string> = {
  ok: "ok",
  problem: "PROBLEM",
  "could-not-check": "could not check",
  advice: "advice",
};

/** The findings for a terminal: one line each, the fix and any details below it. */
export function renderFindings(repository: string, findings: readonly Finding[]): string {
  const lines = [`agate doctor: ${repository}`];
  for (const finding of findings) {
    lines.push(`  ${MARK[finding.status].padEnd(15)} ${finding.check}: ${finding.summary}`);
    for (const detail of finding.details ?? []) lines.push(`${" ".repeat(20)}${detail}`);
    if (finding.fix) lines.push(`${" ".repeat(18)}→ ${finding.fix}`);
  }
  const count = (status: FindingStatus) => findings.filter((f) => f.status === status).length;
  const problems = count("problem");
  const unchecked = count("could-not-check");
  lines.push(
    problems === 0
      ? `No problem found${unchecked > 0 ? `; ${unchecked} ${unchecked === 1 ? "thing" : "things"} could not be checked with this token (see above)` : ""}.`
      : `${problems} problem${problems === 1 ? "" : "s"} to fix${unchecked > 0 ? `, ${unchecked} could not be checked` : ""}.`,
  );
  return `${lines.join("\n")}\n`;
}
