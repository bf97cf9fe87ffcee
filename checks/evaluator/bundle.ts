import type { CommandResult } from "../../schemas/command-record.js";
import {
  type BundleCommand,
  type BundleFile,
  type BundleTrace,
  EVALUATOR_PROMPT_VERSION,
  type EvaluationBundle,
} from "../../schemas/evaluation.js";
import type { TraceFact } from "../../schemas/gate.js";
import { quoteName } from "./untrusted.js";

/**
 * Tokens are estimated as characters / 3: real tokenisers give about 4 characters a token for
 * English and 3 to 3.5 for code, so this over-counts and a budget computed with it holds.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/** Room kept for the evaluator's fixed instructions and the fences around each section. */
export const PROMPT_OVERHEAD_TOKENS = 1_500;

/**
 * What the prompt adds around each text that has a fence of its own (a patch shown, an issue, a
 * command's output): the tags with a 32-digit boundary and a label, about 130 characters.
 */
export const FENCE_TOKENS = 45;

/** Closing keywords and plain references in a pull request's text: `Fixes #12`, `#7`, `owner/repo#3`. */
export function referencedIssues(text: string, repository: string, limit = 5): number[] {
  const numbers: number[] = [];
  const closing: number[] = [];
  const pattern = /(?:^|[^\w/#])(?:([\w.-]+\/[\w.-]+))?#(\d+)\b/g;
  const keyword = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s*$/i;
  for (const match of text.matchAll(pattern)) {
    const [, repo, digits] = match;
    if (repo && repo.toLowerCase() !== repository.toLowerCase()) continue;
    const number = Number(digits);
    if (!Number.isSafeInteger(number) || number <= 0) continue;
    const before = text.slice(Math.max(0, match.index - 20), match.index + 1);
    (keyword.test(before) ? closing : numbers).push(number);
  }
  // Issues it closes come first: they are the task; plain mentions are context.
  return [...new Set([...closing, ...numbers])].slice(0, limit);
}

export interface DiffFileInput {
  filename: string;
  previous_filename: string | null;
  status: string;
  additions: number;
  deletions: number;
  /** null: GitHub gave no patch (binary, or too large for its diff). */
  patch: string | null;
}

export interface BundleInput {
  repository: string;
  pullNumber: number;
  baseSha: string;
  headSha: string;
  treeSha: string;
  title: string;
  body: string;
  issues: { number: number; title: string; body: string }[];
  instructions: { path: string; text: string }[];
  rubric: string;
  minScore: number;
  /** Files with patches as compare base...head reported them. */
  files: DiffFileInput[];
  /** Changed files GitHub's compare did not list (it stops at 300), names only. */
  unlisted: { filename: string; status: string }[];
  /** The believed record's commands, as `bundleCommands` keeps them. */
  commands: BundleCommand[];
  handoff: { path: string; text: string } | null;
  /** The agent-trace reports read beside the believed record, as `bundleTrace` cuts them. */
  trace?: BundleTrace | null;
  tokenLimit: number;
}

/** Traces and findings per trace the evaluator is shown; the rest are counted. */
export const BUNDLE_TRACES = 5;
export const BUNDLE_FINDINGS = 10;
const TRACE_TEXT_CHARS = 300;

/**
 * The trace reports as the evaluator sees them: whether each was found busy without progress,
 * its flagged segments (step ranges, why, and a short excerpt of what repeated) and its budgets. Only read traces are listed with
 * findings; an unreadable one says why, so the evaluator knows it was not shown.
 */
export function bundleTrace(trace: TraceFact | null | undefined): BundleTrace | null {
  if (!trace?.traces) return null;
  const cut = (text: string) =>
    text.length > TRACE_TEXT_CHARS ? `${text.slice(0, TRACE_TEXT_CHARS)}…` : text;
  return {
    run_id: trace.run_id,
    run_attempt: trace.run_attempt,
    traces: trace.traces.slice(0, BUNDLE_TRACES).map(({ source, report, error }) => ({
      source: cut(source),
      format: report?.format ?? null,
      steps: report?.steps ?? 0,
      stalled: report?.stalled ?? false,
      findings: (report?.findings ?? []).slice(0, BUNDLE_FINDINGS).map((f) => ({
        kind: f.kind,
        from_step: f.from_step,
        to_step: f.to_step,
        why: cut(f.why),
        excerpt: f.excerpt === null ? null : cut(f.excerpt),
      })),
      findings_not_listed: report
        ? report.findings_not_listed + Math.max(0, report.findings.length - BUNDLE_FINDINGS)
        : 0,
      budgets: report?.budgets ?? null,
      error: error === null ? null : cut(error),
    })),
  };
}

const GENERATED =
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock|go\.sum|composer\.lock|Gemfile\.lock)$|(^|\/)(dist|vendor|node_modules|build)\/|\.min\.(js|css)$|\.snap$|\.map$/;

/** Shares of the token limit that each part may take at most; the diff gets what is left. */
const SHARE = {
  title: 0.02,
  body: 0.12,
  issue: 0.06,
  instructions: 0.08,
  commands: 0.08,
  tail: 0.02,
  handoff: 0.08,
  rubric: 0.04,
  file: 0.25,
} as const;

/**
 * Builds what the evaluator is shown, within the token limit. Texts are cut at shares of the
 * limit (their ends kept where ends matter, such as output tails); the diff keeps whole files,
 * cheapest and hand-written first, and names what it left out and why.
 */
export function buildBundle(input: BundleInput): EvaluationBundle {
  const limit = input.tokenLimit;
  const cuts: string[] = [];
  const cap = (text: string, share: number, what: string, keep: "head" | "tail" = "head") => {
    const max = Math.max(200, Math.floor(limit * share * 3));
    if (text.length <= max) return text;
    cuts.push(`${what} cut to ${max} of ${text.length} characters`);
    return keep === "head"
      ? `${text.slice(0, max)}\n[… cut by agate: ${text.length - max} more characters]`
      : `[… cut by agate: ${text.length - max} earlier characters]\n${text.slice(-max)}`;
  };

  const bundle: EvaluationBundle = {
    prompt_version: EVALUATOR_PROMPT_VERSION,
    repository: input.repository,
    pull_number: input.pullNumber,
    base_sha: input.baseSha,
    head_sha: input.headSha,
    tree_sha: input.treeSha,
    task: {
      title: cap(input.title, SHARE.title, "the pull request title"),
      body: cap(input.body, SHARE.body, "the pull request body"),
      issues: input.issues.map((issue) => ({
        number: issue.number,
        title: cap(issue.title, SHARE.title, `issue #${issue.number}'s title`),
        body: cap(issue.body, SHARE.issue, `issue #${issue.number}'s body`),
      })),
    },
    instructions: input.instructions.map((file) => ({
      path: file.path,
      text: cap(file.text, SHARE.instructions, quoteName(file.path)),
    })),
    rubric: cap(input.rubric, SHARE.rubric, "the rubric"),
    min_score: input.minScore,
    diff: {
      files: [],
      total_files: input.files.length + input.unlisted.length,
      total_additions: input.files.reduce((sum, f) => sum + f.additions, 0),
      total_deletions: input.files.reduce((sum, f) => sum + f.deletions, 0),
    },
    commands: capCommands(input.commands, limit, cuts),
    handoff: input.handoff
      ? {
          path: input.handoff.path,
          text: cap(
            input.handoff.text,
            SHARE.handoff,
            `the handoff file ${quoteName(input.handoff.path)}`,
          ),
        }
      : null,
    agent_trace: input.trace ?? null,
    budget: { token_limit: limit, estimated_tokens: 0, cuts },
    previous_attempt: null,
  };

  const fences =
    (bundle.task.issues.length +
      bundle.commands.length +
      (bundle.agent_trace?.traces.length ?? 0)) *
    FENCE_TOKENS;
  const fixed = estimateTokens(JSON.stringify(bundle)) + PROMPT_OVERHEAD_TOKENS + fences;
  bundle.diff.files = fitDiff(input, limit - fixed, Math.floor(limit * SHARE.file), cuts);
  const patches = bundle.diff.files.filter((file) => file.patch !== null).length;
  bundle.budget.estimated_tokens =
    estimateTokens(JSON.stringify(bundle)) +
    PROMPT_OVERHEAD_TOKENS +
    fences +
    patches * FENCE_TOKENS;
  return bundle;
}

/** The most characters of one command's output tail the bundle shows (SHARE.commands, SHARE.tail). */
function tailRoom(limit: number, count: number): number {
  return Math.min(
    Math.floor(limit * SHARE.tail * 3),
    Math.floor(Math.floor(limit * SHARE.commands * 3) / Math.max(1, count)),
  );
}

/**
 * A record's commands as the evaluator job carries them (schemas/jobs/gate.ts): each output tail
 * cut to one character more than the bundle shows under `limit`, so the job's payload stays small
 * and the bundle still says it cut the tail; what the evaluator sees does not change.
 */
export function bundleCommands(commands: readonly CommandResult[], limit: number): BundleCommand[] {
  const keep = tailRoom(limit, commands.length) + 1;
  return commands.map((c) => ({
    name: c.name,
    run: c.run,
    exit_code: c.exit_code,
    tail: c.output.tail.length > keep ? c.output.tail.slice(-keep) : c.output.tail,
  }));
}

function capCommands(commands: BundleCommand[], limit: number, cuts: string[]) {
  const each = tailRoom(limit, commands.length);
  return commands.map((c) => {
    if (c.tail.length > each) {
      cuts.push(`the output tail of ${quoteName(c.name)} cut to its last ${each} characters`);
    }
    return { ...c, tail: c.tail.length > each ? c.tail.slice(-each) : c.tail };
  });
}

const entryCost = (file: BundleFile) => estimateTokens(JSON.stringify(file)) + 1;

/**
 * Whole files only: a half patch misleads more than a missing one. Hand-written files before
 * lock files and generated output, and within each group the smallest first, so the most files
 * are shown whole; the list keeps GitHub's order. Names that do not fit are summarised by folder.
 */
function fitDiff(input: BundleInput, room: number, perFile: number, cuts: string[]): BundleFile[] {
  const all: (DiffFileInput & { order: number; listed: boolean })[] = [
    ...input.files.map((f, order) => ({ ...f, order, listed: true })),
    ...input.unlisted.map((f, i) => ({
      filename: f.filename,
      previous_filename: null,
      status: f.status,
      additions: 0,
      deletions: 0,
      patch: null,
      order: input.files.length + i,
      listed: false,
    })),
  ];
  const bare = (f: (typeof all)[number], omitted: string | null): BundleFile => ({
    filename: f.filename,
    previous_filename: f.previous_filename,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    patch: null,
    omitted,
  });

  // Names first, but at most a quarter of the room: a patch says more than a thousand names.
  // Then whole patches; then more names with whatever is left.
  const chosen = new Map<number, BundleFile>();
  let left = room;
  const name = (f: (typeof all)[number], budget: number) => {
    const reason = !f.listed
      ? "GitHub's compare lists at most 300 files; name only"
      : f.patch === null
        ? "GitHub gave no patch (binary or too large)"
        : "left out to keep within the token budget";
    const entry = bare(f, reason);
    const cost = entryCost(entry);
    if (cost > budget || cost > left) return false;
    chosen.set(f.order, entry);
    left -= cost;
    return true;
  };
  let namesBudget = Math.floor(room / 4);
  for (const f of all) {
    const before = left;
    if (!name(f, namesBudget)) break;
    namesBudget -= before - left;
  }
  const candidates = all
    .filter((f) => f.patch !== null && chosen.has(f.order))
    .sort(
      (a, b) =>
        Number(GENERATED.test(a.filename)) - Number(GENERATED.test(b.filename)) ||
        (a.patch?.length ?? 0) - (b.patch?.length ?? 0) ||
        a.order - b.order,
    );
  let tooLarge = 0;
  let noRoom = 0;
  for (const f of candidates) {
    const current = chosen.get(f.order);
    if (!current) continue;
    const whole: BundleFile = { ...current, patch: f.patch, omitted: null };
    // A patch shown gets a fence of its own in the prompt.
    const extra = entryCost(whole) - entryCost(current) + FENCE_TOKENS;
    if (entryCost(whole) > perFile) {
      chosen.set(f.order, {
        ...current,
        omitted: `patch over the per-file budget (${perFile} tokens)`,
      });
      tooLarge += 1;
      continue;
    }
    if (extra > left) {
      noRoom += 1;
      continue;
    }
    chosen.set(f.order, whole);
    left -= extra;
  }
  for (const f of all) if (!chosen.has(f.order)) name(f, left);
  const unnamed = all.filter((f) => !chosen.has(f.order)).map((f) => f.filename);
  if (tooLarge > 0)
    cuts.push(`${tooLarge} patches over the per-file budget of ${perFile} tokens left out`);
  if (noRoom > 0) cuts.push(`${noRoom} patches left out to keep within the token budget`);
  const unlisted = input.unlisted.length;
  if (unlisted > 0)
    cuts.push(`${unlisted} files beyond the 300 GitHub's compare lists are shown by name only`);
  if (unnamed.length > 0) cuts.push(`${unnamed.length} files not even named: ${byFolder(unnamed)}`);
  return [...chosen.entries()].sort((a, b) => a[0] - b[0]).map(([, file]) => file);
}

/** `"src/" (3000), "test/" (1200)`: what a list too long to name is made of; names as JSON strings. */
function byFolder(paths: string[]): string {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const slash = path.indexOf("/");
    const folder = slash === -1 ? "(root)" : `${path.slice(0, slash)}/`;
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const shown = sorted
    .slice(0, 8)
    .map(([folder, n]) => `${folder === "(root)" ? folder : quoteName(folder)} (${n})`);
  if (sorted.length > 8) shown.push(`${sorted.length - 8} more folders`);
  return shown.join(", ");
}
