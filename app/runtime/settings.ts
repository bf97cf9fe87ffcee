/**
 * The App's settings, read from the environment: Probot's (APP_ID, PRIVATE_KEY or
 * PRIVATE_KEY_PATH, WEBHOOK_SECRET, PORT, HOST, LOG_LEVEL, LOG_FORMAT, GHE_HOST, GHE_PROTOCOL)
 * and agate's own (AGATE_*), with the evaluator's keys (OPENAI_API_KEY, ANTHROPIC_API_KEY) and
 * what its sandbox takes from the App's environment (PATH, HOME, the variables
 * AGATE_EVALUATOR_COMMAND_ENV names). Every missing or invalid one is reported at start, all at
 * once, each with what to set it to: a misconfigured App must not start and fail on its first
 * webhook. This is the one reader of the environment: everything else gets typed values.
 *
 * `agateEnvSchema` checks each variable alone, without I/O (it takes its defaults and limits
 * from app/store, so it stays here rather than in schemas/); reading the key file, checking the
 * database URL and the evaluator's commands happen in `loadSettings`. The evaluator's part is
 * app/evaluator/settings.ts; the parsers of one variable are app/kit/env.ts.
 */
import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import {
  type EvaluatorSettings,
  evaluatorEnvShape,
  evaluatorFrom,
  evaluatorSettings,
} from "../evaluator/settings.js";
import {
  blankToUndefined,
  duration,
  type EnvFile,
  type Environment,
  isHttpUrl,
  oneOf,
  optionalText,
  requiredText,
  SettingsError,
  wholeNumber,
} from "../kit/env.js";
import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from "../store/open-store.js";
import { MIN_DELIVERY_RETENTION_MS } from "../store/ports/delivery-log.js";

const APP_SETTINGS = "Settings → Developer settings → GitHub Apps → your App";
const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

/**
 * PRIVATE_KEY as Probot takes it: the PEM text, the PEM with its newlines written as `\n` (how
 * many hosts store multi-line values; with a trailing one, and in quotes as a JSON string, as
 * `jq -Rs` writes it), or the PEM base64-encoded.
 */
export function normalizePrivateKey(value: string): string | null {
  let text = value.trim();
  // A JSON string, as `jq -Rs . key.pem` writes it: in quotes, with an escaped newline at the end.
  if (text.length > 1 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
  const pem = text
    .replaceAll("\\r\\n", "\n")
    .replaceAll("\\n", "\n")
    .replaceAll("\r\n", "\n")
    .trim();
  if (isPem(pem)) return pem;
  if (/^[A-Za-z0-9+/=\s]+$/.test(text)) {
    const decoded = Buffer.from(text, "base64").toString("utf8").trim();
    if (isPem(decoded)) return decoded;
  }
  return null;
}

/**
 * Why a PEM block is not a key GitHub would take for signing the App's JWT (RS256), or null. The
 * armor alone proves nothing: a cut or edited key passes it and fails at the first GitHub call.
 */
function privateKeyProblem(pem: string): string | null {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === "rsa"
      ? null
      : `its type is ${key.asymmetricKeyType ?? "not RSA"}, and GitHub Apps sign with RSA`;
  } catch (error) {
    const reason = (error as Error).message.replace(/^error:[0-9A-F]+:/i, "").trim();
    return `it does not parse as a private key (${reason})`;
  }
}

function isPem(text: string): boolean {
  return /^-----BEGIN [A-Z ]*PRIVATE KEY-----\n[\s\S]+\n-----END [A-Z ]*PRIVATE KEY-----$/.test(
    text,
  );
}

