// What a stateful handler gets and returns, and the checks GitHub makes before it answers:
// which credential an operation takes, which token permission, and which repositories a token
// can see.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Repository, Token, TokenPermission } from "../state.js";
import { covers, NotFound, type World } from "../world.js";

export type Credential =
  | { kind: "app"; appId: number }
  | { kind: "token"; token: Token }
  | { kind: "none" };

export interface Ctx {
  world: World;
  operationId: string;
  method: string;
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
  headers: IncomingMessage["headers"];
  /** The URL as the client sent it (with any /api/v3 prefix), for Link headers. */
  url: string;
  credential: Credential;
  res: ServerResponse;
}

/** A JSON reply is validated against the operation's response schema; a raw one is not. */
export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; raw: string | Buffer; contentType: string; headers?: Record<string, string> };

/** A token permission, or a list of alternatives any of which will do. */
export type Permission = [string, TokenPermission] | readonly [string, TokenPermission][];

export interface Operation {
  /**
   * `app`: the App's JWT; `token`: an installation token or a token from `createToken`; `none`:
   * no credential at all (the manifest conversion, whose one-time code is the credential).
   */
  auth: "app" | "token" | "none";
  /**
   * The token permission GitHub requires; `metadata` read is implied for every token. A function
   * when it depends on what the path names (labels and comments take `pull_requests` on a pull
   * request's number only); it may throw NotFound.
   */
  permission?: Permission | ((ctx: Ctx) => Permission);
  handle: (ctx: Ctx) => Reply | Promise<Reply>;
}

export type OperationTable = Record<string, Operation>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const DOCS = "https://docs.github.com/rest";

export function errorBody(status: number, message: string, extra: Record<string, unknown> = {}) {
  return { message, documentation_url: DOCS, status: String(status), ...extra };
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, json: body, headers } : { status, json: body };
}

/** The token, or a 403 for an operation that needs one (checked in the router beforehand). */
export function tokenOf(ctx: Ctx): Token {
  if (ctx.credential.kind !== "token") throw new HttpError(403, "Requires a token");
  return ctx.credential.token;
}

/**
 * The repository named by the path, as the caller may see it. A token for another account's
 * installation gets 404, as GitHub hides repositories an installation cannot access.
 */
export function repoOf(ctx: Ctx): Repository {
  const owner = ctx.params.owner ?? "";
  const name = ctx.params.repo ?? "";
  let repo: Repository;
  try {
    repo = ctx.world.repo(owner, name);
  } catch {
    throw new NotFound("Not Found");
  }
  if (ctx.credential.kind === "token") {
    const { installationId } = ctx.credential.token;
    if (installationId !== undefined && ctx.world.installationFor(repo)?.id !== installationId) {
      throw new NotFound("Not Found");
    }
  }
  return repo;
}

export function checkPermission(token: Token, needed: Permission): boolean {
  const alternatives =
    typeof needed[0] === "string"
      ? [needed as [string, TokenPermission]]
      : (needed as readonly [string, TokenPermission][]);
  // GitHub grants metadata: read to every installation token, fine-grained token and workflow token.
  return alternatives.some(
    ([name, level]) =>
      (name === "metadata" && level === "read") || covers(token.permissions[name], level),
  );
}

export function numberParam(ctx: Ctx, name: string): number {
  const value = Number(ctx.params[name]);
  if (!Number.isInteger(value)) throw new NotFound("Not Found");
  return value;
}

export function queryString(ctx: Ctx, name: string): string | undefined {
  const value = ctx.query[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * One page of `items` with GitHub's Link header, so Octokit's paginate() walks it. `defaultPerPage`
 * is the page's size when the request names none (30 for listings; a commit's files, 300); the
 * links carry `per_page` only when the request did, as GitHub's do.
 */
export function paginate<T>(
  ctx: Ctx,
  items: T[],
  defaultPerPage = 30,
): { page: T[]; headers: Record<string, string> } {
  const asked = queryString(ctx, "per_page");
  const perPage =
    asked === undefined ? defaultPerPage : Math.min(Number(asked) || defaultPerPage, 100);
  const pageNumber = Math.max(Number(queryString(ctx, "page") ?? 1) || 1, 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const page = items.slice((pageNumber - 1) * perPage, pageNumber * perPage);
  const headers: Record<string, string> = {};
  const host = ctx.headers.host ?? "127.0.0.1";
  const path = ctx.url;
  if (last > 1) {
    const link = (n: number, rel: string) => {
      const url = new URL(path, `http://${host}`);
      if (asked !== undefined) url.searchParams.set("per_page", String(perPage));
      url.searchParams.set("page", String(n));
      return `<${url.toString()}>; rel="${rel}"`;
    };
    const links: string[] = [];
    if (pageNumber < last) links.push(link(pageNumber + 1, "next"), link(last, "last"));
    if (pageNumber > 1) links.push(link(1, "first"), link(pageNumber - 1, "prev"));
    if (links.length > 0) headers.link = links.join(", ");
  }
  return { page, headers };
}

/** One page of a plain JSON array listing, each item as `toJson` renders it, with the Link header. */
export function listPage<T>(ctx: Ctx, items: T[], toJson: (item: T) => unknown): Reply {
  const { page, headers } = paginate(ctx, items);
  return json(200, page.map(toJson), headers);
}

/**
 * One page of a listing GitHub wraps in an object, `{total_count, <key>: [...]}`, with the Link
 * header; `total_count` counts every item, not the page's.
 */
export function countedPage<T>(
  ctx: Ctx,
  key: string,
  items: T[],
  toJson: (item: T) => unknown,
): Reply {
  const { page, headers } = paginate(ctx, items);
  return json(200, { total_count: items.length, [key]: page.map(toJson) }, headers);
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function bodyOf(ctx: Ctx): Record<string, unknown> {
  return isJsonObject(ctx.body) ? ctx.body : {};
}
