import type { PinnedCommitComparison } from "../checks/config/extends.js";
import { repoOf } from "../github/call.js";
import { tokenClient } from "../github/client.js";
import {
  defaultBranchComparison,
  type Failure,
  fileOfRepository,
  fileOrWhyNot,
} from "../github/contents.js";

/**
 * The Action's one GitHub API call: reading the base config at a commit when git cannot fetch it
 * (a shallow checkout of a private repository without persisted credentials). It needs
 * `contents: read` and nothing else; the Action writes nothing through the API (the record
 * leaves the job as a workflow artifact, see upload.ts).
 */
export class ActionGitHub {
  private readonly r;

  constructor(token: string, owner: string, repo: string, baseUrl = "https://api.github.com") {
    this.r = repoOf(tokenClient(token, baseUrl, "action"), owner, repo);
  }

  /** The file's text at the commit; null when it is not there. Read raw over 1 MB. */
  async readFileAtCommit(sha: string, path: string): Promise<string | null> {
    const read = await fileOrWhyNot(this.r, path, sha);
    if (read === "not-a-file") throw new Error(`${path} at ${sha} is not a file`);
    return read === "absent" ? null : read.text;
  }
}

/** GitHub's status for the caller to explain; null for no answer, "rate-limited" for a limit. */
type Answered = Pick<Failure, "ok" | "status" | "message">;

export type RepositoryFileRead = { ok: true; text: string } | Answered;

export interface RepositoryReadOptions {
  token: string | undefined;
  baseUrl: string | undefined;
  owner: string;
  repo: string;
}

function repoFor(options: RepositoryReadOptions) {
  const client = tokenClient(options.token, options.baseUrl || "https://api.github.com", "action");
  return repoOf(client, options.owner, options.repo);
}

/** A failure as the Action and the CLI explain it: what GitHub answered, nothing thrown. */
const answered = ({ ok, status, message }: Failure): Answered => ({ ok, status, message });

/**
 * A file of any repository at an exact commit: the organisation defaults a config extends, in
 * the owner's `.github` repository. Without a token the request is anonymous (enough for a
 * public repository). Every failure is returned with GitHub's status, for a message to explain.
 */
export async function readRepositoryFile(
  options: RepositoryReadOptions & { path: string; sha: string },
): Promise<RepositoryFileRead> {
  const r = repoFor(options);
  const read = await fileOfRepository(r, r, options.path, options.sha);
  return read.ok ? read : answered(read);
}

/**
 * Where a commit stands against its repository's default branch: GitHub's compare of
 * `<the branch's commit>...<sha>`, its status null when GitHub finds no shared history (404 on the
 * compare). A failure to read the repository is returned with GitHub's status.
 */
export async function compareWithDefaultBranch(
  options: RepositoryReadOptions & { sha: string },
): Promise<{ ok: true; compared: PinnedCommitComparison } | Answered> {
  const r = repoFor(options);
  const compared = await defaultBranchComparison(r, r, options.sha);
  return compared.ok ? compared : answered(compared);
}
