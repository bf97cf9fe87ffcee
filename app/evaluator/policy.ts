import type { CommandEvaluatorConfig, LlmEvaluatorConfig } from "./judge.js";

/**
 * What the App's operator allows repositories to make it do. The evaluator config comes from a
 * repository's base branch, and anyone can install the App: without these lists, a repository
 * could make the App run any program on its host (`evaluator.run`) or send the operator's API key
 * to any URL (`evaluator.base_url`).
 */
export interface EvaluatorPolicy {
  /** Base URLs besides the providers' public endpoints (AGATE_EVALUATOR_BASE_URLS). */
  baseUrls: readonly string[];
  /** Exact `evaluator.run` strings the App may execute (AGATE_EVALUATOR_COMMANDS). */
  commands: readonly string[];
}

const normalUrl = (url: string) => url.trim().replace(/\/+$/, "");

/** null when allowed; otherwise what is refused and the exact setting that allows it. */
export function policyRefusal(
  config: LlmEvaluatorConfig | CommandEvaluatorConfig,
  policy: EvaluatorPolicy,
): { error: string; fix: string } | null {
  if (config.kind === "llm") {
    if (config.base_url === undefined) return null;
    const url = normalUrl(config.base_url);
    if (policy.baseUrls.some((allowed) => normalUrl(allowed) === url)) return null;
    return {
      error: `evaluator.base_url ${url} is not an endpoint this App may call`,
      fix: `the App's operator adds ${url} to AGATE_EVALUATOR_BASE_URLS (comma-separated), or remove evaluator.base_url from .github/agate.yml on the base branch to use the provider's public endpoint`,
    };
  }
  if (policy.commands.includes(config.run)) return null;
  return {
    error: `evaluator.run ${JSON.stringify(config.run)} is not a command this App may execute`,
    fix: "the App's operator lists that exact command, one per line, in AGATE_EVALUATOR_COMMANDS, or set evaluator.kind to llm or review in .github/agate.yml on the base branch",
  };
}

/**
 * Parses the two lists: comma- or newline-separated URLs, newline-separated commands. Called by
 * the evaluator's settings (app/evaluator/settings.ts), read from the environment once, at the
 * App's start, which check each command there.
 */
export function parseEvaluatorPolicy(
  env: Readonly<Record<string, string | undefined>>,
): EvaluatorPolicy {
  const list = (text: string | undefined, separator: RegExp) =>
    (text ?? "")
      .split(separator)
      .map((item) => item.trim())
      .filter((item) => item !== "");
  return {
    baseUrls: list(env.AGATE_EVALUATOR_BASE_URLS, /[,\n]/),
    commands: list(env.AGATE_EVALUATOR_COMMANDS, /\n/),
  };
}

// ---------------------------------------------------------------------------------------------
// The command evaluator's sandbox, as the operator sets it up.

/** How the `command` evaluator's sandbox is set up (app/evaluator/sandbox.ts builds it). */
export interface CommandSandboxSettings {
  /** bubblewrap: an absolute path, or a name looked up on the App's PATH (AGATE_EVALUATOR_BWRAP). */
  bwrap: string;
  /** `none`: a network namespace of its own, loopback only; `allow`: the host's network (AGATE_EVALUATOR_COMMAND_NETWORK). */
  network: "none" | "allow";
  /** Host files and directories bound read-only at the same path, besides the system's (AGATE_EVALUATOR_COMMAND_PATHS). */
  paths: readonly string[];
  /** Names of the App's environment variables handed to the command (AGATE_EVALUATOR_COMMAND_ENV). */
  env: readonly string[];
}

/** A directory or file of the App's own: never shown to the command. */
export interface AppPlace {
  path: string;
  /** What it holds, for the refusal: "the App's private key". */
  what: string;
}

/**
 * The sandbox as the App's start set it up: the operator's settings, and what the sandbox takes
 * from the App's environment, captured then as values (app/evaluator/settings.ts), so that nothing
 * reads the environment later.
 */
export interface CommandSandbox extends CommandSandboxSettings {
  /** Where a bwrap given by name is looked up: the App's PATH (the system's directories when unset). */
  searchPath: string;
  /** The variables `env` names, with their values in the App's environment; unset ones are absent. */
  passEnv: Readonly<Record<string, string>>;
  /**
   * The App's own places (HOME, the private key's directory, the database's, the settings'
   * working directory): never bound, covered where a bound path holds them. The process's
   * working directory and its user's home are added where the sandbox is built.
   */
  appPlaces: readonly AppPlace[];
}

/**
 * The App's own secrets: never handed to a child, whatever the operator lists. With the private
 * key or the webhook secret, a command could act as the App on every installation; with the
 * database URL, read every repository's records; with the evaluator's key, spend the operator's
 * money at will. Every AGATE_ setting is refused too (the evaluator key among them).
 */