const appEnvShape = {
  APP_ID: requiredText(
    `APP_ID is missing: set it to your GitHub App's id (${APP_SETTINGS} → App ID)`,
  ).pipe(
    z
      .string()
      .regex(/^[1-9]\d*$/, {
        error: (issue) =>
          `APP_ID is ${JSON.stringify(issue.input)}, not an App id: set it to the number shown ` +
          `as App ID (${APP_SETTINGS})`,
      })
      .transform(Number),
  ),
  PRIVATE_KEY: optionalText.pipe(
    z
      .string()
      .transform((value, context) => {
        const pem = normalizePrivateKey(value);
        if (pem === null) {
          context.issues.push({
            code: "custom",
            input: "(hidden)",
            message:
              "PRIVATE_KEY is not a PEM private key: paste the whole .pem file (with its " +
              "BEGIN and END lines), or set PRIVATE_KEY_PATH to the file instead",
          });
          return z.NEVER;
        }
        const problem = privateKeyProblem(pem);
        if (problem !== null) {
          context.issues.push({
            code: "custom",
            input: "(hidden)",
            message: `PRIVATE_KEY looks like a PEM private key, but ${problem}: paste the App's .pem file unchanged, or generate a new key under ${APP_SETTINGS} → Private keys`,
          });
          return z.NEVER;
        }
        return pem;
      })
      .optional(),
  ),
  PRIVATE_KEY_PATH: optionalText,
  WEBHOOK_SECRET: requiredText(
    `WEBHOOK_SECRET is missing: set it to the webhook secret entered in ${APP_SETTINGS} → ` +
      "Webhook secret; agate refuses webhooks it cannot verify",
  ),
  PORT: wholeNumber(
    "PORT",
    0,
    65_535,
    "set it to a TCP port 0-65535 (0 picks a free one), or leave it unset for 3000",
    3000,
  ),
  HOST: optionalText,
  LOG_LEVEL: oneOf("LOG_LEVEL", LOG_LEVELS, "info"),
  LOG_FORMAT: oneOf("LOG_FORMAT", ["pretty", "json"], "pretty"),
  GHE_HOST: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9.-]+(:\d+)?$/, {
        error: (issue) =>
          `GHE_HOST is ${JSON.stringify(issue.input)}: give the GitHub Enterprise host name ` +
          "only (github.example.com or host:port); the protocol goes in GHE_PROTOCOL",
      })
      .optional(),
  ),
  GHE_PROTOCOL: oneOf("GHE_PROTOCOL", ["https", "http"], "https"),
  AGATE_DATABASE_URL: optionalText.pipe(z.string().default(DEFAULT_DATABASE_URL)),
  AGATE_DATABASE_POOL: wholeNumber(
    "AGATE_DATABASE_POOL",
    1,
    500,
    "set it to how many PostgreSQL connections one App process may hold, 1-500, or leave it unset for 10",
    10,
  ),
  AGATE_DATABASE_STATEMENT_TIMEOUT: duration(
    "AGATE_DATABASE_STATEMENT_TIMEOUT",
    "set it to how long one PostgreSQL statement may run, such as 30s or 2m, or leave it unset for 30s",
    "30s",
    1_000,
  ),
  AGATE_WORKERS: wholeNumber(
    "AGATE_WORKERS",
    0,
    64,
    "set it to how many jobs run at once, 0-64 (0: this process only records webhooks), " +
      "or leave it unset for 2",
    2,
  ),
  AGATE_LEASE_MS: wholeNumber(
    "AGATE_LEASE_MS",
    1_000,
    3_600_000,
    "set it to how long a worker holds a job without a heartbeat, in milliseconds " +
      "(1000-3600000), or leave it unset for 60000",
    60_000,
  ),
  AGATE_RECONCILE_INTERVAL: duration(
    "AGATE_RECONCILE_INTERVAL",
    "set it to a duration such as 90s, 10m or 1h, or leave it unset for 10m",
    "10m",
  ),
  AGATE_DELIVERY_RETENTION: duration(
    "AGATE_DELIVERY_RETENTION",
    "set it to how long a processed webhook delivery keeps its payload, at least 1h, such as " +
      "36h or 30d, or leave it unset for 7d",
    "7d",
    MIN_DELIVERY_RETENTION_MS,
  ),
  ...evaluatorEnvShape,
};

export const agateEnvSchema = z
  .object(appEnvShape)
  .refine(
    (env) =>
      blankToUndefined(env.PRIVATE_KEY) !== undefined ||
      blankToUndefined(env.PRIVATE_KEY_PATH) !== undefined,
    {
      path: ["PRIVATE_KEY"],
      // Checked even when other settings failed, so every problem is reported in one go.
      when: () => true,
      error:
        "PRIVATE_KEY is missing: set PRIVATE_KEY to your App's private key (the .pem file's " +
        `contents) or PRIVATE_KEY_PATH to the file; generate one under ${APP_SETTINGS} → ` +
        "Private keys",
    },
  );

export interface Settings {
  appId: number;
  privateKey: string;
  webhookSecret: string;
  port: number;
  host: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  logFormat: "pretty" | "json";
  /** Probot's GitHub API base URL: api.github.com, or GHE_PROTOCOL://GHE_HOST/api/v3. */
  baseUrl: string;
  databaseUrl: string;
  /** PostgreSQL only: the pool's size, and how long one statement may run. */
  databasePoolSize: number;
  databaseStatementTimeoutMs: number;
  workers: number;
  leaseMs: number;
  /** How often the reconcile pass re-reads every open pull request. */
  reconcileIntervalMs: number;
  /** How long a processed delivery keeps its payload before retention prunes it. */
  deliveryRetentionMs: number;
  /** What repositories may make the evaluator do, and everything the evaluators use. */
  evaluator: EvaluatorSettings;
}

/** None of the App's credentials is set: it is not registered yet, and the setup flow runs. */
export function unregistered(env: Environment): boolean {
  return ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "WEBHOOK_SECRET"].every(
    (name) => blankToUndefined(env[name]) === undefined,
  );
}

/** What the registration server (app/runtime/registration.ts) needs, before the App has credentials. */
export interface SetupSettings {
  port: number;
  host: string | undefined;
  /** Where people create Apps: https://github.com, or GHE_PROTOCOL://GHE_HOST. */
  githubUrl: string;
  /** The API the manifest code is converted with. */
  apiUrl: string;
  /** The address GitHub and browsers reach this App at; from the request when unset. */
  publicUrl: string | undefined;
  /** Register the App under this organisation rather than the person's account. */
  org: string | undefined;
}

