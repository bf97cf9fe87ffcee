import { createRequire as __agateCreateRequire } from 'node:module';
const require = __agateCreateRequire(import.meta.url);
import {
  AGATE_VERSION
} from "./chunk-IB6QXWIS.js";
import {
  Octokit,
  legacyRestEndpointMethods,
  paginateRest,
  requestLog
} from "./chunk-U3DQVQKE.js";
import "./chunk-FBXJFVTN.js";

// ../main/node_modules/@octokit/rest/dist-src/version.js
var VERSION = "22.0.1";

// ../main/node_modules/@octokit/rest/dist-src/index.js
var Octokit2 = Octokit.plugin(requestLog, legacyRestEndpointMethods, paginateRest).defaults(
  {
    userAgent: `octokit-rest.js/${VERSION}`
  }
);

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

// action/github.ts
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
var ActionGitHub = class {
  constructor(token, owner, repo, baseUrl = "https://api.github.com") {
    this.owner = owner;
    this.repo = repo;
    this.octokit = new Octokit2({
      auth: token,
      baseUrl,
      userAgent: `agate-action/${AGATE_VERSION}`,
      log: SILENT_OCTOKIT_LOG
    });
  }
  owner;
  repo;
  octokit;
  async readFileAtCommit(sha, path) {
    try {
      const { data } = await this.octokit.rest.repos.getContent({
        owner: this.owner,
        repo: this.repo,
        path,
        ref: sha
      });
      if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
        throw new Error(`${path} at ${sha} is not a file`);
      }
      return Buffer.from(data.content, "base64").toString("utf8");
    } catch (error) {
      if (error.status === 404) return null;
      throw error;
    }
  }
};
function clientFor(options) {
  return new Octokit2({
    ...options.token ? { auth: options.token } : {},
    baseUrl: options.baseUrl || "https://api.github.com",
    userAgent: `agate-action/${AGATE_VERSION}`,
    log: SILENT_OCTOKIT_LOG
  });
}
function failureOf(error) {
  const { status, message } = error;
  return {
    ok: false,
    // Octokit gives a request that got no answer status 500: it is no status of GitHub's.
    status: isRateLimited(error) ? "rate-limited" : noAnswer(error) ? null : status ?? null,
    message: message ?? String(error)
  };
}
async function readRepositoryFile(options) {
  try {
    const { data } = await clientFor(options).rest.repos.getContent({
      owner: options.owner,
      repo: options.repo,
      path: options.path,
      ref: options.sha
    });
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
async function compareWithDefaultBranch(options) {
  const octokit = clientFor(options);
  let defaultBranch;
  try {
    ({
      data: { default_branch: defaultBranch }
    } = await octokit.rest.repos.get({ owner: options.owner, repo: options.repo }));
  } catch (error) {
    return failureOf(error);
  }
  let branchSha;
  try {
    ({
      data: {
        commit: { sha: branchSha }
      }
    } = await octokit.rest.repos.getBranch({
      owner: options.owner,
      repo: options.repo,
      branch: defaultBranch
    }));
  } catch (error) {
    return failureOf(error);
  }
  try {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      owner: options.owner,
      repo: options.repo,
      basehead: `${branchSha}...${options.sha}`,
      per_page: 1
    });
    return { ok: true, compared: { defaultBranch, status: data.status } };
  } catch (error) {
    const failure = failureOf(error);
    if (failure.status === 404) return { ok: true, compared: { defaultBranch, status: null } };
    return failure;
  }
}
export {
  ActionGitHub,
  SILENT_OCTOKIT_LOG,
  compareWithDefaultBranch,
  readRepositoryFile
};
