/**
 * Vitest globalSetup: one PostgreSQL server for the whole run, and on it one database migrated
 * once to agate's schema: the template each contract test copies into a database of its own
 * (test/support/store.ts). Stopped and removed when the run ends. AGATE_TEST_POSTGRES_URL
 * points the tests at a server of your own instead (a CI service container, say; its user needs
 * CREATEDB): the run then creates and drops databases named agate_test_* and agate_template_*.
 */
import pg from "pg";
import type { TestProject } from "vitest/node";
import { PostgresStore } from "../../app/store/postgres/postgres-store.js";
import { startPostgresServer } from "./postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server the contract suites use (its maintenance database). */
    postgresUrl: string;
    /** The database, migrated to the newest schema, that each test's database is copied from. */
    postgresTemplate: string;
  }
}

/** The URL of another database on the same server. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const external = process.env.AGATE_TEST_POSTGRES_URL?.trim();
  const server = external ? undefined : await startPostgresServer();
  const url = external || (server?.url as string);
  const template = `agate_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const store = await PostgresStore.open({ url: databaseUrl(url, template) });
    await store.close();
  } catch (error) {
    await admin.end().catch(() => undefined);
    await server?.stop();
    throw error;
  }
  await admin.end();
  if (process.env.AGATE_TEST_POSTGRES_TIMING) {
    console.log(`PostgreSQL for the tests ready in ${Date.now() - started} ms`);
  }
  project.provide("postgresUrl", url);
  project.provide("postgresTemplate", template);
  return async () => {
    if (server) return server.stop();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${template}`);
    await client.end();
  };
}
