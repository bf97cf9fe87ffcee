// Organisation and team membership, for rules such as "a maintainer is a member of team X".
import * as s from "../serialize.js";
import { NotFound } from "../world.js";
import { json, type OperationTable } from "./context.js";

export const orgOperations: OperationTable = {
  "orgs/list-app-installations": {
    auth: "token",
    permission: ["organization_administration", "read"],
    handle: (ctx) => {
      const org = (ctx.params.org ?? "").toLowerCase();
      const items = [...ctx.world.installations.values()].filter(
        (item) => item.account.login.toLowerCase() === org,
      );
      return json(200, {
        total_count: items.length,
        installations: items.map((item) => s.installation(ctx.world.urls, item, ctx.world.app)),
      });
    },
  },
  "teams/get-membership-for-user-in-org": {
    auth: "token",
    permission: ["members", "read"],
    handle: (ctx) => {
      const org = ctx.params.org ?? "";
      const slug = ctx.params.team_slug ?? "";
      const login = ctx.params.username ?? "";
      const team = ctx.world.teams.get(`${org.toLowerCase()}/${slug.toLowerCase()}`);
      const role = team?.members.get(login.toLowerCase());
      if (!team || !role) throw new NotFound("Not Found");
      return json(200, {
        url: `${ctx.world.urls.api}/organizations/${team.id}/team/${team.id}/memberships/${login}`,
        role,
        state: "active",
      });
    },
  },

  "orgs/check-membership-for-user": {
    auth: "token",
    permission: ["members", "read"],
    handle: (ctx) => {
      const org = (ctx.params.org ?? "").toLowerCase();
      const login = (ctx.params.username ?? "").toLowerCase();
      const member = [...ctx.world.teams.values()].some(
        (team) => team.org.toLowerCase() === org && team.members.has(login),
      );
      if (!member) throw new NotFound("Not Found");
      return { status: 204, raw: "", contentType: "text/plain" };
    },
  },
};
