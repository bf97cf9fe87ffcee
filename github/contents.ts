/**
 * Files: of this repository at a commit or on its default branch, and of another repository of
 * the same account (the organisation defaults a config extends), with where such a commit stands
 * against that repository's default branch.
 */
import type { PinnedCommitComparison } from "../checks/config/extends.js";
import { isRateLimited, tooLargeForContents } from "../checks/github-answers.js";
import { at, type Repo, statusOf } from "./call.js";
import { repository } from "./repos.js";

export interface FileText {
  text: string;
  blobSha: string;
}

/** GitHub's answer about access (403, 404), for the caller to explain. */
export interface Refusal {
  ok: false;
  status: number;
  message: string;
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
 * A file of another repository of the account at an exact commit. 404 and 403 are answers (the
 * file is not there, or the client cannot see that repository), returned for the caller to
 * explain, and so is a file too large for the contents API (413); a rate limit, or anything else,
 * throws, so the job is retried.
 */
export async function fileOfRepository(
  r: Repo,
  other: { owner: string; repo: string },
  path: string,
  sha: string,
): Promise<{ ok: true; text: string } | Refusal> {
  r.count("repos/get-content");
  return answered(async () => {
    const { data } = await r.client.rest.repos.getContent({ ...other, path, ref: sha });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
      return { ok: false, status: 404, message: `${path} is not a file` };
    }
    // Over 1 MB the contents API sends no content: never an empty file.
    if (tooLargeForContents(data)) {
      return {
        ok: false,
        status: 413,
        message: `${data.size} bytes, over the 1 MB GitHub's contents API serves`,
      };
    }
    return { ok: true, text: Buffer.from(data.content, "base64").toString("utf8") };
  });
}

/**
 * Where a commit of another repository of the account stands against that repository's default
 * branch: GitHub's compare of `<the branch's commit>...<sha>`, its status null when GitHub finds
 * no shared history (404 on the compare). 403 and 404 on the repository are answers, as in
 * fileOfRepository; a rate limit, or anything else, throws.
 */
export async function defaultBranchComparison(
  r: Repo,
  other: { owner: string; repo: string },
  sha: string,
): Promise<{ ok: true; compared: PinnedCommitComparison } | Refusal> {
  const there: Repo = { ...r, ...other };
  const read = await answered(async () => {
    const defaultBranch = (await repository(there)).default_branch;
    // The branch's commit, not its name: a tag of the same name (anyone who can push to the
    // repository can make one) could stand in for the branch in the compare.
    there.count("repos/get-branch");
    const { data } = await r.client.rest.repos.getBranch({ ...other, branch: defaultBranch });
    return { ok: true as const, defaultBranch, branchSha: data.commit.sha };
  });
  if (!read.ok) return read;
  const { defaultBranch, branchSha } = read;
  r.count("repos/compare-commits");
  try {
    // One commit per page: only the status is read, and a fork's commit may be far ahead.
    const { data } = await r.client.rest.repos.compareCommitsWithBasehead({
      ...other,
      basehead: `${branchSha}...${sha}`,
      per_page: 1,
    });
    return { ok: true, compared: { defaultBranch, status: data.status } };
  } catch (error) {
    if (statusOf(error) === 404 && !isRateLimited(error)) {
      return { ok: true, compared: { defaultBranch, status: null } };
    }
    throw error;
  }
}

/**
 * `read()`, or GitHub's 403 or 404 as an answer about access for the caller to explain; a rate
 * limit (403 with retry-after or no requests left, or 429) and anything else is thrown.
 */
async function answered<T>(read: () => Promise<T>): Promise<T | Refusal> {
  try {
    return await read();
  } catch (error) {
    const status = statusOf(error);
    if ((status !== 404 && status !== 403) || isRateLimited(error)) throw error;
    return { ok: false, status, message: (error as Error).message };
  }
}