export const setupEnvSchema = z.object({
  PORT: appEnvShape.PORT,
  HOST: appEnvShape.HOST,
  GHE_HOST: appEnvShape.GHE_HOST,
  GHE_PROTOCOL: appEnvShape.GHE_PROTOCOL,
  AGATE_PUBLIC_URL: optionalText.pipe(
    z
      .string()
      .refine(isHttpUrl, {
        error: (issue) =>
          `AGATE_PUBLIC_URL is ${JSON.stringify(issue.input)}: give the address GitHub reaches this App at, such as https://agate.example.com`,
      })
      .optional(),
  ),
  AGATE_GITHUB_ORG: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, {
        error: (issue) =>
          `AGATE_GITHUB_ORG is ${JSON.stringify(issue.input)}: give the organisation's login, such as my-org`,
      })
      .optional(),
  ),
});

export function loadSetupSettings(env: Environment, envFile?: EnvFile): SetupSettings {
  const parsed = setupEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new SettingsError(
      parsed.error.issues.map((issue) => issue.message),
      envFile,
    );
  }
  const data = parsed.data;
  const web = data.GHE_HOST ? `${data.GHE_PROTOCOL}://${data.GHE_HOST}` : "https://github.com";
  return {
    port: data.PORT,
    host: data.HOST,
    githubUrl: web,
    apiUrl: data.GHE_HOST ? `${web}/api/v3` : "https://api.github.com",
    publicUrl: data.AGATE_PUBLIC_URL?.replace(/\/+$/, ""),
    org: data.AGATE_GITHUB_ORG,
  };
}

export interface LoadSettingsOptions {
  /** Relative PRIVATE_KEY_PATH and database paths resolve against it. */
  cwd?: string;
  /** The .env file some variables came from, named in the errors. */
  envFile?: EnvFile;
}

/** Validates `env`; SettingsError listing every problem when anything is missing or invalid. */
export function loadSettings(env: Environment, options: LoadSettingsOptions = {}): Settings {
  const cwd = options.cwd ?? process.cwd();
  const parsed = agateEnvSchema.safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
  let privateKey: string | undefined;
  if (parsed.success) privateKey = parsed.data.PRIVATE_KEY;
  const keyPath = blankToUndefined(env.PRIVATE_KEY_PATH);
  // PRIVATE_KEY wins when both are set, as in Probot.
  if (
    privateKey === undefined &&
    typeof keyPath === "string" &&
    blankToUndefined(env.PRIVATE_KEY) === undefined
  ) {
    const read = readPrivateKeyFile(resolve(cwd, keyPath), keyPath);
    if ("problem" in read) problems.push(read.problem);
    else privateKey = read.pem;
  }
  // The evaluator's settings (commands, sandbox, keys and their origins) are checked at start,
  // not at first use.
  const evaluator = evaluatorFrom(env, cwd);
  problems.push(...evaluator.problems);
  const databaseUrl = blankToUndefined(env.AGATE_DATABASE_URL);
  if (typeof databaseUrl === "string") {
    try {
      parseDatabaseUrl(databaseUrl, cwd);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (
    !parsed.success ||
    problems.length > 0 ||
    privateKey === undefined ||
    evaluator.values === null
  ) {
    throw new SettingsError(problems, options.envFile);
  }
  const data = parsed.data;
  return {
    appId: data.APP_ID,
    privateKey,
    webhookSecret: data.WEBHOOK_SECRET,
    port: data.PORT,
    host: data.HOST,
    logLevel: data.LOG_LEVEL,
    logFormat: data.LOG_FORMAT,
    baseUrl: data.GHE_HOST
      ? `${data.GHE_PROTOCOL}://${data.GHE_HOST}/api/v3`
      : "https://api.github.com",
    databaseUrl: data.AGATE_DATABASE_URL,
    databasePoolSize: data.AGATE_DATABASE_POOL,
    databaseStatementTimeoutMs: data.AGATE_DATABASE_STATEMENT_TIMEOUT,
    workers: data.AGATE_WORKERS,
    leaseMs: data.AGATE_LEASE_MS,
    reconcileIntervalMs: data.AGATE_RECONCILE_INTERVAL,
    deliveryRetentionMs: data.AGATE_DELIVERY_RETENTION,
    evaluator: evaluatorSettings(data, evaluator.values),
  };
}

function readPrivateKeyFile(path: string, given: string): { pem: string } | { problem: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return {
      problem:
        `PRIVATE_KEY_PATH is ${given}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ` +
        "point it at the .pem file downloaded from your App's settings, readable by this process",
    };
  }
  const pem = normalizePrivateKey(text);
  if (pem === null) {
    return {
      problem: `PRIVATE_KEY_PATH is ${given}, which is not a PEM private key: use the .pem file downloaded from ${APP_SETTINGS} → Private keys`,
    };
  }
  const problem = privateKeyProblem(pem);
  if (problem !== null) {
    return {
      problem: `PRIVATE_KEY_PATH is ${given}, which looks like a PEM private key, but ${problem}: use the .pem file downloaded from ${APP_SETTINGS} → Private keys, unchanged`,
    };
  }
  return { pem };
}
