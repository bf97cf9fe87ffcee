// Workflow artifacts end to end: the real @actions/artifact client uploads through the runtime
// token, the results service and blob storage; the App's side reads them back over the REST API
// (validated against GitHub's OpenAPI description) and downloads the exact zip.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { resultsService } from "./artifact-upload.js";
import { resultsScope } from "./artifacts.js";
import { tokenClient } from "./clients.js";
import { runArtifactClient } from "./real-artifact-client.js";
import { useSimulator } from "./use-simulator.js";

const repo = "art";
const NAME = "agate-command-record-attempt-1";
let head: string;
const { sim } = useSimulator({
  seed: async (sim) => {
    ({ headSha: head } = await sim.createRepository({ repo }));
  },
});
const temp = mkdtempSync(join(tmpdir(), "agate-artifacts-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** A run of the agate workflow with its job in progress. */
async function runningJob(jobs = ["agate"]) {
  const run = await sim.createWorkflowRun({
    repo,
    path: ".github/workflows/agate.yml",
    event: "pull_request",
    headSha: head,
    jobs: jobs.map((name) => ({ name, steps: ["agate"] })),
  });
  for (const job of jobs) await sim.startJob({ repo, runId: run.id, job });
  return run;
}

/** The real client uploads `command-record.json` with `content` as the artifact `name`. */
function clientUpload(env: Record<string, string>, content: string, name = NAME) {
  const dir = mkdtempSync(join(temp, "record-"));
  const file = join(dir, "command-record.json");
  writeFileSync(file, content);
  return runArtifactClient(env, { kind: "upload", name, files: [file], root: dir });
}

/** An upload with the job `agate`'s runtime token, through the same HTTP calls as the client. */
function upload(runId: number, files: Record<string, string>, name = NAME) {
  return sim.uploadArtifactAs({ repo, runId, job: "agate", name, files });
}

function reader(permissions: Record<string, "read" | "write"> = { actions: "read" }) {
  return tokenClient(sim, sim.createToken({ permissions }));
}

function statusOf(error: unknown): number | undefined {
  return (error as { status?: number }).status;
}

describe("the real @actions/artifact client against the simulator", () => {
  it("uploads command-record.json as a one-file zip the REST API lists, describes and serves", async () => {
    const run = await runningJob();
    const env = sim.actionsRuntime({ repo, runId: run.id, job: "agate" });
    expect(Object.keys(env).sort()).toEqual([
      "ACTIONS_RESULTS_URL",
      "ACTIONS_RUNTIME_TOKEN",
      "GITHUB_RETENTION_DAYS",
      "GITHUB_SERVER_URL",
    ]);
    const upload = await clientUpload(env, '{"version":2}\n');
    expect(upload.error).toBeUndefined();
    const uploaded = upload.result as { id: number; size: number; digest: string };

    // What the client sent: Twirp create, Azure Put Block + Put Block List, Twirp finalize.
    expect(sim.callLog.map((call) => `${call.method} ${call.operationId} ${call.status}`)).toEqual([
      "POST twirp/ArtifactService/CreateArtifact 200",
      "PUT blob/put-block 201",
      "PUT blob/put-block-list 201",
      "POST twirp/ArtifactService/FinalizeArtifact 200",
    ]);

    const octokit = reader();
    const { data: list } = await octokit.rest.actions.listWorkflowRunArtifacts({
      owner: sim.owner,
      repo,
      run_id: run.id,
      name: NAME,
    });
    expect(list.total_count).toBe(1);
    const listed = list.artifacts[0];
    expect(listed).toMatchObject({
      id: uploaded.id,
      name: NAME,
      size_in_bytes: uploaded.size,
      expired: false,
      digest: `sha256:${uploaded.digest}`,
      workflow_run: {
        id: run.id,
        repository_id: sim.repository({ repo }).id,
        head_repository_id: sim.repository({ repo }).id,
        head_sha: head,
        head_branch: "main",
      },
    });
    const { data: one } = await octokit.rest.actions.getArtifact({
      owner: sim.owner,
      repo,
      artifact_id: uploaded.id,
    });
    expect(one).toEqual(listed);

    // The download redirects to a short-lived URL that is fetched without the GitHub token.
    const redirect = await fetch(listed?.archive_download_url ?? "", {
      headers: { authorization: `token ${sim.createToken({ permissions: { actions: "read" } })}` },
      redirect: "manual",
    });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get("location") ?? "";
    expect(new URL(location).searchParams.get("se")).toBeTruthy();
    const blob = await fetch(location);
    expect(blob.status).toBe(200);
    const zip = Buffer.from(await blob.arrayBuffer());
    const [state] = sim.artifacts({ repo, runId: run.id });
    expect(zip.equals(state?.zip ?? Buffer.alloc(0))).toBe(true);
    expect(`sha256:${createHash("sha256").update(zip).digest("hex")}`).toBe(listed?.digest);
    expect(Object.keys(unzipSync(zip))).toEqual(["command-record.json"]);
    expect(state).toMatchObject({ name: NAME, attempt: 1, job: "agate", state: "finalized" });
    expect(state?.files?.["command-record.json"]?.toString()).toBe('{"version":2}\n');

    // Octokit follows the redirect itself, as the App's adapter would.
    const { data } = await octokit.rest.actions.downloadArtifact({
      owner: sim.owner,
      repo,
      artifact_id: uploaded.id,
      archive_format: "zip",
    });
    expect(Buffer.from(data as ArrayBuffer).equals(zip)).toBe(true);
  });

  it("fails a second upload of one name in one attempt with GitHub's 409, and the first stays", async () => {
    const run = await runningJob(["agate", "other"]);
    const env = sim.actionsRuntime({ repo, runId: run.id, job: "agate" });
    await clientUpload(env, "first\n");
    const again = await clientUpload(env, "second\n");
    expect(again.error).toBe(
      "Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run",
    );
    const artifacts = sim.artifacts({ repo });
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]?.files?.["command-record.json"]?.toString()).toBe("first\n");
    // Another job of the same attempt cannot take the name either.
    const forged = await sim
      .uploadArtifactAs({ repo, runId: run.id, job: "other", name: NAME, files: { x: "y" } })
      .catch((error: Error) => error.message);
    expect(forged).toContain("(409) Conflict");
  });

  it("lists and downloads through the client's own ListArtifacts and GetSignedArtifactURL", async () => {
    const run = await runningJob();
    const env = sim.actionsRuntime({ repo, runId: run.id, job: "agate" });
    await clientUpload(env, "{}\n");
    const listed = await runArtifactClient(env, { kind: "list" });
    const artifacts = (listed.result as { artifacts: { id: number; name: string }[] }).artifacts;
    expect(artifacts.map((item) => item.name)).toEqual([NAME]);
    const into = mkdtempSync(join(temp, "download-"));
    const downloaded = await runArtifactClient(
      { ...env, GITHUB_WORKSPACE: into },
      { kind: "download", id: artifacts[0]?.id ?? 0, path: into },
    );
    expect(downloaded.error).toBeUndefined();
    expect(readFileSync(join(into, "command-record.json"), "utf8")).toBe("{}\n");
  });
});

