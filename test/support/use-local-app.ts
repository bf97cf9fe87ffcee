/** Tests only: the App in this process, with a temp dir per test, closed and removed after it. */
import { afterEach, beforeEach } from "vitest";
import { agateObserve, agateRoute } from "../../app/compose.js";
import { type Agate, type StartAgateOptions, startAgate } from "../../app/runtime/server.js";
import { localAppEnv } from "./local-app.js";
import { tempDir } from "./store.js";

export interface LocalApp {
  /** This test's temp dir, where the App's database goes. */
  readonly dir: string;
  /** localAppEnv in this test's dir. */
  env(overrides?: Record<string, string>): Record<string, string>;
  /** startAgate with `env()`, the App's route and no handlers unless given; closed after the test. */
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
      const agate = await startAgate({
        env: env(),
        route: agateRoute,
        observe: agateObserve,
        ...options,
      });
      test.started.push(agate);
      return agate;
    },
  };
}
