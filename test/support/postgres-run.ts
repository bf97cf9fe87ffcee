/**
 * The run's one PostgreSQL server, started lazily: by the first test worker that asks for it
 * (so a run without a PostgreSQL test never pays for one), shared with every later worker
 * through files in the run's directory (the globalSetup makes it, and stops the server at the
 * end), and on it one database migrated once to agate's newest schema, which each test copies.
 * AGATE_TEST_POSTGRES_URL points the run at a server of your own instead (a CI service
 * container, say; its user needs CREATEDB): it then creates and drops databases named
 * agate_test_* and agate_template_* there.
 */
import { existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { PostgresStore } from "../../app/store/postgres/postgres-store.js";
import { startPostgresServer, stopPostgresServer } from "./postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the run's workers agree on its PostgreSQL server (postgres-global-setup.ts). */
    postgresRunDir: string;
    /** The run's main process: the server is killed if it dies without stopping it. */
    vitestPid: number;
  }
}

export interface SharedPostgres {
  /** The server's maintenance database. */
  url: string;
  /** The database, migrated to the newest schema, that each test's database is copied from. */
  template: string;
  /** Set when this run started the server (not AGATE_TEST_POSTGRES_URL's). */
  pid?: number;
  root?: string;
}

/** The URL of another database on the same server. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
let shared: Promise<SharedPostgres> | undefined;

/** The run's server, started by this call if no worker has started it yet. */
export function sharedPostgres(): Promise<SharedPostgres> {
  shared ??= findOrStart(inject("postgresRunDir"), inject("vitestPid"));
  return shared;
}

async function findOrStart(dir: string, vitestPid: number): Promise<SharedPostgres> {
  const ready = join(dir, "server.json");
  const failed = join(dir, "failed");
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (existsSync(ready)) return JSON.parse(readFileSync(ready, "utf8")) as SharedPostgres;
    if (existsSync(failed)) throw new Error(readFileSync(failed, "utf8"));
    try {
      // Whoever creates this file starts the server; the others wait for server.json.
      openSync(join(dir, "starting"), "wx");
    } catch {
      if (Date.now() > deadline) {
        throw new Error(`no PostgreSQL server for the tests after 180 s (see ${dir})`);
      }
      await sleep(50);
      continue;
    }
    try {
      const server = await start(vitestPid);
      writeFileSync(`${ready}.tmp`, JSON.stringify(server));
      renameSync(`${ready}.tmp`, ready);
      return server;
    } catch (error) {
      writeFileSync(failed, `PostgreSQL for the tests did not start: ${(error as Error).message}`);
      throw error;
    }
  }
}

async function start(vitestPid: number): Promise<SharedPostgres> {
  const started = Date.now();
  const external = process.env.AGATE_TEST_POSTGRES_URL?.trim();
  const server = external ? undefined : await startPostgresServer({ watchPid: vitestPid });
  const url = external || (server?.url as string);
  const template = `agate_template_${vitestPid}`;
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const store = await PostgresStore.open({ url: databaseUrl(url, template) });
    await store.close();
  } catch (error) {
    if (server) await stopPostgresServer(server);
    throw error;
  } finally {
    await admin.end().catch(() => undefined);
  }
  if (process.env.AGATE_TEST_POSTGRES_TIMING) {
    console.log(`PostgreSQL for the tests ready in ${Date.now() - started} ms`);
  }
  return server ? { url, template, pid: server.pid, root: server.root } : { url, template };
}

/** At the end of the run: stops the server this run started (or drops its template), if any. */
export async function endSharedPostgres(dir: string): Promise<void> {
  const ready = join(dir, "server.json");
  if (existsSync(ready)) {
    const server = JSON.parse(readFileSync(ready, "utf8")) as SharedPostgres;
    if (server.pid !== undefined && server.root !== undefined) {
      await stopPostgresServer({ pid: server.pid, root: server.root });
    } else {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${server.template} WITH (FORCE)`);
      await client.end();
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
