import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { openStore, parseDatabaseUrl } from "../app/store/open-store.js";
import { PostgresStore } from "../app/store/postgres/postgres-store.js";
import { freshPostgresDatabase } from "./support/store.js";

/**
 * No container engine runs on these machines, so compose.yaml is not started here: it is held to
 * what it must do (the App built from this repository's Dockerfile, on the PostgreSQL service,
 * started once that answers, with no password written in it), and the URL it gives the App is
 * opened, with its options, against the tests' own PostgreSQL server.
 */
const ROOT = resolve(import.meta.dirname, "..");
interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  ports?: string[];
}
const compose = parse(readFileSync(join(ROOT, "compose.yaml"), "utf8")) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
// Compose's own interpolation syntax, as the file spells it.
const PASSWORD = ["$", "{POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}"].join("");

describe("compose.yaml", () => {
  const { agate, postgres } = compose.services;

  it("builds the App from the Dockerfile and starts it once PostgreSQL answers", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["agate", "postgres"]);
    expect(agate?.build).toBe(".");
    expect(agate?.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    expect(postgres?.healthcheck?.test.slice(0, 2)).toEqual(["CMD", "pg_isready"]);
    // Pinned to a major version and a Debian release, never `latest`.
    expect(postgres?.image).toMatch(/^postgres:\d+-bookworm$/);
    expect(postgres?.volumes?.[0]).toMatch(/^agate-postgres:/);
    expect(Object.keys(compose.volumes)).toEqual(["agate-postgres", "agate-data"]);
    // The database is not published.
    expect(postgres?.ports).toBeUndefined();
  });

  it("publishes the App on a fixed port of the host's loopback, the port the image listens on", () => {
    // A bare "3000" would publish a random host port, which no proxy or webhook URL can name.
    expect(agate?.ports).toEqual(["127.0.0.1:3000:3000"]);
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/^EXPOSE 3000$/m);
    expect(dockerfile).toMatch(/^\s*PORT=3000 \\$/m);
    expect(readFileSync(join(ROOT, "docs", "operations.md"), "utf8")).toContain("`127.0.0.1:3000`");
  });

  it("keeps the image's data directory on a named volume: the registration's .env outlives the container", () => {
    expect(agate?.volumes).toEqual(["agate-data:/data"]);
    expect(readFileSync(join(ROOT, "Dockerfile"), "utf8")).toMatch(/^WORKDIR \/data$/m);
  });

  it("writes no password: both services take it from the environment, and refuse to start without it", () => {
    expect(postgres?.environment?.POSTGRES_PASSWORD).toBe(PASSWORD);
    expect(agate?.environment?.AGATE_DATABASE_URL).toContain(`agate:${PASSWORD}@postgres:5432/`);
  });

  it("gives the App a URL it opens as PostgreSQL, with the same user, database and options", async () => {
    const template = agate?.environment?.AGATE_DATABASE_URL ?? "";
    const composed = new URL(template.replace(PASSWORD, "pw"));
    expect(parseDatabaseUrl(composed.toString()).kind).toBe("postgres");
    expect(composed.username).toBe(postgres?.environment?.POSTGRES_USER);
    expect(composed.pathname).toBe(`/${postgres?.environment?.POSTGRES_DB}`);
    // The same URL, with the tests' server in place of the compose network's host and account.
    const database = await freshPostgresDatabase({ empty: true });
    try {
      const here = new URL(database.url);
      here.search = composed.search;
      const store = await openStore({ url: here.toString() });
      expect(store).toBeInstanceOf(PostgresStore);
      await store.close();
    } finally {
      await database.drop();
    }
  });
});
