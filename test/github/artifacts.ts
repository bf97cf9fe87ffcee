// Workflow artifacts, runner side: what `@actions/artifact` (2.x and later; 6.2.1 here) talks to.
//
// - The runtime token (ACTIONS_RUNTIME_TOKEN) is a JWT whose `scp` claim holds
//   `Actions.Results:<workflow-run-backend-id>:<workflow-job-run-backend-id>`: the client reads
//   both ids from it and sends them with every call. The simulator signs it (HS256, its own key)
//   and binds it to one run attempt and one job execution; a token for a job that has completed
//   is refused (the runner ends a job's processes when the job ends, so nothing of the job can
//   use it afterwards).
// - The results service (ACTIONS_RESULTS_URL) speaks Twirp with JSON bodies:
//   `POST /twirp/github.actions.results.api.v1.ArtifactService/<Method>`; errors are
//   `{"code": ..., "msg": ...}` with Twirp's HTTP status (409 `already_exists` for a second
//   artifact of one name in one run attempt, as GitHub answers it).
// - The blob goes to a signed URL, as to Azure Blob Storage: `Put Block` + `Put Block List` (what
//   `BlockBlobClient.uploadStream` sends), or one `Put Blob`; no Authorization header, the
//   signature is in the query (`sig`, `se` expiry, `sp` permissions).
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Artifact, Repository, RunAttempt, WorkflowJob, WorkflowRun } from "./state.js";
import { nowIso } from "./state.js";
import type { World } from "./world.js";

const SERVICE = "/twirp/github.actions.results.api.v1.ArtifactService/";
const BLOB_PREFIX = "/_simulator/blob/";
/** GitHub's default retention for artifacts. */
const RETENTION_DAYS = 90;
/** The REST download URL "expires after 1 minute" (GitHub's REST docs, download an artifact). */
const DOWNLOAD_URL_SECONDS = 60;
/** How long an upload URL stays valid (not documented by GitHub; one hour here). */
const UPLOAD_URL_SECONDS = 60 * 60;
/** Runtime tokens live about as long as a job may (6 hours on hosted runners). */
const TOKEN_SECONDS = 6 * 60 * 60;
/** The body limit of one Twirp call or blob block (the client sends 8 MB blocks). */
const BODY_LIMIT = 64 * 1024 * 1024;

type Json = Record<string, unknown>;

interface Scope {
  repo: Repository;
  run: WorkflowRun;
  attempt: RunAttempt;
  job: WorkflowJob;
}

/**
 * A runtime token's claims and the ids of its `Actions.Results:<run backend id>:<job backend id>`
 * scope, decoded as @actions/artifact decodes them (not verified: `scopeOf` does that first).
 */
export function resultsScope(token: string): {
  claims: { scp?: string; exp?: number };
  runBackendId: string;
  jobBackendId: string;
} {
  const claims = JSON.parse(
    Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8") || "{}",
  ) as { scp?: string; exp?: number };
  const scope = (claims.scp ?? "").split(" ").find((part) => part.startsWith("Actions.Results:"));
  const [, runBackendId = "", jobBackendId = ""] = (scope ?? "").split(":");
  return { claims, runBackendId, jobBackendId };
}

/** A Twirp error: HTTP status and Twirp code (https://twitchtv.github.io/twirp/docs/spec_v7.html). */
class TwirpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class ArtifactService {
  private readonly key = randomBytes(32);

  constructor(
    private readonly world: World,
    /** The simulator's origin (`http://127.0.0.1:PORT`): results service and blob storage. */
    private readonly origin: string,
  ) {}

  // ---- runtime tokens -------------------------------------------------------------------------

  /** ACTIONS_RUNTIME_TOKEN for one job execution. */
  runtimeToken(run: WorkflowRun, job: WorkflowJob): string {
    const attempt = run.attempts.find((entry) => entry.number === job.runAttempt);
    if (!attempt) throw new Error(`run ${run.id} has no attempt ${job.runAttempt}`);
    const now = Math.floor(Date.now() / 1000);
    const header = { typ: "JWT", alg: "HS256" };
    const payload = {
      nameid: "dddddddd-dddd-dddd-dddd-dddddddddddd",
      scp: [
        "Actions.ExampleScope",
        `Actions.Results:${attempt.backendId}:${job.backendId}`,
        `Actions.UploadArtifacts:${attempt.backendId}:${job.backendId}`,
      ].join(" "),
      iat: now,
      nbf: now,
      exp: now + TOKEN_SECONDS,
      iss: "vstoken.actions.githubusercontent.com",
      aud: "vso:agate-simulator",
      runid: String(run.id),
      attempt: String(attempt.number),
    };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unsigned = `${encode(header)}.${encode(payload)}`;
    return `${unsigned}.${this.sign(unsigned)}`;
  }

