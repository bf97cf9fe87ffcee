/**
 * `npm start`: the agate App. Settings come from the environment (and a `.env` file in the
 * working directory, for local runs; a variable set in the environment wins over the file).
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as util from "node:util";
import { agateDomains } from "./compose.js";
import type { EnvFile, Environment } from "./kit/env.js";
import { startRegistration } from "./runtime/registration.js";
import { startAgate } from "./runtime/server.js";
import { loadSetupSettings, unregistered } from "./runtime/settings.js";

/** The environment, with `.env` under it, and which names came from the file (for errors). */
function environment(): { env: Environment; envFile?: EnvFile } {
  const file = resolve(".env");
  if (!existsSync(file)) return { env: process.env };
  // util.parseEnv is Node 20.12+; a named import would fail to link on older Node 20.
  if (typeof util.parseEnv !== "function") {
    console.error(
      `${file} is ignored: reading .env needs Node 20.12 or later (agate needs 22); set the variables in the environment`,
    );
    return { env: process.env };
  }
  const fromFile = util.parseEnv(readFileSync(file, "utf8"));
  const names = Object.keys(fromFile).filter((name) => process.env[name] === undefined);
  return { env: { ...fromFile, ...process.env }, envFile: { path: file, names } };
}

// Not registered yet: serve GitHub's manifest flow; once a person registered the App, its
// credentials are in .env and the App starts with them, in this same process.
if (unregistered(environment().env)) {
  try {
    const { env, envFile } = environment();
    const registration = await startRegistration({
      settings: loadSetupSettings(env, envFile),
      cwd: process.cwd(),
    });
    await registration.registered;
    await registration.close();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

let agate: Awaited<ReturnType<typeof startAgate>>;
try {
  agate = await startAgate({ ...environment(), ...agateDomains });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) {
    console.error(`${signal} again: exiting now; leased jobs run again after their lease`);
    process.exit(1);
  }
  stopping = true;
  agate.log.info({ signal }, "no new requests; waiting for running jobs, then exiting");
  try {
    await agate.close();
    process.exit(0);
  } catch (error) {
    console.error(`agate did not shut down cleanly: ${(error as Error).message}`);
    process.exit(1);
  }
}
process.on("SIGTERM", (signal) => void shutdown(signal));
process.on("SIGINT", (signal) => void shutdown(signal));
