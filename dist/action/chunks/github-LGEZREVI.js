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
} from "./chunk-NWZ5ERG4.js";
import "./chunk-FBXJFVTN.js";

// node_modules/@octokit/rest/dist-src/version.js
var VERSION = "22.0.1";

// node_modules/@octokit/rest/dist-src/index.js
var Octokit2 = Octokit.plugin(requestLog, legacyRestEndpointMethods, paginateRest).defaults(
  {
    userAgent: `octokit-rest.js/${VERSION}`
  }
);

// action/github.ts
var ActionGitHub = class {
  constructor(token, owner, repo, baseUrl = "https://api.github.com") {
    this.owner = owner;
    this.repo = repo;
    this.octokit = new Octokit2({
      auth: token,
      baseUrl,
      userAgent: `agate-action/${AGATE_VERSION}`
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
async function readRepositoryFile(options) {
  const octokit = new Octokit2({
    ...options.token ? { auth: options.token } : {},
    baseUrl: options.baseUrl || "https://api.github.com",
    userAgent: `agate-action/${AGATE_VERSION}`
  });
  try {
    const { data } = await octokit.rest.repos.getContent({
      owner: options.owner,
      repo: options.repo,
      path: options.path,
      ref: options.sha
    });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) {
      return { ok: false, status: "not-a-file", message: "not a file" };
    }
    return { ok: true, text: Buffer.from(data.content, "base64").toString("utf8") };
  } catch (error) {
    const { status, message } = error;
    return { ok: false, status: status ?? null, message: message ?? String(error) };
  }
}
export {
  ActionGitHub,
  readRepositoryFile
};
