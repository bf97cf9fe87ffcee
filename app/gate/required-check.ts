/**
 * Whether the pull request's base branch requires the `agate` check from this App, read through
 * the adapter and judged by checks/setup/required-check.ts. A gate nobody requires blocks
 * nothing, and one required from any source is satisfied by a check run the pull request's own
 * workflow makes: the summary says so. Rules change rarely and concern every pull request of a
 * repository, so a reading is reused for `ttlMs` (per repository and branch per ten minutes, not
 * per pass: one call when a ruleset requires agate from this App, else two). It never changes the
 * decision's state; whether a passing conclusion may be written on a base depends on it
 * (checks/gate/base-requirement.ts), and on the default branch's reading when the base requires
 * agate from nobody.
 */
import { codeSpan } from "../../checks/markdown.js";
import {
  checksFromBranch,
  checksFromRules,
  gateRequirement,
  gateRequirementFinding,
  type Read,
  type RequiredCheck,
} from "../../checks/setup/required-check.js";
import type { SetupFact } from "../../schemas/gate.js";
import type { GitHubAdapter } from "../github/adapter.js";
import { remember } from "../kit/bounded-map.js";

export const REQUIRED_CHECK_TTL_MS = 10 * 60_000;
const READINGS_KEPT = 2_000;

export interface RequiredCheckReaderOptions {
  /** This App's id and slug; null: which App a requirement names cannot be judged. */
  app: () => Promise<{ id: number; slug: string } | null>;
  now: () => Date;
  ttlMs?: number;
}

export class RequiredCheckReader {
  private readonly readings = new Map<string, Promise<SetupFact>>();
  private readonly defaults = new Map<string, Promise<{ name: string; at: number }>>();

  constructor(private readonly options: RequiredCheckReaderOptions) {}

  /**
   * The repository's default branch, read at most once per repository every `ttlMs` (it is
   * renamed rarely, and only by an admin): one call when read.
   */
  async defaultBranch(
    github: Pick<GitHubAdapter, "defaultBranchName">,
    repository: string,
  ): Promise<string> {
    const ttl = this.options.ttlMs ?? REQUIRED_CHECK_TTL_MS;
    const held = this.defaults.get(repository);
    if (held) {
      const known = await held.catch(() => null);
      if (known && this.options.now().getTime() - known.at < ttl) return known.name;
    }
    const at = this.options.now().getTime();
    const reading = github.defaultBranchName().then((name) => ({ name, at }));
    // A failed read is not kept: the next pass reads again.
    reading.catch(() => this.defaults.delete(repository));
    remember(this.defaults, repository, reading, READINGS_KEPT);
    return (await reading).name;
  }

  async read(
    github: Pick<GitHubAdapter, "branchRules" | "branchProtection">,
    repository: string,
    branch: string,
  ): Promise<SetupFact> {
    const key = `${repository}\n${branch}`;
    const ttl = this.options.ttlMs ?? REQUIRED_CHECK_TTL_MS;
    const held = this.readings.get(key);
    if (held) {
      const fact = await held.catch(() => null);
      if (fact && this.options.now().getTime() - Date.parse(fact.read_at) < ttl) return fact;
    }
    const reading = this.readFresh(github, repository, branch);
    remember(this.readings, key, reading, READINGS_KEPT);
    return reading;
  }

  private async readFresh(
    github: Pick<GitHubAdapter, "branchRules" | "branchProtection">,
    repository: string,
    branch: string,
  ): Promise<SetupFact> {
    const read_at = this.options.now().toISOString();
    // The branch is the base's name, which someone else chose: a code span in every sentence.
    const label = codeSpan(branch, 100);
    let mergeQueue: boolean | null = null;
    const [rules, app] = await Promise.all([
      attempt(`the rules on ${label}`, async () => {
        const read = checksFromRules(await github.branchRules(branch), repository);
        mergeQueue = read.mergeQueue;
        return { ok: true as const, value: read.checks };
      }),
      this.options.app().catch(() => null),
    ]);
    // A ruleset that requires agate from this App settles it (what README's step 4 sets up):
    // whatever branch protection adds, merging needs this App's check. Only otherwise is
    // branch protection read.
    const settled =
      rules.ok &&
      gateRequirementFinding({
        branch: label,
        rules,
        protection: { ok: true, value: [] },
        app,
      });
    const protection: Read<RequiredCheck[]> =
      settled && settled.status === "ok"
        ? { ok: true, value: [] }
        : await attempt(`branch ${label}`, async () =>
            checksFromBranch(await github.branchProtection(branch)),
          );
    const finding = gateRequirementFinding({ branch: label, rules, protection, app });
    return {
      branch,
      status: finding.status,
      summary: finding.summary,
      fix: finding.fix,
      requires: gateRequirement({ rules, protection, app }),
      merge_queue: mergeQueue,
      read_at,
    };
  }
}

/** A read that failed becomes the reason its part could not be checked. */
async function attempt(
  what: string,
  read: () => Promise<Read<RequiredCheck[]>>,
): Promise<Read<RequiredCheck[]>> {
  try {
    return await read();
  } catch (error) {
    const { status, message } = error as { status?: number; message?: string };
    return {
      ok: false,
      reason: `cannot read ${what}: ${status ? `GitHub answered ${status}` : (message ?? String(error))}`,
    };
  }
}
