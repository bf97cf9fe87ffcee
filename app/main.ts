/**
 * `npm start`: the agate App. Settings come from the environment (and a `.env` file in the
 * working directory, for local runs; a variable set in the environment wins over the file).
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as util from "node:util";
import { gateJobHandlers } from "./gate/job-handlers.js";
import { startAgate } from "./runtime/server.js";
import { type Environment, loadSetupSettings, unregistered } from "./runtime/settings.js";
import { startSetup } from "./runtime/setup.js";

function environment(): Environment {
  const file = resolve(".env");
  if (!existsSync(file)) return process.env;
  // util.parseEnv is Node 20.12+; a named import would fail to link on older Node 20.
  if (typeof util.parseEnv !== "function") {
    console.error(
      `${file} is ignored: reading .env needs Node 20.12 or later; set the variables in the environment`,
    );
    return process.env;
  }
  return { ...util.parseEnv(readFileSync(file, "utf8")), ...process.env };
}

// Not registered yet: serve GitHub's manifest flow; once a person registered the App, its
// credentials are in .env and the App starts with them, in this same process.
if (unregistered(environment())) {
  try {
    const setup = await startSetup({
      settings: loadSetupSettings(environment()),
      cwd: process.cwd(),
    });
    await setup.registered;
    await setup.close();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

let agate: Awaited<ReturnType<typeof startAgate>>;
try {
  agate = await startAgate({ env: environment(), handlers: gateJobHandlers });
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
