import type { ExtendsRef } from "../../checks/config/extends.js";
import { configExtends } from "../../checks/config/parse-config.js";
import { ConfigurationError } from "../../checks/errors.js";
import { noAnswer, noAnswerText } from "../../checks/github-answers.js";
import {
  type AppFacts,
  type DoctorFacts,
  evidenceWorkflowPath,
  type InstallationFacts,
  type Read,
  type RequiredCheck,
} from "../../checks/setup/doctor.js";
import { checksFromBranch, checksFromRules } from "../../checks/setup/required-check.js";
import * as apps from "../../github/apps.js";
import { type Repo, repoOf } from "../../github/call.js";
import { tokenClient } from "../../github/client.js";
import { fileOrWhyNot } from "../../github/contents.js";
import * as repos from "../../github/repos.js";
import { CONFIG_PATH } from "../../schemas/config.js";
import {
  type DefaultsRead,
  defaultsReader,
  type ReadDefaults,
  TOKEN_ADVICE,
} from "../config-defaults.js";

/** The repository itself cannot be read: nothing else can be checked (exit 2). */
export class DoctorAccessError extends Error {
  override readonly name = "DoctorAccessError";
}

interface HttpFailure {
  status?: number;
  message?: string;
}

/**
 * `doctor`'s reads, with a token that may see little: each read that fails becomes the reason a
 * finding could not be checked, in words that say what the token lacked. Reads only; the doctor
 * never writes to GitHub.
 */
export class DoctorGitHub {
  /** The repository, over a client whose log is silent: only the doctor's own output is shown. */
  private readonly r: Repo;

  constructor(
    token: string,
    private readonly owner: string,
    private readonly repo: string,
    baseUrl = "https://api.github.com",
  ) {
    this.r = repoOf(tokenClient(token, baseUrl), owner, repo);
    this.readDefaults = defaultsReader({ token, apiUrl: baseUrl, advice: TOKEN_ADVICE.cli });
  }

  private readonly readDefaults: ReadDefaults;

  /** The organisation defaults the config extends; null when it extends none (or is unparsable). */
  private async defaults(configText: string | null): Promise<DefaultsRead | null> {
    if (configText === null) return null;
    let ref: ExtendsRef | null;
    try {
      ref = configExtends(configText, CONFIG_PATH, this.owner);
    } catch (error) {
      if (error instanceof ConfigurationError) return null; // the config's own finding says why
      throw error;
    }
    if (!ref) return null;
    return this.readDefaults(ref);
  }

  async facts(appSlug: string | undefined): Promise<DoctorFacts> {
    const repository = `${this.owner}/${this.repo}`;
    let data: { default_branch: string; owner: { type: string } };
    try {
      data = await repos.repository(this.r);
    } catch (error) {
      const { status, message } = error as HttpFailure;
      const unreached = noAnswer(error);
      throw new DoctorAccessError(
        unreached
          ? `${noAnswerText(unreached)}; check --api-url (or GITHUB_API_URL) and the network`
          : status === 401
            ? `GitHub refused the token (401: ${message}): set GITHUB_TOKEN or GH_TOKEN to a valid token`
            : status === 404 || status === 403
              ? `${repository} is not visible to this token (${status}): check --repo, and that the token can read the repository`
              : `cannot read ${repository}: ${status ?? ""} ${message ?? String(error)}`.trim(),
      );
    }
    const branch = data.default_branch;
    const config = await this.file(CONFIG_PATH, branch);
    const defaults = await this.defaults(config.ok ? config.value : null);
    const workflowPath = evidenceWorkflowPath(config.ok ? config.value : null, {
      owner: this.owner,
      ...(defaults ? { defaults } : {}),
    });
    const app = appSlug === undefined ? null : await this.app(appSlug);
    return {
      repository,
      defaultBranch: branch,
      config,
      defaults,
      workflow: { path: workflowPath, text: await this.file(workflowPath, branch) },
      rules: await this.rules(branch),
      protection: await this.protection(branch),
      app,
      installation:
        app === null
          ? null
          : app.ok
            ? await this.installation(app.value, data.owner.type === "Organization")
            : { ok: false, reason: "the App could not be read, so neither can its installation" },
    };
  }

