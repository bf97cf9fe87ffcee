/**
 * GitHub Actions, where evidence comes from: a head's workflow runs, a run's jobs and artifacts,
 * and an artifact's zip, downloaded without ever sending the token to the storage host.
 */
import type { EvidenceJob, EvidenceRun, RecordArtifact } from "../schemas/gate.js";
import { at, type Repo } from "./call.js";

/** Runs for a head on one event, newest first (GitHub's own data on where evidence came from). */
export async function workflowRunsFor(
  r: Repo,
  headSha: string,
  event: string,
): Promise<EvidenceRun[]> {
  r.count("actions/list-workflow-runs-for-repo");
  const runs = await r.client.paginate(
    r.client.rest.actions.listWorkflowRunsForRepo,
    { ...at(r), head_sha: headSha, event, per_page: 100 },
    (response) => response.data as unknown as WorkflowRunRow[],
  );
  return runs
    .map((run) => ({
      id: run.id,
      run_attempt: run.run_attempt ?? 1,
      head_sha: run.head_sha,
      path: run.path,
      event: run.event,
      status: run.status ?? null,
      conclusion: run.conclusion ?? null,
      html_url: run.html_url ?? null,
      head_repository: run.head_repository?.full_name ?? null,
      pull_requests: (run.pull_requests ?? [])
        .filter((p) => isRepository(r, p.base.repo.url))
        .map((p) => ({ number: p.number, base_ref: p.base.ref, base_sha: p.base.sha })),
    }))
    .sort((a, b) => b.id - a.id);
}

/**
 * Whether an API URL of a repository (`…/repos/{owner}/{repo}`) is this one's: a run lists pull
 * requests of other repositories too (numbers of theirs, not this one's).
 */
function isRepository(r: Repo, url: string): boolean {
  return url.toLowerCase().endsWith(`/repos/${r.owner}/${r.repo}`.toLowerCase());
}

/** The jobs of a run's newest attempt (a job not re-run keeps its earlier attempt). */
export async function latestJobs(r: Repo, runId: number): Promise<EvidenceJob[]> {
  r.count("actions/list-jobs-for-workflow-run");
  const jobs = await r.client.paginate(r.client.rest.actions.listJobsForWorkflowRun, {
    ...at(r),
    run_id: runId,
    filter: "latest",
    per_page: 100,
  });
  return jobs.map((job) => ({
    id: job.id,
    name: job.name,
    run_attempt: job.run_attempt ?? 1,
    status: job.status,
    conclusion: job.conclusion ?? null,
    html_url: job.html_url ?? null,
    steps: (job.steps ?? []).map((step) => ({
      name: step.name,
      number: step.number,
      status: step.status,
      conclusion: step.conclusion ?? null,
    })),
  }));
}

/** Every artifact of a run, of any attempt. */
export async function runArtifacts(r: Repo, runId: number): Promise<RecordArtifact[]> {
  r.count("actions/list-workflow-run-artifacts");
  const artifacts = await r.client.paginate(
    r.client.rest.actions.listWorkflowRunArtifacts,
    { ...at(r), run_id: runId, per_page: 100 },
    (response) => response.data as unknown as ArtifactRow[],
  );
  return artifacts.map((a) => ({
    id: a.id,
    name: a.name,
    size_in_bytes: a.size_in_bytes,
    expired: a.expired,
  }));
}

/**
 * An artifact's zip, at most `maxBytes`. GitHub answers with a redirect to short-lived storage;
 * that URL is fetched without the token (it must never leave for another host).
 */
export async function artifactZip(
  r: Repo,
  artifactId: number,
  maxBytes: number,
): Promise<Uint8Array> {
  r.count("actions/download-artifact");
  const response = await r.client.rest.actions.downloadArtifact({
    ...at(r),
    artifact_id: artifactId,
    archive_format: "zip",
    request: { redirect: "manual" },
  });
  const location = (response.headers as Record<string, string | undefined>).location;
  if (response.status !== 302 || !location) {
    throw new Error(
      `GitHub answered the download of artifact ${artifactId} with ${response.status} and no redirect`,
    );
  }
  const blob = await fetch(location, { redirect: "error" });
  if (!blob.ok || !blob.body) {
    throw new Error(`the artifact storage answered ${blob.status} for artifact ${artifactId}`);
  }
  const declared = Number(blob.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await blob.body.cancel();
    throw new Error(
      `artifact ${artifactId} is ${declared} bytes, over the ${maxBytes} agate reads`,
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of blob.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      throw new Error(`artifact ${artifactId} is over the ${maxBytes} bytes agate reads`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The fields of a listed workflow run agate reads (the list's item type is not exported). */
interface WorkflowRunRow {
  id: number;
  run_attempt?: number;
  head_sha: string;
  path: string;
  event: string;
  status: string | null;
  conclusion: string | null;
  html_url?: string;
  head_repository?: { full_name: string } | null;
  pull_requests?:
    | { number: number; base: { ref: string; sha: string; repo: { url: string } } }[]
    | null;
}

interface ArtifactRow {
  id: number;
  name: string;
  size_in_bytes: number;
  expired: boolean;
}
