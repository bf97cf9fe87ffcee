import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitHubAdapter, type GitHubClient } from "./adapter.js";

/**
 * The adapter's reads of another repository's file and of where a commit stands, against answers
 * the simulator cannot give: GitHub's rate limits (a 403 or 429 says nothing about access and must
 * be retried, never explained as "install the App") and a file over the contents API's 1 MB. A
 * real HTTP server and a real Octokit; only GitHub's answers are scripted.
 */
type Answer = { status: number; headers?: Record<string, string>; body: unknown };
const answers = new Map<string, Answer>();
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    // The raw media type is answered by its own script, as GitHub answers it with the bytes.
    const raw = /vnd\.github(\.v3)?\.raw/.test(req.headers.accept ?? "");
    const answer = answers.get(raw ? `${path}#raw` : path) ?? {
      status: 500,
      body: { message: `unscripted ${raw ? "raw " : ""}${path}` },
    };
    if (typeof answer.body === "string") {
      res.writeHead(answer.status, { "content-type": "application/vnd.github.raw" });
      res.end(answer.body);
      return;
    }
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const SHA = "0123456789abcdef0123456789abcdef01234567";
const CONTENT = `/repos/acme/.github/contents/agate.yml`;
const REPO = "/repos/acme/.github";
const BRANCH_SHA = "fedcba9876543210fedcba9876543210fedcba98";
const BRANCH = "/repos/acme/.github/branches/main";
const COMPARE = `/repos/acme/.github/compare/${BRANCH_SHA}...${SHA}`;

function adapter(): GitHubAdapter {
  const octokit = new Octokit({ auth: "token", baseUrl, request: { retries: 0 } });
  return new GitHubAdapter(octokit as unknown as GitHubClient, "acme/widgets", "agate");
}

const limited = {
  primary: {
    status: 403,
    headers: { "x-ratelimit-remaining": "0" },
    body: { message: "API rate limit exceeded" },
  },
  secondary: {
    status: 403,
    headers: { "retry-after": "60" },
    body: { message: "You have exceeded a secondary rate limit" },
  },
  tooMany: { status: 429, body: { message: "Too Many Requests" } },
  // GitHub documents secondary limits that carry neither header: only the message says so.
  bare: {
    status: 403,
    body: { message: "You have exceeded a secondary rate limit. Please wait a few minutes." },
  },
};

describe("fileOfRepository", () => {
  it("throws on a rate limit, so the job is retried, and returns a 403 about access", async () => {
    for (const answer of Object.values(limited)) {
      answers.set(CONTENT, answer);
      await expect(
        adapter().fileOfRepository("acme", ".github", "agate.yml", SHA),
      ).rejects.toMatchObject({
        status: answer.status,
      });
    }
    answers.set(CONTENT, {
      status: 403,
      body: { message: "Resource not accessible by integration" },
    });
    await expect(adapter().fileOfRepository("acme", ".github", "agate.yml", SHA)).resolves.toEqual({
      ok: false,
      status: 403,
      message: expect.stringContaining("Resource not accessible by integration"),
    });
  });

  it("a file over 1 MB (no content, encoding none) is 413, never an empty text", async () => {
    answers.set(CONTENT, {
      status: 200,
      body: {
        type: "file",
        name: "agate.yml",
        path: "agate.yml",
        size: 1_500_000,
        encoding: "none",
        content: "",
        sha: SHA,
      },
    });
    await expect(adapter().fileOfRepository("acme", ".github", "agate.yml", SHA)).resolves.toEqual({
      ok: false,
      status: 413,
      message: "1500000 bytes, over the 1 MB GitHub's contents API serves",
    });
  });
});

describe("defaultBranchComparison", () => {
  const compared = () => adapter().defaultBranchComparison("acme", ".github", SHA);
  /** The repository's default branch is main, at BRANCH_SHA. */
  const onMain = () => {
    answers.set(REPO, { status: 200, body: { default_branch: "main" } });
    answers.set(BRANCH, { status: 200, body: { name: "main", commit: { sha: BRANCH_SHA } } });
  };

  it("reads the default branch and its commit, then compares by that commit; 404 on the compare is no shared history", async () => {
    // By the branch's commit, never its name (a tag named main could stand in for it): an
    // unscripted path, such as main...SHA, is answered 500 here and fails the test.
    onMain();
    answers.set(COMPARE, { status: 200, body: { status: "behind" } });
    await expect(compared()).resolves.toEqual({
      ok: true,
      compared: { defaultBranch: "main", status: "behind" },
    });
    answers.set(COMPARE, { status: 404, body: { message: "No common ancestor" } });
    await expect(compared()).resolves.toEqual({
      ok: true,
      compared: { defaultBranch: "main", status: null },
    });
  });

  it("throws on a rate limit at either step; a 404 on the repository is an answer", async () => {
    onMain();
    answers.set(COMPARE, { ...limited.primary, status: 403 });
    await expect(compared()).rejects.toMatchObject({
      status: 403,
    });
    answers.set(REPO, limited.secondary);
    await expect(compared()).rejects.toMatchObject({
      status: 403,
    });
    answers.set(REPO, { status: 404, body: { message: "Not Found" } });
    await expect(compared()).resolves.toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it("a 403 about access on the compare itself is thrown, as before github/ was shared: only the repository's reads answer about access", async () => {
    const forbidden = { status: 403, body: { message: "Resource not accessible" } };
    onMain();
    answers.set(COMPARE, forbidden);
    await expect(compared()).rejects.toMatchObject({ status: 403 });
    answers.set(BRANCH, forbidden);
    await expect(compared()).resolves.toMatchObject({ ok: false, status: 403 });
  });
});

describe("a file of the repository itself over 1 MB", () => {
  it("is read again as raw, never as an empty text", async () => {
    const path = "/repos/acme/widgets/contents/AGENTS.md";
    const text = `${"agents read this\n".repeat(70_000)}`;
    answers.set(path, {
      status: 200,
      body: {
        type: "file",
        name: "AGENTS.md",
        path: "AGENTS.md",
        size: text.length,
        encoding: "none",
        content: "",
        sha: SHA,
      },
    });
    answers.set(`${path}#raw`, { status: 200, body: text });
    const github = adapter();
    await expect(github.fileAt("AGENTS.md", SHA)).resolves.toEqual({ text, blobSha: SHA });
    expect(github.calls.get("repos/get-content")).toBe(2);
    await expect(github.defaultBranchFile("AGENTS.md")).resolves.toEqual({ text, blobSha: SHA });
  });
});
