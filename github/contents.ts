/**
 * Files: of this repository at a commit or on its default branch, and of another repository of
 * the same account (the organisation defaults a config extends), with where such a commit stands
 * against that repository's default branch.
 */
import type { PinnedCommitComparison } from "../checks/config/extends.js";
import { isRateLimited, noAnswer, tooLargeForContents } from "../checks/github-answers.js";
import { at, type Repo, statusOf } from "./call.js";
import { repository } from "./repos.js";

export interface FileText {
  text: string;
  blobSha: string;
}

/**
 * A file of the repository at `ref` (the default branch when absent); null when it is not there.
 * Over 1 MB the contents API sends no content ("encoding": "none"): the text is then read again
 * as raw, one call more, so a large file never reads as empty.
 */
export async function file(r: Repo, path: string, ref?: string): Promise<FileText | null> {
  const read = await fileOrWhyNot(r, path, ref);
  return typeof read === "string" ? null : read;
}

/** As `file`, saying why there is none: nothing at that path, or something that is not a file. */
export async function fileOrWhyNot(
  r: Repo,
  path: string,
  ref?: string,
): Promise<FileText | "absent" | "not-a-file"> {
  const where = { ...at(r), path, ...(ref ? { ref } : {}) };
  r.count("repos/get-content");
  try {
    const { data } = await r.client.rest.repos.getContent(where);
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return "not-a-file";
    if (!tooLargeForContents(data)) {
      return { text: Buffer.from(data.content, "base64").toString("utf8"), blobSha: data.sha };
    }
    r.count("repos/get-content");
    const raw = await r.client.rest.repos.getContent({ ...where, mediaType: { format: "raw" } });
    // Octokit hands a body that is not JSON or text/* over as bytes.
    const body = raw.data as unknown;
    const text =
      typeof body === "string" ? body : Buffer.from(body as ArrayBuffer).toString("utf8");
    return { text, blobSha: data.sha };
  } catch (error) {
    if (statusOf(error) === 404) return "absent";
    throw error;
  }
}

/**
 * Every way a read of another repository can fail, for the caller to explain or throw: GitHub's
 * status, "rate-limited" (a rate limit says nothing about access: read again later), null when
 * no answer came (Octokit reports that as 500, no status of GitHub's), or what the contents API
 * answered that is no file's text. `error` is what was thrown, for a caller that throws it on.
 */
export interface Failure {
  ok: false;
  status: number | "rate-limited" | "not-a-file" | "too-large" | null;
  message: string;
  error?: unknown;
  /** The compare failed, not the read of the repository or its branch. */
  inCompare?: true;
}

function failureOf(error: unknown): Failure {
  const { status, message } = error as { status?: number; message?: string };
  return {
    ok: false,
    status: isRateLimited(error) ? "rate-limited" : noAnswer(error) ? null : (status ?? null),
    message: message ?? String(error),
    error,
  };
}

/**
 * A file of another repository of the account at an exact commit: the organisation defaults a
 * config extends, in the owner's `.github` repository. Every failure is returned.
 */
export async function fileOfRepository(
  r: Repo,
  other: { owner: string; repo: string },
  path: string,
  sha: string,
): Promise<{ ok: true; text: string } | Failure> {
  r.count("repos/get-content");
  try {
    const { data } = await r.client.rest.repos.getContent({ ...at(other), path, ref: sha });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
      return { ok: false, status: "not-a-file", message: "not a file" };
    }
    // Over 1 MB the contents API sends no content: never an empty file.
    if (tooLargeForContents(data)) {
      return {
        ok: false,
        status: "too-large",
        message: `${data.size} bytes, over the 1 MB GitHub's contents API serves`,
      };
    }
    return { ok: true, text: Buffer.from(data.content, "base64").toString("utf8") };
  } catch (error) {
    return failureOf(error);
  }
}

/**
 * Where a commit of another repository of the account stands against that repository's default
 * branch: GitHub's compare of `<the branch's commit>...<sha>`, its status null when GitHub finds
 * no shared history (404 on the compare). Every failure to read the repository is returned.
 */
export async function defaultBranchComparison(
  r: Repo,
  other: { owner: string; repo: string },
  sha: string,
): Promise<{ ok: true; compared: PinnedCommitComparison } | Failure> {
  let defaultBranch: string;
  let branchSha: string;
  try {
    defaultBranch = (await repository({ ...r, ...at(other) })).default_branch;
    // The branch's commit, not its name: a tag of the same name (anyone who can push to the
    // repository can make one) could stand in for the branch in the compare.
    r.count("repos/get-branch");
    ({
      data: {
        commit: { sha: branchSha },
      },
    } = await r.client.rest.repos.getBranch({ ...at(other), branch: defaultBranch }));
  } catch (error) {
    return failureOf(error);
  }
  r.count("repos/compare-commits");
  try {
    // One commit per page: only the status is read, and a fork's commit may be far ahead.
    const { data } = await r.client.rest.repos.compareCommitsWithBasehead({
      ...at(other),
      basehead: `${branchSha}...${sha}`,
      per_page: 1,
    });
    return { ok: true, compared: { defaultBranch, status: data.status } };
  } catch (error) {
    const failure = failureOf(error);
    if (failure.status === 404) return { ok: true, compared: { defaultBranch, status: null } };
    return { ...failure, inCompare: true };
  }
}
