// App endpoints, authenticated with the App's JWT, including the installation token flow that
// @octokit/auth-app performs (POST /app/installations/{id}/access_tokens).
import * as s from "../serialize.js";
import type { Installation, TokenPermission } from "../state.js";
import {
  bodyOf,
  type Ctx,
  HttpError,
  isJsonObject,
  json,
  numberParam,
  type OperationTable,
  type Reply,
} from "./context.js";

/** An installation as GitHub shows it to its App, or 404 when there is none. */
function installationReply(ctx: Ctx, found: Installation | undefined): Reply {
  if (!found) throw new HttpError(404, "Not Found");
  return json(200, s.installation(ctx.world.urls, found, ctx.world.app));
}

export const appOperations: OperationTable = {
  "apps/get-by-slug": {
    auth: "token",
    handle: (ctx) => {
      if (ctx.params.app_slug !== ctx.world.app.slug) throw new HttpError(404, "Not Found");
      return json(200, s.integration(ctx.world.urls, ctx.world.app));
    },
  },
  "apps/get-authenticated": {
    auth: "app",
    handle: ({ world }) => json(200, s.integration(world.urls, world.app)),
  },

  "apps/create-from-manifest": {
    auth: "none",
    handle: (ctx) => {
      // The code is the credential, and GitHub takes each once.
      const code = ctx.params.code ?? "";
      const app = ctx.world.manifestConversions.get(code);
      if (!app) throw new HttpError(404, "Not Found");
      ctx.world.manifestConversions.delete(code);
      return json(201, app);
    },
  },

  "apps/list-installations": {
    auth: "app",
    handle: ({ world }) =>
      json(
        200,
        [...world.installations.values()].map((item) =>
          s.installation(world.urls, item, world.app),
        ),
      ),
  },

  "apps/get-installation": {
    auth: "app",
    handle: (ctx) => {
      return installationReply(
        ctx,
        ctx.world.installations.get(numberParam(ctx, "installation_id")),
      );
    },
  },

  "apps/get-repo-installation": {
    auth: "app",
    handle: (ctx) => {
      const { world } = ctx;
      let found: ReturnType<typeof world.installationFor>;
      try {
        found = world.installationFor(world.repo(ctx.params.owner ?? "", ctx.params.repo ?? ""));
      } catch {
        found = undefined;
      }
      return installationReply(ctx, found);
    },
  },

  "apps/get-org-installation": {
    auth: "app",
    handle: (ctx) => {
      const login = (ctx.params.org ?? "").toLowerCase();
      const found = [...ctx.world.installations.values()].find(
        (item) => item.account.login.toLowerCase() === login,
      );
      return installationReply(ctx, found);
    },
  },

  "apps/create-installation-access-token": {
    auth: "app",
    handle: (ctx) => {
      const { world } = ctx;
      const found = world.installations.get(numberParam(ctx, "installation_id"));
      if (!found) throw new HttpError(404, "Not Found");
      const body = bodyOf(ctx);
      const requested = isJsonObject(body.permissions)
        ? (body.permissions as Record<string, TokenPermission>)
        : undefined;
      const token = world.mintInstallationToken(found, requested);
      return json(201, {
        token: token.token,
        expires_at: token.expiresAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
        permissions: token.permissions,
        repository_selection: "all",
      });
    },
  },
};
