// Bridges the library's OpenAPI handlers (keyed by operation id, called after request validation)
// to the stateful operation tables: checks the credential kind and token permission GitHub would,
// maps thrown errors to GitHub's error bodies, and records which handler answered.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type Ctx,
  checkPermission,
  errorBody,
  HttpError,
  type OperationTable,
  type Reply,
} from "./handlers/context.js";
import { metaOf, WRITE_METHODS } from "./server.js";
import { NotFound, Unprocessable, type World } from "./world.js";

/** The parts of openapi-backend's context the handlers read. */
interface BackendContext {
  operation?: { operationId?: string };
  request: {
    params: Record<string, string | string[]>;
    query: Record<string, string | string[] | undefined>;
    requestBody?: unknown;
  };
  api: { mockResponseForOperation(id: string): { status: number; mock: unknown } };
}

type LibraryHandler = (
  context: BackendContext,
  req: IncomingMessage,
  res: ServerResponse & { status(code: number): { json(body: unknown): void } },
) => Promise<{ status: number; json: unknown } | undefined>;

function decode(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function toReply(error: unknown): Reply {
  if (error instanceof HttpError)
    return { status: error.status, json: errorBody(error.status, error.message, error.extra) };
  if (error instanceof NotFound) return { status: 404, json: errorBody(404, "Not Found") };
  if (error instanceof Unprocessable) {
    const errors = error.errors.map((entry) => ({ code: "custom", ...entry }));
    return { status: 422, json: errorBody(422, error.message, { errors }) };
  }
  throw error;
}

/**
 * One library handler per operation id in the spec. Without a stateful handler an operation
 * answers 501 naming the operation (strict), or the spec's canned example (not strict).
 */
export function libraryHandlers(
  world: World,
  table: OperationTable,
  operationIds: string[],
  strict: boolean,
): Record<string, LibraryHandler> {
  const handlers: Record<string, LibraryHandler> = {
    // Runs for every routed request, also those that then fail validation, so that the call log
    // names the operation of a 400 too.
    postRoutingHandler: async (context, req) => {
      const id = context.operation?.operationId;
      if (id) metaOf(req).operationId = id;
      return undefined;
    },
  };
  for (const operationId of operationIds) {
    handlers[operationId] = async (context, req, res) => {
      const meta = metaOf(req);
      meta.operationId = operationId;
      const operation = table[operationId];
      if (!operation) {
        if (strict) {
          meta.handledBy = "unhandled";
          res.status(501).json({
            message: `The agate GitHub simulator has no stateful handler for ${operationId}`,
            operationId,
          });
          return undefined;
        }
        meta.handledBy = "example";
        const { status, mock } = context.api.mockResponseForOperation(operationId);
        return { status, json: mock };
      }
      meta.handledBy = "stateful";
      const ctx: Ctx = {
        world,
        operationId,
        method: req.method ?? "GET",
        params: Object.fromEntries(
          Object.entries(context.request.params).map(([key, value]) => [key, decode(value)]),
        ),
        query: context.request.query,
        body: context.request.requestBody,
        headers: req.headers,
        url: meta.originalUrl,
        credential: meta.credential,
        res,
      };
      if (WRITE_METHODS.has(ctx.method)) meta.write = { params: ctx.params, body: ctx.body };
      let reply: Reply;
      try {
        const credential = meta.credential;
        if (operation.auth === "app" && credential.kind !== "app") {
          // GitHub's answer to an installation token on an app endpoint.
          throw new HttpError(401, "A JSON web token could not be decoded");
        }
        if (operation.auth === "token") {
          if (credential.kind !== "token") {
            throw new HttpError(403, "Resource not accessible by integration");
          }
          const needed =
            typeof operation.permission === "function"
              ? operation.permission(ctx)
              : operation.permission;
          if (needed && !checkPermission(credential.token, needed)) {
            throw new HttpError(403, "Resource not accessible by integration");
          }
        }
        reply = await operation.handle(ctx);
      } catch (error) {
        reply = toReply(error);
      }
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      if ("raw" in reply) {
        res.statusCode = reply.status;
        if (reply.raw.length > 0) res.setHeader("content-type", reply.contentType);
        res.end(reply.raw);
        return undefined;
      }
      return { status: reply.status, json: reply.json };
    };
  }
  return handlers;
}