  private async file(path: string, ref: string): Promise<Read<string | null>> {
    try {
      const read = await fileOrWhyNot(this.r, path, ref);
      if (read === "not-a-file") return { ok: false, reason: `${path} on ${ref} is not a file` };
      return { ok: true, value: read === "absent" ? null : read.text };
    } catch (error) {
      return failed(`${path} on ${ref}`, error, "contents: read");
    }
  }

  private async rules(
    branch: string,
  ): Promise<Read<{ checks: RequiredCheck[]; mergeQueue: boolean }>> {
    try {
      const rules = await repos.branchRules(this.r, branch);
      return { ok: true, value: checksFromRules(rules, `${this.owner}/${this.repo}`) };
    } catch (error) {
      return failed(`the rules on ${branch}`, error, "metadata: read");
    }
  }

  private async protection(branch: string): Promise<Read<RequiredCheck[]>> {
    try {
      return checksFromBranch(await repos.branchProtection(this.r, branch));
    } catch (error) {
      return failed(`branch ${branch}`, error, "metadata: read");
    }
  }

  private async app(slug: string): Promise<Read<AppFacts>> {
    try {
      const data = await apps.appBySlug(this.r.client, slug);
      if (!data) return { ok: false, reason: `GitHub returned no App for ${slug}` };
      return {
        ok: true,
        value: {
          id: data.id,
          slug: data.slug ?? slug,
          permissions: stringValues(data.permissions),
          events: data.events,
        },
      };
    } catch (error) {
      if ((error as HttpFailure).status === 404) {
        return {
          ok: false,
          reason: `GitHub shows no App ${slug} to this token (a private App is shown only to its owner): check --app, or use a token of the App's owner`,
        };
      }
      return failed(`the App ${slug}`, error, "none");
    }
  }

  private async installation(
    app: AppFacts,
    ownedByOrganization: boolean,
  ): Promise<Read<InstallationFacts | null>> {
    if (!ownedByOrganization) {
      return {
        ok: false,
        reason: `GitHub lists a personal account's installations only to a user access token of an App, not to this token: see https://github.com/settings/installations`,
      };
    }
    try {
      const installations = await apps.organisationInstallations(this.r.client, this.owner);
      const found = installations.find((item) => item.app_id === app.id);
      if (!found) return { ok: true, value: null };
      return {
        ok: true,
        value: {
          permissions: stringValues(found.permissions),
          events: found.events,
          repositorySelection: found.repository_selection,
          suspended: found.suspended_at !== null,
        },
      };
    } catch (error) {
      const { status } = error as HttpFailure;
      if (status === 403 || status === 404) {
        return {
          ok: false,
          reason: `GitHub lists ${this.owner}'s installations only to an organisation owner's token (${status}): run the doctor with one to check the installation`,
        };
      }
      return failed(`${this.owner}'s installations`, error, "organisation owner");
    }
  }
}

function stringValues(record: object | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/** A read that failed, as the reason its finding could not be checked. */
function failed(what: string, error: unknown, needs: string): { ok: false; reason: string } {
  const { status, message } = error as HttpFailure;
  const unreached = noAnswer(error);
  if (unreached) return { ok: false, reason: `cannot read ${what}: ${noAnswerText(unreached)}` };
  if (status === 403 || status === 401) {
    return {
      ok: false,
      reason: `cannot read ${what}: GitHub answered ${status} (${message ?? "forbidden"})${needs === "none" ? "" : `; the token needs ${needs}`}`,
    };
  }
  return {
    ok: false,
    reason: `cannot read ${what}: ${status ? `GitHub answered ${status} (${message ?? ""})` : (error as Error).message}`,
  };
}