const APP_SECRETS = new Set([
  "PRIVATE_KEY",
  "PRIVATE_KEY_PATH",
  "WEBHOOK_SECRET",
  "WEBHOOK_PROXY_URL",
  "GITHUB_CLIENT_ID",
  "GITHUB_CLIENT_SECRET",
  "CLIENT_SECRET",
  "DATABASE_URL",
]);

export function isAppSecretName(name: string): boolean {
  return APP_SECRETS.has(name.toUpperCase()) || /^AGATE_/i.test(name);
}

/** Places the sandbox can never be given: it makes its own /proc and /dev, and / is everything. */
const UNBINDABLE = ["/", "/proc", "/sys", "/dev"];
/** Directories too broad to list whole: each holds the host's or its users' secrets. */
const TOO_BROAD = ["/etc", "/home", "/root", "/var", "/run", "/tmp", "/opt", "/srv", "/usr"];

const items = (text: string | undefined) =>
  (text ?? "")
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== "");

/**
 * Parses the sandbox settings. Every problem is returned, each naming the setting and what to
 * set it to; the App refuses to start while there is one (app/runtime/settings.ts).
 */
export function commandSandboxSettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; settings: CommandSandboxSettings } | { ok: false; problems: string[] } {
  const problems: string[] = [];

  const bwrap = env.AGATE_EVALUATOR_BWRAP?.trim() || "bwrap";
  if (bwrap.includes("/") && !bwrap.startsWith("/")) {
    problems.push(
      `AGATE_EVALUATOR_BWRAP is ${JSON.stringify(bwrap)}: give bubblewrap's absolute path (such as /usr/bin/bwrap), or leave it unset to find bwrap on the App's PATH`,
    );
  }

  const networkText = (env.AGATE_EVALUATOR_COMMAND_NETWORK?.trim() || "none").toLowerCase();
  if (networkText !== "none" && networkText !== "allow") {
    problems.push(
      `AGATE_EVALUATOR_COMMAND_NETWORK is ${JSON.stringify(env.AGATE_EVALUATOR_COMMAND_NETWORK)}: set it to none (no network, the default) or allow (the App host's network, for a CLI agent that calls its model)`,
    );
  }

  const paths = items(env.AGATE_EVALUATOR_COMMAND_PATHS);
  for (const path of paths) {
    const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
    if (!clean.startsWith("/") || /(^|\/)\.\.?(\/|$)/.test(clean) || clean.includes("//")) {
      problems.push(
        `AGATE_EVALUATOR_COMMAND_PATHS names ${JSON.stringify(path)}: list absolute paths without . or .. (such as /opt/judge), separated by commas`,
      );
    } else if (
      UNBINDABLE.some((p) => clean === p || (p !== "/" && clean.startsWith(`${p}/`))) ||
      TOO_BROAD.includes(clean)
    ) {
      problems.push(
        `AGATE_EVALUATOR_COMMAND_PATHS names ${clean}, which the sandbox never shows: list only the program's own directory (such as /opt/judge)`,
      );
    }
  }

  const names = items(env.AGATE_EVALUATOR_COMMAND_ENV);
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      problems.push(
        `AGATE_EVALUATOR_COMMAND_ENV names ${JSON.stringify(name)}: list variable names (such as ANTHROPIC_API_KEY), separated by commas`,
      );
    } else if (isAppSecretName(name)) {
      problems.push(
        `AGATE_EVALUATOR_COMMAND_ENV names ${name}, one of the App's own settings, which no child process ever gets: remove it (give the command a key of its own under another name)`,
      );
    }
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    settings: {
      bwrap,
      network: networkText as "none" | "allow",
      paths: paths.map((p) => (p.length > 1 ? p.replace(/\/+$/, "") : p)),
      env: [...new Set(names)],
    },
  };
}

/** AGATE_EVALUATOR_API_KEY_URL: the endpoints AGATE_EVALUATOR_API_KEY may be sent to. */
export function apiKeyUrlsFrom(env: Readonly<Record<string, string | undefined>>): string[] {
  return items(env.AGATE_EVALUATOR_API_KEY_URL).map(normalUrl);
}

/**
 * Every problem with the evaluator's App settings, one line each saying what to set: for the
 * App to report at start (app/runtime/settings.ts), as it does for its other settings.
 */
export function evaluatorSettingsProblems(
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const sandbox = commandSandboxSettingsFrom(env);
  const problems = sandbox.ok ? [] : [...sandbox.problems];
  for (const url of apiKeyUrlsFrom(env)) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      problems.push(
        `AGATE_EVALUATOR_API_KEY_URL names ${JSON.stringify(url)}: list the base URLs AGATE_EVALUATOR_API_KEY belongs to, such as https://api.openai.com/v1, separated by commas`,
      );
    }
  }
  if (env.AGATE_EVALUATOR_API_KEY?.trim() && apiKeyUrlsFrom(env).length === 0) {
    problems.push(
      "AGATE_EVALUATOR_API_KEY is set, but AGATE_EVALUATOR_API_KEY_URL does not say which endpoint it belongs to: set it to that endpoint's base URL (such as https://api.openai.com/v1); agate sends a key nowhere else",
    );
  }
  return problems;
}