  /** The environment the runner gives a JavaScript action for artifacts. */
  runtimeEnv(run: WorkflowRun, job: WorkflowJob): Record<string, string> {
    const port = new URL(this.origin).port;
    return {
      ACTIONS_RUNTIME_TOKEN: this.runtimeToken(run, job),
      // Only the origin is used by the client; GitHub's is https://results-receiver.actions.githubusercontent.com/
      ACTIONS_RESULTS_URL: `${this.origin}/`,
      // @actions/artifact refuses hosts that look like GitHub Enterprise Server; it accepts
      // github.com, *.ghe.com and *.localhost. Nothing fetches this URL.
      GITHUB_SERVER_URL: `http://github.localhost${port ? `:${port}` : ""}`,
      GITHUB_RETENTION_DAYS: String(RETENTION_DAYS),
    };
  }

  private sign(text: string): string {
    return createHmac("sha256", this.key).update(text).digest("base64url");
  }

  private scopeOf(authorization: string | undefined): Scope {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
    const token = match?.[1];
    if (!token) throw new TwirpError(401, "unauthenticated", "missing bearer token");
    const [header = "", payload = "", signature = ""] = token.split(".");
    const expected = Buffer.from(this.sign(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new TwirpError(401, "unauthenticated", "invalid runtime token");
    }
    const { claims, runBackendId, jobBackendId } = resultsScope(token);
    if (typeof claims.exp !== "number" || claims.exp * 1000 <= Date.now()) {
      throw new TwirpError(401, "unauthenticated", "runtime token expired");
    }
    const found = this.world.workflows.byBackendIds(runBackendId, jobBackendId);
    if (!found) throw new TwirpError(401, "unauthenticated", "unknown workflow run or job");
    if (found.job.status === "completed") {
      throw new TwirpError(
        401,
        "unauthenticated",
        "the job this token was issued for has completed",
      );
    }
    return found;
  }

  // ---- HTTP -----------------------------------------------------------------------------------

  /** Serves a results-service or blob request; returns the label for the call log, or false. */
  handle(path: string, req: IncomingMessage, res: ServerResponse): string | false {
    if (path.startsWith(SERVICE)) {
      const method = path.slice(SERVICE.length);
      void this.twirp(method, req, res);
      return `twirp/ArtifactService/${method}`;
    }
    if (path.startsWith(BLOB_PREFIX)) {
      const url = new URL(req.url ?? "/", this.origin);
      const comp = url.searchParams.get("comp");
      const label =
        req.method === "PUT"
          ? comp === "block"
            ? "blob/put-block"
            : comp === "blocklist"
              ? "blob/put-block-list"
              : "blob/put-blob"
          : "blob/get-blob";
      void this.blob(url, req, res);
      return label;
    }
    return false;
  }

  private async twirp(method: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: Json) => {
      res.statusCode = status;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method !== "POST")
        throw new TwirpError(404, "bad_route", `no handler for ${req.method}`);
      const raw = await readBody(req);
      const scope = this.scopeOf(req.headers.authorization);
      let body: Json;
      try {
        body = JSON.parse(raw.toString("utf8") || "{}") as Json;
      } catch {
        throw new TwirpError(400, "malformed", "the request body is not JSON");
      }
      const handler = {
        CreateArtifact: () => this.create(scope, body),
        FinalizeArtifact: () => this.finalize(scope, body),
        ListArtifacts: () => this.list(scope, body),
        GetSignedArtifactURL: () => this.signedUrl(scope, body),
        DeleteArtifact: () => this.remove(scope, body),
      }[method];
      if (!handler) throw new TwirpError(404, "bad_route", `no method ${method}`);
      reply(200, handler());
    } catch (error) {
      if (error instanceof TwirpError)
        reply(error.status, { code: error.code, msg: error.message });
      else reply(500, { code: "internal", msg: String(error) });
    }
  }

  /** The request's run and job must be the token's (CreateArtifact, FinalizeArtifact). */
  private ownJob(scope: Scope, body: Json): void {
    if (
      body.workflow_run_backend_id !== scope.attempt.backendId ||
      body.workflow_job_run_backend_id !== scope.job.backendId
    ) {
      throw new TwirpError(403, "permission_denied", "the token does not cover this workflow job");
    }
  }

  /** Artifacts this job can see: its run's, of its attempt and the attempts before it. */
  private visible(scope: Scope): Artifact[] {
    return [...scope.repo.artifacts.values()].filter(
      (item) =>
        item.runId === scope.run.id &&
        item.attempt <= scope.attempt.number &&
        item.state === "finalized" &&
        !item.expired,
    );
  }

  private create(scope: Scope, body: Json): Json {
    this.ownJob(scope, body);
    const name = typeof body.name === "string" ? body.name : "";
    if (!name || /["\\:<>|*?\r\n/]/.test(name)) {
      throw new TwirpError(
        400,
        "invalid_argument",
        `invalid artifact name ${JSON.stringify(name)}`,
      );
    }
    if (typeof body.version === "number" && body.version < 4) {
      throw new TwirpError(400, "invalid_argument", "artifact version 4 or newer required");
    }
    // One name per run attempt, pending uploads included (a failed upload keeps its name).
    const taken = [...scope.repo.artifacts.values()].some(
      (item) =>
        item.runId === scope.run.id &&
        item.attempt === scope.attempt.number &&
        item.name === name &&
        item.state !== "deleted",
    );
    if (taken) {
      throw new TwirpError(
        409,
        "already_exists",
        "an artifact with this name already exists on the workflow run",
      );
    }
    const now = nowIso();
    const expires =
      typeof body.expires_at === "string"
        ? new Date(body.expires_at)
        : new Date(Date.now() + RETENTION_DAYS * 24 * 60 * 60 * 1000);
    const artifact: Artifact = {
      id: this.world.ids.take(),
      name,
      runId: scope.run.id,
      attempt: scope.attempt.number,
      jobId: scope.job.id,
      runBackendId: scope.attempt.backendId,
      jobBackendId: scope.job.backendId,
      state: "pending",
      blocks: new Map(),
      content: undefined,
      contentType: typeof body.mime_type === "string" ? body.mime_type : "application/zip",
      size: 0,
      digest: null,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(Math.floor(expires.getTime() / 1000) * 1000)
        .toISOString()
        .replace(".000Z", "Z"),
      expired: false,
    };
    scope.repo.artifacts.set(artifact.id, artifact);
    return {
      ok: true,
      signed_upload_url: this.blobUrl(scope.repo, artifact, "cw", UPLOAD_URL_SECONDS),
    };
  }

  private finalize(scope: Scope, body: Json): Json {
    this.ownJob(scope, body);
    const artifact = [...scope.repo.artifacts.values()].find(
      (item) =>
        item.runId === scope.run.id &&
        item.attempt === scope.attempt.number &&
        item.jobId === scope.job.id &&
        item.name === body.name &&
        item.state === "pending",
    );
    if (!artifact) throw new TwirpError(404, "not_found", "artifact not found");
    if (!artifact.content) {
      throw new TwirpError(412, "failed_precondition", "no blob was uploaded for the artifact");
    }
    // What the client reports is what GitHub stores (it is what `digest` shows in the REST API).
    artifact.size = Number(body.size ?? 0);
    artifact.digest = typeof body.hash === "string" ? body.hash : null;
    artifact.state = "finalized";
    artifact.updatedAt = nowIso();
    return { ok: true, artifact_id: String(artifact.id) };
  }

  private list(scope: Scope, body: Json): Json {
    if (!this.sameRun(scope, body)) return { artifacts: [] };
    const artifacts = this.visible(scope)
      .filter((item) => typeof body.name_filter !== "string" || item.name === body.name_filter)
      .filter((item) => body.id_filter === undefined || String(item.id) === String(body.id_filter));
    return {
      artifacts: artifacts.map((item) => ({
        workflow_run_backend_id: item.runBackendId,
        workflow_job_run_backend_id: item.jobBackendId,
        database_id: String(item.id),
        name: item.name,
        size: String(item.size),
        created_at: item.createdAt,
        ...(item.digest ? { digest: item.digest } : {}),
      })),
    };
  }

  private sameRun(scope: Scope, body: Json): boolean {
    return scope.run.attempts.some(
      (attempt) =>
        attempt.backendId === body.workflow_run_backend_id &&
        attempt.number <= scope.attempt.number,
    );
  }

  /** The artifact named in a request (its own backend ids, possibly an earlier attempt's). */
  private named(scope: Scope, body: Json): Artifact {
    const found = this.sameRun(scope, body)
      ? this.visible(scope)
          .filter(
            (item) =>
              item.name === body.name &&
              item.runBackendId === body.workflow_run_backend_id &&
              item.jobBackendId === body.workflow_job_run_backend_id,
          )
          .sort((a, b) => b.id - a.id)[0]
      : undefined;
    if (!found) throw new TwirpError(404, "not_found", "artifact not found");
    return found;
  }

  private signedUrl(scope: Scope, body: Json): Json {
    const artifact = this.named(scope, body);
    return { signed_url: this.downloadUrl(scope.repo, artifact) };
  }

  private remove(scope: Scope, body: Json): Json {
    const artifact = this.named(scope, body);
    artifact.state = "deleted";
    artifact.updatedAt = nowIso();
    return { ok: true, artifact_id: String(artifact.id) };
  }

  // ---- blob storage -----------------------------------------------------------------------------

  private blobPath(repo: Repository, artifact: Artifact): string {
    return `${BLOB_PREFIX}actions-results/${repo.id}/${artifact.runBackendId}/workflow-job-run-${artifact.jobBackendId}/artifacts/${artifact.id}.zip`;
  }

  private blobUrl(repo: Repository, artifact: Artifact, permissions: string, seconds: number) {
    const path = this.blobPath(repo, artifact);
    const expiry = new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z");
    const signature = this.sign(`${path}\n${expiry}\n${permissions}`);
    const query = new URLSearchParams({
      sv: "2023-11-03",
      sr: "b",
      se: expiry,
      sp: permissions,
      sig: signature,
    });
    return `${this.origin}${path}?${query.toString()}`;
  }

  /** A short-lived URL serving the artifact's zip without authentication. */
  downloadUrl(repo: Repository, artifact: Artifact): string {
    return this.blobUrl(repo, artifact, "r", DOWNLOAD_URL_SECONDS);
  }

  private async blob(url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const fail = (status: number, code: string, message: string) => {
      res.statusCode = status;
      res.setHeader("x-ms-error-code", code);
      res.setHeader("x-ms-request-id", requestId);
      res.setHeader("content-type", "application/xml");
      res.end(
        `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
      );
    };
    try {
      const body = await readBody(req);
      const match = /\/actions-results\/(\d+)\/[^/]+\/[^/]+\/artifacts\/(\d+)\.zip$/.exec(
        url.pathname,
      );
      const repo = match
        ? [...this.world.repos.values()].find((entry) => String(entry.id) === match[1])
        : undefined;
      const artifact = repo?.artifacts.get(Number(match?.[2]));
      const expiry = url.searchParams.get("se") ?? "";
      const permissions = url.searchParams.get("sp") ?? "";
      const signature = url.searchParams.get("sig") ?? "";
      const expected = this.sign(`${url.pathname}\n${expiry}\n${permissions}`);
      if (signature !== expected || !(Date.parse(expiry) > Date.now())) {
        fail(403, "AuthenticationFailed", "Server failed to authenticate the request.");
        return;
      }
      if (!artifact || artifact.state === "deleted") {
        fail(404, "BlobNotFound", "The specified blob does not exist.");
        return;
      }
      res.setHeader("x-ms-request-id", requestId);
      res.setHeader("x-ms-version", "2023-11-03");
      res.setHeader("date", new Date().toUTCString());
      if (req.method === "GET" || req.method === "HEAD") {
        if (!permissions.includes("r")) {
          fail(403, "AuthorizationPermissionMismatch", "This request is not authorized.");
          return;
        }
        if (!artifact.content) {
          fail(404, "BlobNotFound", "The specified blob does not exist.");
          return;
        }
        res.statusCode = 200;
        res.setHeader("content-type", artifact.contentType);
        res.setHeader("content-length", String(artifact.content.length));
        res.setHeader("x-ms-blob-type", "BlockBlob");
        res.end(req.method === "HEAD" ? undefined : artifact.content);
        return;
      }
      if (req.method !== "PUT" || !permissions.includes("w")) {
        fail(403, "AuthorizationPermissionMismatch", "This request is not authorized.");
        return;
      }
      const comp = url.searchParams.get("comp");
      if (comp === "block") {
        const id = url.searchParams.get("blockid") ?? "";
        if (!id) {
          fail(400, "InvalidQueryParameterValue", "blockid is required");
          return;
        }
        artifact.blocks.set(id, body);
      } else if (comp === "blocklist") {
        const ids = [
          ...body.toString("utf8").matchAll(/<(Latest|Uncommitted|Committed)>([^<]*)<\/\1>/g),
        ].map((m) => m[2] ?? "");
        const parts: Buffer[] = [];
        for (const id of ids) {
          const block = artifact.blocks.get(id);
          if (!block) {
            fail(400, "InvalidBlockList", "The specified block list is invalid.");
            return;
          }
          parts.push(block);
        }
        artifact.content = Buffer.concat(parts);
        artifact.blocks.clear();
        const type = req.headers["x-ms-blob-content-type"];
        if (typeof type === "string") artifact.contentType = type;
      } else if (!comp) {
        // Put Blob: the whole blob in one request.
        artifact.content = body;
        const type = req.headers["x-ms-blob-content-type"];
        if (typeof type === "string") artifact.contentType = type;
      } else {
        fail(400, "InvalidQueryParameterValue", `comp=${comp} is not supported`);
        return;
      }
      artifact.updatedAt = nowIso();
      res.statusCode = 201;
      res.setHeader("x-ms-request-server-encrypted", "true");
      if (comp !== "block") {
        res.setHeader("etag", `"0x${Date.now().toString(16).toUpperCase()}"`);
        res.setHeader("last-modified", new Date().toUTCString());
      }
      res.end();
    } catch (error) {
      fail(500, "InternalError", String(error));
    }
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        reject(new Error("request body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
