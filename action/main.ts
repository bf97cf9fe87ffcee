import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import * as core from "@actions/core";
import { parseConfig } from "../checks/config/parse-config.js";
import { ConfigurationError } from "../checks/errors.js";
import { CONFIG_PATH } from "../schemas/config.js";
import { AGATE_VERSION } from "../schemas/version.js";

/**
 * The Action's entry point. This release validates the config and reports it; running the
 * required commands and publishing the command record come with the Action's own issue.
 */
export async function run(): Promise<void> {
  try {
    const workingDirectory = core.getInput("working-directory") || ".";
    const configPath = core.getInput("config") || CONFIG_PATH;
    const file = resolve(workingDirectory, configPath);

    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        core.info(
          `agate: no ${configPath} here, so this repository has not adopted agate; nothing to do.`,
        );
        return;
      }
      throw error;
    }

    const { config, digest } = parseConfig(text, configPath);
    core.setOutput("config-digest", digest);
    core.info(`agate ${AGATE_VERSION}: ${configPath} is valid (digest ${digest}).`);
    for (const command of config.commands) core.info(`  required: ${command.name}: ${command.run}`);
    core.warning(
      "agate: this version validates the config only; it does not run the required commands yet.",
    );
  } catch (error) {
    if (error instanceof ConfigurationError) {
      for (const problem of error.problems) {
        core.error(problem.path ? `${problem.path}: ${problem.message}` : problem.message, {
          title: "agate config",
          file: error.file,
          startLine: problem.line,
          startColumn: problem.column,
        });
      }
    }
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}
