// The HTTP front of the simulator: serves the API at the root and under /api/v3 (where Probot and
// Octokit look with GHE_HOST), authenticates the caller like GitHub before anything else, and
// logs every request with the operation and the kind of handler that answered.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { WriteFaults } from "./faults.js";
import type { Credential } from "./handlers/context.js";

export type HandledBy =
  /** Answered from simulator state. */
  | "stateful"
  /** Answered with the spec's canned example (only with `strict: false`). */
  | "example"
  /** 501: the operation exists at GitHub but the simulator has no stateful handler for it. */
  | "unhandled"
  /** 400: the request failed validation against GitHub's OpenAPI description. */
  | "rejected"
  /** 401: no, an unknown or an invalid credential. */
  | "unauthenticated"
  /** No such route in GitHub's API. */
  | "not-found"
  /** The simulator's own routes: job logs, the artifact service, blob storage. */
  | "simulator";

export interface CallRecord {
  operationId: string | undefined;
  method: string;
  /** The path as requested, including any /api/v3 prefix, without the query. */
  path: string;
  status: number;
  handledBy: HandledBy;
  durationMs: number;
  /**
   * A write (POST, PATCH, PUT, DELETE) that reached a stateful handler: its path parameters
   * (decoded) and its body as validated. What a client asked to change, to compare runs by.
   */
  write?: WriteRequest;
}

export interface WriteRequest {
  params: Record<string, string>;
  body: unknown;
}

/** A call that carried a write, as `sim.writes` lists it. */
export type WriteRecord = CallRecord & { write: WriteRequest };

export const WRITE_METHODS: ReadonlySet<string> = new Set(["POST", "PATCH", "PUT", "DELETE"]);

export interface RequestMeta {
  operationId: string | undefined;
  handledBy: HandledBy | undefined;
  credential: Credential;
  originalUrl: string;
  write: WriteRequest | undefined;
}

const metas = new WeakMap<IncomingMessage, RequestMeta>();

export function metaOf(req: IncomingMessage): RequestMeta {
  let meta = metas.get(req);
  if (!meta) {
    meta = {
      operationId: undefined,
      handledBy: undefined,
      credential: { kind: "none" },
      originalUrl: req.url ?? "/",
      write: undefined,
    };
    metas.set(req, meta);
  }
  return meta;
}

export type CredentialCheck = { ok: true; credential: Credential } | { ok: false; message: string };

export interface FrontOptions {
  /** The library's express app, called with the rewritten request. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  authenticate: (authorization: string | undefined) => CredentialCheck;
  /**
   * Routes the simulator serves itself with their own authentication (pre-signed log and blob
   * URLs, the Actions results service): returns a label for the call log when it handled one.
   */
  ownRoute: (path: string, req: IncomingMessage, res: ServerResponse) => string | false;
  /** Operations GitHub answers without any credential (checked by their own handler). */
  isPublic: (method: string, path: string) => boolean;
  onCall: (record: CallRecord) => void;
  /** Drops or holds the answer to a chosen write after it was applied (faults.ts). */
  faults?: WriteFaults;
}

/**
 * Path parameters cannot contain `/` for the library's router, but GitHub takes them unencoded in
 * these positions (a file path, a ref, a `base...head` pair). Encode them as one segment.
 */
const MULTI_SEGMENT = [
  /^(\/repos\/[^/]+\/[^/]+\/contents\/)(.+)$/,
  /^(\/repos\/[^/]+\/[^/]+\/git\/ref\/)(.+)$/,
  /^(\/repos\/[^/]+\/[^/]+\/git\/refs\/)(.+)$/,
  /^(\/repos\/[^/]+\/[^/]+\/git\/matching-refs\/)(.+)$/,
  /^(\/repos\/[^/]+\/[^/]+\/compare\/)(.+)$/,
];

export function rewritePath(path: string): string {
  let rewritten = path.startsWith("/api/v3/") || path === "/api/v3" ? path.slice(7) || "/" : path;
  for (const pattern of MULTI_SEGMENT) {
    const match = pattern.exec(rewritten);
    if (match?.[2]?.includes("/")) {
      rewritten = `${match[1]}${match[2].split("/").join("%2F")}`;
      break;
    }
  }
  return rewritten;
}

export function startFront(options: FrontOptions): Promise<Server> {
  const server = createServer((req, res) => {
    const started = performance.now();
    const originalUrl = req.url ?? "/";
    const queryAt = originalUrl.indexOf("?");
    const path = queryAt === -1 ? originalUrl : originalUrl.slice(0, queryAt);
    const query = queryAt === -1 ? "" : originalUrl.slice(queryAt);
    const meta = metaOf(req);
    meta.originalUrl = originalUrl;
    res.setHeader("x-github-request-id", randomBytes(8).toString("hex").toUpperCase());
    const logCall = (status: number) => {
      const handledBy: HandledBy =
        meta.handledBy ??
        (meta.operationId ? (status === 400 ? "rejected" : "stateful") : "not-found");
      options.onCall({
        operationId: meta.operationId,
        method: req.method ?? "GET",
        path,
        status,
        handledBy,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        ...(meta.write ? { write: meta.write } : {}),
      });
    };
    res.on("finish", () => logCall(res.statusCode));
    // A faulted answer never finishes: the injector logs the applied write itself.
    options.faults?.intercept(req, res, meta, logCall);
    const rewritten = rewritePath(path);
    const own = options.ownRoute(rewritten, req, res);
    if (own) {
      meta.handledBy = "simulator";
      meta.operationId = own;
      return;
    }
    const check: CredentialCheck =
      req.headers.authorization === undefined && options.isPublic(req.method ?? "GET", rewritten)
        ? { ok: true, credential: { kind: "none" } }
        : options.authenticate(req.headers.authorization);
    if (!check.ok) {
      meta.handledBy = "unauthenticated";
      res.statusCode = 401;
      res.setHeader("content-type", "application/json; charset=utf-8");
      res.end(
        JSON.stringify({
          message: check.message,
          documentation_url: "https://docs.github.com/rest",
          status: "401",
        }),
      );
      return;
    }
    meta.credential = check.credential;
    req.url = `${rewritten}${query}`;
    options.app(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
