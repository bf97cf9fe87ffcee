/**
 * Whether a branch requires the `agate` check from the agate App: one judgement for
 * `agate-gate doctor` and for the App's own summary (a gate nobody requires blocks nothing, and
 * one required from any source is satisfied by a check run a pull request's workflow makes).
 * Pure: GitHub's answers in (rules, a branch), a finding out.
 */
import type { Finding } from "../../schemas/doctor.js";
import { GATE_CHECK_NAME } from "../../schemas/gate.js";

export type { Finding, FindingStatus } from "../../schemas/doctor.js";

/** What one API read gave, or why it gave nothing. */
export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

/** One required status check as a ruleset or branch protection states it. */
export interface RequiredCheck {
  context: string;
  /** The App the check must come from; null: from any source. */
  appId: number | null;
  /** Where it is required, for people: `ruleset 7 of o/r`, `branch protection`. */
  where: string;
}

/** A rule as `GET /repos/{owner}/{repo}/rules/branches/{branch}` lists it. */
export interface BranchRule {
  type: string;
  parameters?: unknown;
  ruleset_source_type?: string;
  ruleset_source?: string;
  ruleset_id?: number;
}

/** The required checks and whether a merge queue is required, from a branch's active rules. */
export function checksFromRules(
  rules: readonly BranchRule[],
  repository: string,
): { checks: RequiredCheck[]; mergeQueue: boolean } {
  const checks: RequiredCheck[] = [];
  let mergeQueue = false;
  for (const rule of rules) {
    const where = `${rule.ruleset_source_type === "Organization" ? "organisation ruleset" : "ruleset"} ${rule.ruleset_id ?? "?"} of ${rule.ruleset_source ?? repository}`;
    if (rule.type === "merge_queue") mergeQueue = true;
    if (rule.type !== "required_status_checks") continue;
    const parameters = rule.parameters as
      | { required_status_checks?: { context: string; integration_id?: number }[] }
      | undefined;
    for (const required of parameters?.required_status_checks ?? []) {
      checks.push({ context: required.context, appId: required.integration_id ?? null, where });
    }
  }
  return { checks, mergeQueue };
}

/** A branch as `GET /repos/{owner}/{repo}/branches/{branch}` returns it (the parts read). */
export interface BranchProtectionView {
  protected: boolean;
  protection?: {
    required_status_checks?: {
      enforcement_level?: string;
      checks: { context: string; app_id: number | null }[];
    };
  };
}

/**
 * Classic branch protection's required checks (none when unprotected or not enforced). A
 * protected branch whose required checks the token is not shown is unreadable, never "none":
 * concluding that nothing is required from what one cannot see would be a false alarm.
 */
export function checksFromBranch(branch: BranchProtectionView): Read<RequiredCheck[]> {
  if (!branch.protected) return { ok: true, value: [] };
  const required = branch.protection?.required_status_checks;
  if (!required) {
    return {
      ok: false,
      reason: "the branch is protected, but its required status checks are not shown to this token",
    };
  }
  if (required.enforcement_level === "off") return { ok: true, value: [] };
  // app_id -1 is "any source" when branch protection is written; null when it is read.
  return {
    ok: true,
    value: required.checks.map((check) => ({
      context: check.context,
      appId: check.app_id !== null && check.app_id > 0 ? check.app_id : null,
      where: "branch protection",
    })),
  };
}

/** From whom a branch requires the `agate` check, as far as the reads show. */
export type GateRequirement = "this_app" | "any_source" | "other_app" | "none" | "unknown";

/**
 * From whom `agate` is required on a branch: `this_app` (what the README sets up), `any_source`,
 * `other_app` (another App's id only), `none`, or `unknown` when a read that could hold the
 * requirement failed, or an App's id cannot be matched without knowing this App.
 */
export function gateRequirement(input: {
  rules: Read<RequiredCheck[]>;
  protection: Read<RequiredCheck[]>;
  app: { id: number } | null;
}): GateRequirement {
  const found = [
    ...(input.rules.ok ? input.rules.value : []),
    ...(input.protection.ok ? input.protection.value : []),
  ].filter((required) => required.context === GATE_CHECK_NAME);
  const { app } = input;
  if (app && found.some((required) => required.appId === app.id)) return "this_app";
  if (found.some((required) => required.appId === null)) return "any_source";
  if (found.length > 0) return app ? "other_app" : "unknown";
  return input.rules.ok && input.protection.ok ? "none" : "unknown";
}

/**
 * Whether `branch` requires the `agate` check from `app` (null: the App is not known, so only
 * "required at all" and "from any source" can be judged).
 */
export function gateRequirementFinding(input: {
  branch: string;
  rules: Read<RequiredCheck[]>;
  protection: Read<RequiredCheck[]>;
  app: { id: number; slug: string } | null;
}): Finding {
  const check = "required check";
  const { branch, app } = input;
  const found: RequiredCheck[] = [];
  const unread: string[] = [];
  if (input.rules.ok) found.push(...input.rules.value);
  else unread.push(`rulesets: ${input.rules.reason}`);
  if (input.protection.ok) found.push(...input.protection.value);
  else unread.push(`branch protection: ${input.protection.reason}`);
  const agate = found.filter((required) => required.context === GATE_CHECK_NAME);
  const howTo = `in a ruleset on ${branch} (Settings → Rules → Rulesets), require the status check ${GATE_CHECK_NAME} with ${app ? app.slug : "the agate App"} as its source`;

  if (app) {
    const pinned = agate.find((required) => required.appId === app.id);
    if (pinned) {
      return {
        check,
        status: "ok",
        summary: `${pinned.where} requires ${GATE_CHECK_NAME} on ${branch} from ${app.slug} (app id ${app.id})`,
        fix: null,
      };
    }
  }
  const anySource = agate.find((required) => required.appId === null);
  if (anySource) {
    return {
      check,
      status: "problem",
      summary: `${anySource.where} requires ${GATE_CHECK_NAME} on ${branch} from any source: a check run of that name from anyone (a workflow the pull request edits) would satisfy it`,
      fix: `pick ${app ? app.slug : "the agate App"} as the check's source there`,
    };
  }
  const other = agate[0];
  if (other) {
    return app
      ? {
          check,
          status: "problem",
          summary: `${other.where} requires ${GATE_CHECK_NAME} on ${branch} from app id ${other.appId}, not from ${app.slug} (app id ${app.id}): agate's own check never satisfies it`,
          fix: `pick ${app.slug} as the check's source there`,
        }
      : {
          check,
          status: "could-not-check",
          summary: `${other.where} requires ${GATE_CHECK_NAME} on ${branch} from app id ${other.appId}; whether that is agate is unknown without the App's name`,
          fix: "name the App: --app SLUG",
        };
  }
  // One of the two could not be read, and it may hold the requirement.
  if (unread.length > 0) {
    return {
      check,
      status: "could-not-check",
      summary: `no required ${GATE_CHECK_NAME} check seen on ${branch}, and ${unread.join("; ")}`,
      fix: null,
    };
  }
  return {
    check,
    status: "problem",
    summary: `no ruleset or branch protection requires ${GATE_CHECK_NAME} on ${branch}: pull requests can merge whatever agate decides`,
    fix: howTo,
  };
}
