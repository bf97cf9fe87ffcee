// openapi-backend's router rebuilds the list of every operation of GitHub's description (about a
// thousand, through lodash) each time it is asked for one, and compiles a regular expression per
// operation per request: several times per request, since validating the request and the
// response each look the operation up again. A profile of the end-to-end tests put a third of
// their time there. The description does not change after start-up, so the list, the lookup by
// operation id and the path patterns are computed once per description. Matching keeps the
// library's rules exactly: an exact path first, then templates ordered by their literal length.
import { createRequire } from "node:module";

interface Operation {
  path: string;
  method: string;
  operationId?: string;
}

interface Router {
  definition: object | undefined;
  getOperations(): Operation[];
  getOperation(operationId: string): Operation | undefined;
  matchOperation(req: unknown, strict?: boolean): Operation | undefined;
  normalizeRequest(req: unknown): { path: string; method: string };
  normalizePath(path: string): string;
  isUnderApiRoot(path: string): boolean;
}

interface Compiled {
  operations: Operation[];
  byId: Map<string, Operation>;
  exact: Map<string, Operation[]>;
  /** Template operations, ordered as the library orders matches: longest literal part first. */
  templates: { operation: Operation; pattern: RegExp }[];
}

// The copy of openapi-backend the simulator library loads (there is one in node_modules).
const require = createRequire(import.meta.url);
const { OpenAPIRouter } = require("openapi-backend/router.js") as {
  OpenAPIRouter: { prototype: Router };
};

const escapeRegExp = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .replace(/\{[^}]+\}/g, "\0")
      .split("\0")
      .map(escapeRegExp)
      .join("[^/]+")}$`,
  );
const literalLength = (path: string) => path.replace(/\{.*?\}/g, "").length;

let patched = false;

/** Makes every openapi-backend router compute its operations once per description. */
export function speedUpOpenApiRouter(): void {
  if (patched) return;
  patched = true;
  const proto = OpenAPIRouter.prototype;
  const buildOperations = proto.getOperations;
  const cache = new WeakMap<object, Compiled>();
  const compiled = (router: Router): Compiled => {
    const key = router.definition ?? router;
    let found = cache.get(key);
    if (!found) {
      const operations = buildOperations.call(router);
      const exact = new Map<string, Operation[]>();
      for (const operation of operations) {
        exact.set(operation.path, [...(exact.get(operation.path) ?? []), operation]);
      }
      found = {
        operations,
        byId: new Map(
          operations.flatMap((op) => (op.operationId ? [[op.operationId, op] as const] : [])),
        ),
        exact,
        // A stable sort, as lodash's orderBy is: equal lengths keep the description's order.
        templates: operations
          .map((operation) => ({ operation, pattern: patternOf(operation.path) }))
          .sort((a, b) => literalLength(b.operation.path) - literalLength(a.operation.path)),
      };
      cache.set(key, found);
    }
    return found;
  };
  proto.getOperations = function (this: Router) {
    return compiled(this).operations;
  };
  proto.getOperation = function (this: Router, operationId: string) {
    return compiled(this).byId.get(operationId);
  };
  proto.matchOperation = function (this: Router, input: unknown, strict?: boolean) {
    const req = this.normalizeRequest(input);
    const fail = (message: string) => {
      if (strict) throw new Error(message);
      return undefined;
    };
    if (!this.isUnderApiRoot(req.path)) return fail("404-notFound: no route matches request");
    const path = this.normalizePath(req.path);
    const { exact, templates } = compiled(this);
    const exactMatch = exact.get(path)?.find((op) => op.method === req.method);
    if (exactMatch) return exactMatch;
    const matching = templates.filter((t) => t.pattern.test(path));
    if (matching.length === 0) return fail("404-notFound: no route matches request");
    const match = matching.find((t) => t.operation.method === req.method)?.operation;
    return match ?? fail("405-methodNotAllowed: this method is not registered for the route");
  };
}
