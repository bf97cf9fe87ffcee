// Uploads an artifact the way @actions/artifact does, over HTTP against the simulator's results
// service and blob storage (Twirp CreateArtifact, Azure Put Block + Put Block List,
// FinalizeArtifact), so a test can seed one (a forged record, a second upload) through the same
// code path a job's upload takes. Errors read like the client's.
import { createHash, randomUUID } from "node:crypto";
import { zipSync } from "fflate";
import { resultsScope } from "./artifacts.js";

const SERVICE = "twirp/github.actions.results.api.v1.ArtifactService";

export interface UploadedArtifact {
  id: number;
  size: number;
  /** `sha256:<hex>` of the zip, as FinalizeArtifact reported it. */
  digest: string;
}

/** A zip of the files (deflate level 6, as upload-artifact's default compression level). */
function zipFiles(files: Record<string, string | Buffer>): Buffer {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, content] of Object.entries(files)) {
    entries[name] = typeof content === "string" ? Buffer.from(content) : content;
  }
  return Buffer.from(zipSync(entries, { level: 6 }));
}

/**
 * The results service as a job reaches it with its environment: the backend ids the client
 * sends (from the runtime token's scope) and a raw Twirp call (another bearer token can be given,
 * to try a forged one).
 */
export function resultsService(env: Record<string, string>): {
  ids: { workflow_run_backend_id: string; workflow_job_run_backend_id: string };
  post(method: string, body: Record<string, unknown>, token?: string): Promise<Response>;
} {
  const own = env.ACTIONS_RUNTIME_TOKEN ?? "";
  const results = new URL(env.ACTIONS_RESULTS_URL ?? "").origin;
  const { runBackendId, jobBackendId } = resultsScope(own);
  return {
    ids: { workflow_run_backend_id: runBackendId, workflow_job_run_backend_id: jobBackendId },
    post: (method, body, token = own) =>
      fetch(`${results}/${SERVICE}/${method}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
  };
}

export async function uploadArtifact(input: {
  env: Record<string, string>;
  name: string;
  files: Record<string, string | Buffer>;
}): Promise<UploadedArtifact> {
  const service = resultsService(input.env);
  const call = async (method: string, body: Record<string, unknown>) => {
    const response = await service.post(method, { ...service.ids, ...body });
    const parsed = JSON.parse(await response.text()) as Record<string, unknown>;
    if (!response.ok) {
      throw new Error(
        `Failed to ${method}: Received non-retryable error: Failed request: (${response.status}) ${response.statusText}: ${String(parsed.msg)}`,
      );
    }
    return parsed;
  };
  const zip = zipFiles(input.files);
  const created = await call("CreateArtifact", {
    name: input.name,
    mime_type: "application/zip",
    version: 7,
  });
  const url = String(created.signed_upload_url);
  const blockId = Buffer.from(`${randomUUID()}-000000`).toString("base64");
  const put = async (query: string, body: Buffer | string, headers: Record<string, string>) => {
    const response = await fetch(`${url}&${query}`, { method: "PUT", headers, body });
    if (response.status !== 201) {
      throw new Error(`blob upload failed: ${response.status} ${await response.text()}`);
    }
  };
  await put(`comp=block&blockid=${encodeURIComponent(blockId)}`, zip, {
    "content-length": String(zip.length),
  });
  await put(
    "comp=blocklist",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><BlockList><Latest>${blockId}</Latest></BlockList>`,
    { "x-ms-blob-content-type": "application/zip" },
  );
  const digest = `sha256:${createHash("sha256").update(zip).digest("hex")}`;
  const finalized = await call("FinalizeArtifact", {
    name: input.name,
    size: String(zip.length),
    hash: digest,
  });
  return { id: Number(finalized.artifact_id), size: zip.length, digest };
}