describe("what binds an upload to one run, attempt and job", () => {
  it("refuses a forged token (401), another job's ids (403) and a completed job's token (401)", async () => {
    const run = await runningJob(["agate", "other"]);
    const env = sim.actionsRuntime({ repo, runId: run.id, job: "agate" });
    const service = resultsService(env);
    const token = env.ACTIONS_RUNTIME_TOKEN ?? "";
    const [header] = token.split(".");
    const { claims, runBackendId: runBackend, jobBackendId: jobBackend } = resultsScope(token);
    const otherJob = resultsScope(
      sim.actionsRuntime({ repo, runId: run.id, job: "other" }).ACTIONS_RUNTIME_TOKEN ?? "",
    ).jobBackendId;
    const call = (bearer: string, body: Record<string, unknown>) =>
      service.post("CreateArtifact", body, bearer);
    const body = (job: string) => ({
      workflow_run_backend_id: runBackend,
      workflow_job_run_backend_id: job,
      name: NAME,
      version: 7,
    });

    // A token with a changed claim no longer verifies.
    const forgedClaims = Buffer.from(
      JSON.stringify({ ...claims, scp: `Actions.Results:${runBackend}:${otherJob}` }),
    ).toString("base64url");
    const forged = await call(`${header}.${forgedClaims}.${token.split(".")[2]}`, body(otherJob));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ code: "unauthenticated" });

    const wrongJob = await call(token, body(otherJob));
    expect(wrongJob.status).toBe(403);
    expect(await wrongJob.json()).toMatchObject({ code: "permission_denied" });

    expect((await call(token, body(jobBackend))).status).toBe(200);

    await sim.completeJob({ repo, runId: run.id, job: "agate", conclusion: "success" });
    const late = await call(token, { ...body(jobBackend), name: "late" });
    expect(late.status).toBe(401);
    const lateSeed = await upload(run.id, { a: "b" }, "late").catch(
      (error: Error) => error.message,
    );
    expect(lateSeed).toContain("(401) Unauthorized");
  });

  it("lets a re-run upload the same name again: the run lists one per attempt", async () => {
    const run = await runningJob();
    const first = await upload(
      run.id,
      { "command-record.json": "attempt 1\n" },
      "agate-command-record",
    );
    await sim.completeJob({ repo, runId: run.id, job: "agate", conclusion: "failure" });
    const rerun = await sim.rerunWorkflowRun({ repo, runId: run.id });
    expect(rerun.attempt).toBe(2);
    await sim.startJob({ repo, runId: run.id, job: "agate" });
    const second = await upload(
      run.id,
      { "command-record.json": "attempt 2\n" },
      "agate-command-record",
    );
    expect(second.id).toBeGreaterThan(first.id);
    const { data } = await reader().rest.actions.listWorkflowRunArtifacts({
      owner: sim.owner,
      repo,
      run_id: run.id,
      name: "agate-command-record",
    });
    // Nothing in the REST artifact says which attempt made it: the name has to.
    expect(data.artifacts.map((item) => item.id)).toEqual([first.id, second.id]);
    expect(sim.artifacts({ repo }).map((item) => [item.attempt, item.jobId])).toEqual([
      [1, run.jobIds.agate],
      [2, rerun.jobIds.agate],
    ]);
    // The client in attempt 2 sees both (its `latest` option keeps the newest per name).
    const env = sim.actionsRuntime({ repo, runId: run.id, job: "agate" });
    const all = await runArtifactClient(env, { kind: "list" });
    expect((all.result as { artifacts: unknown[] }).artifacts).toHaveLength(2);
    const latest = await runArtifactClient(env, { kind: "list", latest: true });
    expect((latest.result as { artifacts: { id: number }[] }).artifacts.map((a) => a.id)).toEqual([
      second.id,
    ]);
  });

  it("lets the job delete and re-upload its own artifact (what `overwrite: true` does)", async () => {
    const run = await runningJob();
    const env = sim.actionsRuntime({ repo, runId: run.id, job: "agate" });
    const first = await upload(run.id, { "command-record.json": "real\n" });
    const deleted = await runArtifactClient(env, { kind: "delete", name: NAME });
    expect(deleted.result).toEqual({ id: first.id });
    const second = await upload(run.id, { "command-record.json": "forged\n" });
    const { data } = await reader().rest.actions.listWorkflowRunArtifacts({
      owner: sim.owner,
      repo,
      run_id: run.id,
    });
    expect(data.artifacts.map((item) => item.id)).toEqual([second.id]);
    expect(sim.artifacts({ repo }).map((item) => item.state)).toEqual(["deleted", "finalized"]);
  });
});

