/**
 * Tests and benchmarks: the settings of an App started in this process (startAgate) on a free
 * local port, a temp dir and the Apps a test started cleaned up after it, and webhook deliveries
 * signed as GitHub signs them.
 */
import { join } from "node:path";
import { sign } from "@octokit/webhooks-methods";
import { afterEach, beforeEach } from "vitest";
import {
  type Agate,
  type StartAgateOptions,
  startAgate,
  WEBHOOKS_PATH,
} from "../../app/runtime/server.js";
import { generateAppKeys } from "../github/auth.js";
import { tempDir } from "./store.js";

let privateKey: string | undefined;

/** An App private key (PKCS#8 PEM), made once per process: an RSA key takes a while. */
export function appPrivateKey(): string {
  privateKey ??= generateAppKeys().privateKey;
  return privateKey;
}

/**
 * The environment of an App on 127.0.0.1 and a free port (PORT=0), silent, with its database
 * in `dir`; `overrides` add or replace variables.
 */
export function localAppEnv(
  dir: string,
  secret: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    APP_ID: "42",
    PRIVATE_KEY: appPrivateKey(),
    WEBHOOK_SECRET: secret,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    AGATE_DATABASE_URL: `file:${join(dir, "agate.db")}`,
    ...overrides,
  };
}

export interface LocalApp {
  /** This test's temp dir, where the App's database goes. */
  readonly dir: string;
  /** localAppEnv in this test's dir. */
  env(overrides?: Record<string, string>): Record<string, string>;
  /** startAgate with `env()` and no handlers unless given; closed after the test. */
  start(options?: Partial<StartAgateOptions>): Promise<Agate>;
}

/** Registers a fresh temp dir per test, and closes every App the test started, then removes the dir. */
export function useLocalApp(secret: string): LocalApp {
  let current: { dir: string; cleanup: () => void; started: Agate[] } | undefined;
  beforeEach(() => {
    current = { ...tempDir(), started: [] };
  });
  afterEach(async () => {
    const test = current;
    current = undefined;
    for (const agate of test?.started ?? []) await agate.close();
    test?.cleanup();
  });
  const need = () => {
    if (!current) throw new Error("useLocalApp's dir and Apps are only there inside a test");
    return current;
  };
  const env = (overrides: Record<string, string> = {}) =>
    localAppEnv(need().dir, secret, overrides);
  return {
    get dir() {
      return need().dir;
    },
    env,
    async start(options = {}) {
      const test = need();
      const agate = await startAgate({ env: env(), handlers: {}, ...options });
      test.started.push(agate);
      return agate;
    },
  };
}

/** POSTs `body` to the App at `url` as GitHub delivers it, signed with `secret`; the answer's status. */
export async function postDelivery(
  url: string,
  delivery: { event: string; id: string; body: string },
  secret: string,
): Promise<number> {
  const response = await fetch(`${url}${WEBHOOKS_PATH}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": delivery.event,
      "x-github-delivery": delivery.id,
      "x-hub-signature-256": await sign(secret, delivery.body),
    },
    body: delivery.body,
  });
  await response.arrayBuffer();
  return response.status;
}
