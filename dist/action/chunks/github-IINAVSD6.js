import { createRequire as __agateCreateRequire } from 'node:module';
const require = __agateCreateRequire(import.meta.url);
import {
  Octokit,
  legacyRestEndpointMethods,
  paginateRest,
  requestLog
} from "./chunk-NWZ5ERG4.js";
import {
  AGATE_VERSION
} from "./chunk-IB6QXWIS.js";
import "./chunk-FBXJFVTN.js";

// github/call.ts
var GitHubCalls = class {
  byOperation = /* @__PURE__ */ new Map();
  count = (operation) => {
    this.byOperation.set(operation, (this.byOperation.get(operation) ?? 0) + 1);
  };
  get total() {
    return [...this.byOperation.values()].reduce((a, b) => a + b, 0);
  }
};
function repoOf(client, owner, repo, calls = new GitHubCalls()) {
  return { client, owner, repo, count: calls.count };
}
var at = (r) => ({ owner: r.owner, repo: r.repo });
var statusOf = (error) => error.status;

// node_modules/@octokit/rest/dist-src/version.js
var VERSION = "22.0.1";

// node_modules/@octokit/rest/dist-src/index.js
var Octokit2 = Octokit.plugin(requestLog, legacyRestEndpointMethods, paginateRest).defaults(
  {
    userAgent: `octokit-rest.js/${VERSION}`
  }
);

// github/client.ts
var SILENT_OCTOKIT_LOG = {
  debug() {
  },
  info() {
  },
  warn() {
  },
  error() {
  }
};
function tokenClient(token, baseUrl, program = "cli") {
  return new Octokit2({
    ...token ? { auth: token } : {},
    baseUrl,
    userAgent: `agate-${program}/${AGATE_VERSION}`,
    log: SILENT_OCTOKIT_LOG
  });
}

// checks/github-answers.ts
function isRateLimited(error) {
  const { status, response, message } = error ?? {};
  if (status === 429) return true;
  if (status !== 403) return false;
  const headers = response?.headers ?? {};
  return headers["retry-after"] !== void 0 || String(headers["x-ratelimit-remaining"]) === "0" || /\b(secondary rate limit|rate limit exceeded)\b/i.test(message ?? "");
}
function tooLargeForContents(file) {
  return file.encoding === "none" || file.content === "" && file.size > 0;
}
function noAnswer(error) {
  const { name, status, response, message, request } = error ?? {};
  if (status !== 500 || response !== void 0) return null;
  if (name !== "HttpError" && name !== "AbortError") return null;
  return { host: hostOf(request?.url), reason: message || "no answer" };
}
function hostOf(url) {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

// github/repos.ts
async function repository(r) {
  r.count("repos/get");
  return (await r.client.rest.repos.get(at(r))).data;
}

// github/contents.ts
async function fileOrWhyNot(r, path, ref) {
  const where = { ...at(r), path, ...ref ? { ref } : {} };
  r.count("repos/get-content");
  try {
    const { data } = await r.client.rest.repos.getContent(where);
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return "not-a-file";
    if (!tooLargeForContents(data)) {
      return { text: Buffer.from(data.content, "base64").toString("utf8"), blobSha: data.sha };
    }
    r.count("repos/get-content");
    const raw = await r.client.rest.repos.getContent({ ...where, mediaType: { format: "raw" } });
    const body = raw.data;
    const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
    return { text, blobSha: data.sha };
  } catch (error) {
    if (statusOf(error) === 404) return "absent";
    throw error;
  }
}
function failureOf(error) {
  const { status, message } = error;
  return {
    ok: false,
    status: isRateLimited(error) ? "rate-limited" : noAnswer(error) ? null : status ?? null,
    message: message ?? String(error),
    error
  };
}
async function fileOfRepository(r, other, path, sha) {
  r.count("repos/get-content");
  try {
    const { data } = await r.client.rest.repos.getContent({ ...at(other), path, ref: sha });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
      return { ok: false, status: "not-a-file", message: "not a file" };
    }
    if (tooLargeForContents(data)) {
      return {
        ok: false,
        status: "too-large",
        message: `${data.size} bytes, over the 1 MB GitHub's contents API serves`
      };
    }
    return { ok: true, text: Buffer.from(data.content, "base64").toString("utf8") };
  } catch (error) {
    return failureOf(error);
  }
}
async function defaultBranchComparison(r, other, sha) {
  let defaultBranch;
  let branchSha;
  try {
    defaultBranch = (await repository({ ...r, ...at(other) })).default_branch;
    r.count("repos/get-branch");
    ({
      data: {
        commit: { sha: branchSha }
      }
    } = await r.client.rest.repos.getBranch({ ...at(other), branch: defaultBranch }));
  } catch (error) {
    return failureOf(error);
  }
  r.count("repos/compare-commits");
  try {
    const { data } = await r.client.rest.repos.compareCommitsWithBasehead({
      ...at(other),
      basehead: `${branchSha}...${sha}`,
      per_page: 1
    });
    return { ok: true, compared: { defaultBranch, status: data.status } };
  } catch (error) {
    const failure = failureOf(error);
    if (failure.status === 404) return { ok: true, compared: { defaultBranch, status: null } };
    return { ...failure, inCompare: true };
  }
}

// action/github.ts
var ActionGitHub = class {
  r;
  constructor(token, owner, repo, baseUrl = "https://api.github.com") {
    this.r = repoOf(tokenClient(token, baseUrl, "action"), owner, repo);
  }
  /** The file's text at the commit; null when it is not there. Read raw over 1 MB. */
  async readFileAtCommit(sha, path) {
    const read = await fileOrWhyNot(this.r, path, sha);
    if (read === "not-a-file") throw new Error(`${path} at ${sha} is not a file`);
    return read === "absent" ? null : read.text;
  }
};
function repoFor(options) {
  const client = tokenClient(options.token, options.baseUrl || "https://api.github.com", "action");
  return repoOf(client, options.owner, options.repo);
}
var answered = ({ ok, status, message }) => ({ ok, status, message });
async function readRepositoryFile(options) {
  const r = repoFor(options);
  const read = await fileOfRepository(r, r, options.path, options.sha);
  return read.ok ? read : answered(read);
}
async function compareWithDefaultBranch(options) {
  const r = repoFor(options);
  const compared = await defaultBranchComparison(r, r, options.sha);
  return compared.ok ? compared : answered(compared);
}
export {
  ActionGitHub,
  compareWithDefaultBranch,
  readRepositoryFile
};