describe("the REST side", () => {
  it("needs actions: read to read and actions: write to delete; answers 404 for unknown ids", async () => {
    const run = await runningJob();
    const { id } = await upload(run.id, { "command-record.json": "{}" });
    const noActions = await reader({ contents: "read" })
      .rest.actions.listWorkflowRunArtifacts({ owner: sim.owner, repo, run_id: run.id })
      .catch(statusOf);
    expect(noActions).toBe(403);
    const readOnlyDelete = await reader()
      .rest.actions.deleteArtifact({ owner: sim.owner, repo, artifact_id: id })
      .catch(statusOf);
    expect(readOnlyDelete).toBe(403);
    const missing = await reader()
      .rest.actions.getArtifact({ owner: sim.owner, repo, artifact_id: 1 })
      .catch(statusOf);
    expect(missing).toBe(404);
    const noRun = await reader()
      .rest.actions.listWorkflowRunArtifacts({ owner: sim.owner, repo, run_id: 1 })
      .catch(statusOf);
    expect(noRun).toBe(404);
    const removed = await reader({ actions: "write" }).rest.actions.deleteArtifact({
      owner: sim.owner,
      repo,
      artifact_id: id,
    });
    expect(removed.status).toBe(204);
    const gone = await reader()
      .rest.actions.getArtifact({ owner: sim.owner, repo, artifact_id: id })
      .catch(statusOf);
    expect(gone).toBe(404);
  });

  it("does not list an upload before FinalizeArtifact", async () => {
    const run = await runningJob();
    const service = resultsService(sim.actionsRuntime({ repo, runId: run.id, job: "agate" }));
    const created = await service.post("CreateArtifact", {
      ...service.ids,
      name: NAME,
      version: 7,
    });
    expect(created.status).toBe(200);
    const { data } = await reader().rest.actions.listWorkflowRunArtifacts({
      owner: sim.owner,
      repo,
      run_id: run.id,
    });
    expect(data.total_count).toBe(0);
    expect(sim.artifacts({ repo }).map((item) => item.state)).toEqual(["pending"]);
  });

  it("lists an expired artifact as expired and answers its download with 410", async () => {
    const run = await runningJob();
    const { id } = await upload(run.id, { "command-record.json": "{}" });
    sim.expireArtifact({ repo, artifactId: id });
    const { data } = await reader().rest.actions.getArtifact({
      owner: sim.owner,
      repo,
      artifact_id: id,
    });
    expect(data.expired).toBe(true);
    const download = await reader()
      .rest.actions.downloadArtifact({
        owner: sim.owner,
        repo,
        artifact_id: id,
        archive_format: "zip",
      })
      .catch(statusOf);
    expect(download).toBe(410);
  });

  it("refuses a download URL whose signature was tampered with (403)", async () => {
    const run = await runningJob();
    const { id } = await upload(run.id, { "command-record.json": "{}" });
    const redirect = await fetch(
      `${sim.apiUrl}/repos/${sim.owner}/${repo}/actions/artifacts/${id}/zip`,
      {
        headers: {
          authorization: `token ${sim.createToken({ permissions: { actions: "read" } })}`,
        },
        redirect: "manual",
      },
    );
    const url = new URL(redirect.headers.get("location") ?? "");
    url.searchParams.set("se", "2999-01-01T00:00:00Z");
    const tampered = await fetch(url);
    expect(tampered.status).toBe(403);
    expect(tampered.headers.get("x-ms-error-code")).toBe("AuthenticationFailed");
  });
});
