import { generateKeyPairSync } from "node:crypto";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appPrivateKey } from "../../test/support/local-app.js";
import { refusedWith } from "../../test/support/refused.js";
import { tempDir } from "../../test/support/store.js";
import { type Environment, SettingsError } from "../kit/env.js";
import { loadSettings, normalizePrivateKey } from "./settings.js";

const PEM = appPrivateKey().trim();
const VALID = { APP_ID: "123", PRIVATE_KEY: PEM, WEBHOOK_SECRET: "s3cret" };

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

const problemsOf = (env: Environment): readonly string[] =>
  refusedWith(SettingsError, () => loadSettings(env, { cwd: dir }), "the settings");

describe("loadSettings", () => {
  it("takes Probot's settings and agate's, with defaults", () => {
    expect(loadSettings(VALID, { cwd: dir })).toEqual({
      appId: 123,
      privateKey: PEM,
      webhookSecret: "s3cret",
      port: 3000,
      host: undefined,
      logLevel: "info",
      logFormat: "pretty",
      baseUrl: "https://api.github.com",
      databaseUrl: "file:./agate.db",
      databasePoolSize: 10,
      databaseStatementTimeoutMs: 30_000,
      workers: 2,
      leaseMs: 60_000,
      reconcileIntervalMs: 600_000,
      deliveryRetentionMs: 7 * 86_400_000,
      evaluator: {
        policy: { baseUrls: [], commands: [] },
        judgeOptions: {
          apiKeys: {},
          apiKeyUrls: [],
          sandbox: {
            bwrap: "bwrap",
            network: "none",
            paths: [],
            env: [],
            searchPath: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            passEnv: {},
            appPlaces: [
              { path: dir, what: "the App's working directory (its .env, its database)" },
              { path: dir, what: "the App's database" },
            ],
          },
          timeoutMs: 120_000,
          maxRetries: 2,
        },
      },
    });
  });

  it("passes the evaluator typed values: policy, keys by variable, the sandbox with what it takes from the environment", () => {
    writeFileSync(join(dir, "app.pem"), `${PEM}\n`);
    const { PRIVATE_KEY: _, ...withoutKey } = VALID;
    const settings = loadSettings(
      {
        ...withoutKey,
        PRIVATE_KEY_PATH: "keys/../app.pem",
        PATH: "/opt/bin:/usr/bin",
        HOME: "/srv/agate",
        AGATE_DATABASE_URL: "file:./data/agate.db",
        AGATE_EVALUATOR_TIMEOUT: "30s",
        AGATE_EVALUATOR_RETRIES: "1",
        AGATE_EVALUATOR_BASE_URLS: "http://localhost:11434/v1",
        AGATE_EVALUATOR_COMMANDS: "bash -c 'echo {}'\n  env JUDGE=1 true  \n",
        AGATE_EVALUATOR_API_KEY: " sk-general ",
        AGATE_EVALUATOR_API_KEY_URL: "http://localhost:11434/v1/",
        OPENAI_API_KEY: "sk-openai",
        ANTHROPIC_API_KEY: "  ",
        GITHUB_TOKEN: "ghs_never_read",
        AGATE_EVALUATOR_COMMAND_NETWORK: "allow",
        AGATE_EVALUATOR_COMMAND_ENV: "CLI_KEY, UNSET_ONE",
        CLI_KEY: "cli-1",
      },
      { cwd: dir },
    );
    expect(settings.evaluator).toEqual({
      policy: {
        baseUrls: ["http://localhost:11434/v1"],
        commands: ["bash -c 'echo {}'", "env JUDGE=1 true"],
      },
      judgeOptions: {
        apiKeys: { AGATE_EVALUATOR_API_KEY: "sk-general", OPENAI_API_KEY: "sk-openai" },
        apiKeyUrls: ["http://localhost:11434/v1"],
        sandbox: {
          bwrap: "bwrap",
          network: "allow",
          paths: [],
          env: ["CLI_KEY", "UNSET_ONE"],
          searchPath: "/opt/bin:/usr/bin",
          passEnv: { CLI_KEY: "cli-1" },
          appPlaces: [
            { path: dir, what: "the App's working directory (its .env, its database)" },
            { path: "/srv/agate", what: "the App's HOME" },
            { path: dir, what: "the App's private key" },
            { path: join(dir, "data"), what: "the App's database" },
          ],
        },
        timeoutMs: 30_000,
        maxRetries: 1,
      },
    });
    expect(JSON.stringify(settings)).not.toContain("ghs_never_read");
  });

  it("checks each allowed command's program at start, as far as it can without running it", () => {
    const judgeDir = join(dir, "judge");
    mkdirSync(judgeDir);
    const judge = join(judgeDir, "judge");
    writeFileSync(judge, "#!/bin/sh\n", { mode: 0o755 });
    const notExecutable = join(judgeDir, "notes.txt");
    writeFileSync(notExecutable, "");
    chmodSync(notExecutable, 0o644);
    // A program on the host that the sandbox does not show: a link from the listed directory out.
    const elsewhere = join(dir, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "real-judge"), "#!/bin/sh\n", { mode: 0o755 });
    symlinkSync(join(elsewhere, "real-judge"), join(judgeDir, "linked-judge"));
    const commands = [
      "bash -c 'cat > /dev/null; echo {}'", // on the system's PATH
      `${judge} --json`, // listed by path
      "judge --json", // by name, in a listed directory (on the sandbox's PATH)
      "MODEL=x  judge", // after an assignment
      "cd /tmp && judge", // a builtin first: bash's to read
      '"$JUDGE" --json', // an expansion: bash's to read
      "./judge --json",
      "/opt/agate-no-such-judge/bin/judge",
      notExecutable,
      "agate-no-such-program --json",
      "linked-judge",
    ];
    const problems = problemsOf({
      ...VALID,
      AGATE_EVALUATOR_COMMANDS: commands.join("\n"),
      AGATE_EVALUATOR_COMMAND_PATHS: judgeDir,
    });
    expect(problems).toEqual([
      `AGATE_EVALUATOR_COMMANDS lists "./judge --json", whose program ./judge is a relative path, and the command runs in /evaluation, which holds only bundle.json: give the program's absolute path (such as /opt/judge/bin/judge), and list its directory in AGATE_EVALUATOR_COMMAND_PATHS`,
      `AGATE_EVALUATOR_COMMANDS lists "/opt/agate-no-such-judge/bin/judge", whose program /opt/agate-no-such-judge/bin/judge is not an executable file on the App's host: install it there, or correct the command in AGATE_EVALUATOR_COMMANDS`,
      `AGATE_EVALUATOR_COMMANDS lists ${JSON.stringify(notExecutable)}, whose program ${notExecutable} is not an executable file on the App's host: install it there, or correct the command in AGATE_EVALUATOR_COMMANDS`,
      `AGATE_EVALUATOR_COMMANDS lists "agate-no-such-program --json", whose program agate-no-such-program is not on the sandbox's PATH (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:${judgeDir}): install it under /usr, or list its directory in AGATE_EVALUATOR_COMMAND_PATHS`,
      `AGATE_EVALUATOR_COMMANDS lists "linked-judge", whose program linked-judge is ${join(elsewhere, "real-judge")} on the App's host, which the sandbox does not show (it shows /usr and the paths in AGATE_EVALUATOR_COMMAND_PATHS): list ${elsewhere} in AGATE_EVALUATOR_COMMAND_PATHS, or install the program under /usr`,
    ]);
  });

  it("reports the evaluator's problems with the others, one line each: sandbox, keys, commands", () => {
    const { APP_ID: _, ...withoutAppId } = VALID;
    expect(
      problemsOf({
        ...withoutAppId,
        AGATE_EVALUATOR_API_KEY: "sk-1",
        AGATE_EVALUATOR_COMMAND_NETWORK: "on",
        AGATE_EVALUATOR_COMMANDS: "agate-no-such-program",
      }),
    ).toEqual([
      expect.stringMatching(/^APP_ID is missing: /),
      expect.stringMatching(/^AGATE_EVALUATOR_COMMAND_NETWORK is "on": /),
      expect.stringMatching(
        /^AGATE_EVALUATOR_API_KEY is set, but AGATE_EVALUATOR_API_KEY_URL does not say which endpoint/,
      ),
    ]);
    expect(
      problemsOf({
        ...VALID,
        AGATE_EVALUATOR_API_KEY_URL: "api.openai.com",
        AGATE_EVALUATOR_COMMANDS: "agate-no-such-program",
      }),
    ).toEqual([
      expect.stringMatching(/^AGATE_EVALUATOR_API_KEY_URL names "api.openai.com": /),
      expect.stringMatching(
        /^AGATE_EVALUATOR_COMMANDS lists "agate-no-such-program", whose program agate-no-such-program is not on the sandbox's PATH/,
      ),
    ]);
  });

  it("reads the evaluator's timeout, retries and endpoints, naming a bad one", () => {
    const settings = loadSettings(
      {
        ...VALID,
        AGATE_EVALUATOR_TIMEOUT: "90s",
        AGATE_EVALUATOR_RETRIES: "0",
        AGATE_EVALUATOR_BASE_URLS: "http://localhost:11434/v1, https://llm.example/v1",
      },
      { cwd: dir },
    );
    const { timeoutMs, maxRetries } = settings.evaluator.judgeOptions;
    expect([timeoutMs, maxRetries]).toEqual([90_000, 0]);
    expect(() => loadSettings({ ...VALID, AGATE_EVALUATOR_TIMEOUT: "soon" }, { cwd: dir })).toThrow(
      /AGATE_EVALUATOR_TIMEOUT is "soon": set it to how long one evaluator request may take/,
    );
    expect(() =>
      loadSettings({ ...VALID, AGATE_EVALUATOR_BASE_URLS: "localhost:11434" }, { cwd: dir }),
    ).toThrow(/AGATE_EVALUATOR_BASE_URLS is "localhost:11434": list absolute URLs/);
    expect(() => loadSettings({ ...VALID, AGATE_EVALUATOR_RETRIES: "99" }, { cwd: dir })).toThrow(
      /AGATE_EVALUATOR_RETRIES/,
    );
  });

  it("reads the reconcile interval as a duration and names a bad one", () => {
    expect(
      loadSettings({ ...VALID, AGATE_RECONCILE_INTERVAL: "1h" }, { cwd: dir }).reconcileIntervalMs,
    ).toBe(3_600_000);
    expect(() =>
      loadSettings({ ...VALID, AGATE_RECONCILE_INTERVAL: "often" }, { cwd: dir }),
    ).toThrow(
      'AGATE_RECONCILE_INTERVAL is "often": set it to a duration such as 90s, 10m or 1h, or leave it unset for 10m',
    );
  });

  it("reads the delivery retention as a duration of at least an hour, naming a bad one", () => {
    const retention = (value: string) =>
      loadSettings({ ...VALID, AGATE_DELIVERY_RETENTION: value }, { cwd: dir }).deliveryRetentionMs;
    expect(retention("36h")).toBe(36 * 3_600_000);
    expect(retention("1h")).toBe(3_600_000);
    expect(retention("")).toBe(7 * 86_400_000);
    for (const bad of ["59m", "forever", "0"]) {
      expect(problemsOf({ ...VALID, AGATE_DELIVERY_RETENTION: bad })).toEqual([
        `AGATE_DELIVERY_RETENTION is ${JSON.stringify(bad)}: set it to how long a processed ` +
          "webhook delivery keeps its payload, at least 1h, such as 36h or 30d, or leave it " +
          "unset for 7d",
      ]);
    }
  });

  it("builds the API URL of a GitHub Enterprise host and reads AGATE_*", () => {
    const settings = loadSettings(
      {
        ...VALID,
        GHE_HOST: "127.0.0.1:8080",
        GHE_PROTOCOL: "http",
        PORT: "0",
        LOG_LEVEL: "warn",
        AGATE_DATABASE_URL: "file:./data/agate.db",
        AGATE_WORKERS: "0",
        AGATE_LEASE_MS: "5000",
        AGATE_DATABASE_POOL: "40",
        AGATE_DATABASE_STATEMENT_TIMEOUT: "2m",
      },
      { cwd: dir },
    );
    expect(settings).toMatchObject({
      databasePoolSize: 40,
      databaseStatementTimeoutMs: 120_000,
      baseUrl: "http://127.0.0.1:8080/api/v3",
      port: 0,
      logLevel: "warn",
      databaseUrl: "file:./data/agate.db",
      workers: 0,
      leaseMs: 5_000,
    });
  });

  it("reads the key from PRIVATE_KEY_PATH, relative to the working directory", () => {
    writeFileSync(join(dir, "app.pem"), `${PEM}\n`);
    const { PRIVATE_KEY: _, ...withoutKey } = VALID;
    expect(
      loadSettings({ ...withoutKey, PRIVATE_KEY_PATH: "app.pem" }, { cwd: dir }).privateKey,
    ).toBe(PEM);
  });

  it("accepts the key with escaped newlines or base64-encoded, as Probot does", () => {
    expect(normalizePrivateKey(PEM.replaceAll("\n", "\\n"))).toBe(PEM);
    expect(normalizePrivateKey(Buffer.from(PEM).toString("base64"))).toBe(PEM);
    expect(normalizePrivateKey("not a key")).toBeNull();
  });

  it("accepts the key as `jq -Rs .` writes it: a JSON string with escaped newlines and one at the end", () => {
    const jq = JSON.stringify(`${PEM}\n`);
    expect(jq.endsWith('\\n"')).toBe(true);
    expect(normalizePrivateKey(jq)).toBe(PEM);
    // Without the quotes (a shell's `$(jq -r …)` keeps them off), and with Windows line ends.
    expect(normalizePrivateKey(jq.slice(1, -1))).toBe(PEM);
    expect(normalizePrivateKey(`${PEM.replaceAll("\n", "\\r\\n")}\\r\\n`)).toBe(PEM);
    expect(normalizePrivateKey(`${PEM.replaceAll("\n", "\r\n")}\r\n`)).toBe(PEM);
    expect(loadSettings({ ...VALID, PRIVATE_KEY: jq }, { cwd: dir }).privateKey).toBe(PEM);
  });

  it("says which problems came from .env, and that the file was read", () => {
    const envFile = { path: join(dir, ".env"), names: ["APP_ID"] };
    let message = "";
    try {
      loadSettings({ ...VALID, APP_ID: "my-app", WEBHOOK_SECRET: "" }, { cwd: dir, envFile });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      `missing or invalid (environment variables and ${envFile.path}, where a variable set in the environment wins):`,
    );
    expect(message).toMatch(new RegExp(`- APP_ID is "my-app", .* \\[set in ${envFile.path}\\]\n`));
    expect(message).toMatch(/- WEBHOOK_SECRET is missing: [^[]*$/);
  });

  it("names every missing setting at once, each with what to set", () => {
    const problems = problemsOf({});
    expect(problems).toEqual([
      "APP_ID is missing: set it to your GitHub App's id (Settings → Developer settings → GitHub Apps → your App → App ID)",
      "WEBHOOK_SECRET is missing: set it to the webhook secret entered in Settings → Developer settings → GitHub Apps → your App → Webhook secret; agate refuses webhooks it cannot verify",
      "PRIVATE_KEY is missing: set PRIVATE_KEY to your App's private key (the .pem file's contents) or PRIVATE_KEY_PATH to the file; generate one under Settings → Developer settings → GitHub Apps → your App → Private keys",
    ]);
  });

  it("treats an empty variable as missing", () => {
    expect(problemsOf({ ...VALID, APP_ID: "  " })).toEqual([
      expect.stringMatching(/^APP_ID is missing: /),
    ]);
  });

  it("names every invalid setting with its value and the accepted ones", () => {
    const problems = problemsOf({
      ...VALID,
      APP_ID: "my-app",
      PRIVATE_KEY: "ssh-rsa AAAA",
      PORT: "70000",
      LOG_LEVEL: "loud",
      GHE_HOST: "https://github.example.com",
      GHE_PROTOCOL: "ftp",
      AGATE_WORKERS: "-1",
      AGATE_LEASE_MS: "10",
      AGATE_DATABASE_URL: "mysql://db/agate",
    });
    expect(problems).toEqual([
      'APP_ID is "my-app", not an App id: set it to the number shown as App ID (Settings → Developer settings → GitHub Apps → your App)',
      "PRIVATE_KEY is not a PEM private key: paste the whole .pem file (with its BEGIN and END lines), or set PRIVATE_KEY_PATH to the file instead",
      'PORT is "70000": set it to a TCP port 0-65535 (0 picks a free one), or leave it unset for 3000',
      'LOG_LEVEL is "loud": use one of trace, debug, info, warn, error, fatal, silent, or leave it unset for info',
      'GHE_HOST is "https://github.example.com": give the GitHub Enterprise host name only (github.example.com or host:port); the protocol goes in GHE_PROTOCOL',
      'GHE_PROTOCOL is "ftp": use one of https, http, or leave it unset for https',
      'AGATE_WORKERS is "-1": set it to how many jobs run at once, 0-64 (0: this process only records webhooks), or leave it unset for 2',
      'AGATE_LEASE_MS is "10": set it to how long a worker holds a job without a heartbeat, in milliseconds (1000-3600000), or leave it unset for 60000',
      expect.stringContaining("database URL mysql://db/agate has a scheme agate cannot open"),
    ]);
  });

  it("says when PRIVATE_KEY_PATH cannot be read or is not a key", () => {
    const { PRIVATE_KEY: _, ...withoutKey } = VALID;
    expect(problemsOf({ ...withoutKey, PRIVATE_KEY_PATH: "missing.pem" })).toEqual([
      "PRIVATE_KEY_PATH is missing.pem, which cannot be read (ENOENT): point it at the .pem file downloaded from your App's settings, readable by this process",
    ]);
    writeFileSync(join(dir, "notes.txt"), "hello\n");
    expect(problemsOf({ ...withoutKey, PRIVATE_KEY_PATH: "notes.txt" })).toEqual([
      expect.stringMatching(/^PRIVATE_KEY_PATH is notes.txt, which is not a PEM private key/),
    ]);
  });

  it("refuses a PEM block that is not a usable RSA key at start, in one line, for either variable", () => {
    const { PRIVATE_KEY: _, ...withoutKey } = VALID;
    // The armor is intact, a line of the key is not: the first GitHub call would fail.
    const lines = PEM.split("\n");
    const cut = [...lines.slice(0, 3), ...lines.slice(5)].join("\n");
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString()
      .trim();
    const [broken, notRsa] = [cut, ec].map((key) => problemsOf({ ...VALID, PRIVATE_KEY: key }));
    expect(broken).toEqual([
      expect.stringMatching(
        /^PRIVATE_KEY looks like a PEM private key, but it does not parse as a private key \(.+\): paste the App's .pem file unchanged, or generate a new key under Settings → Developer settings → GitHub Apps → your App → Private keys$/,
      ),
    ]);
    expect(notRsa).toEqual([
      "PRIVATE_KEY looks like a PEM private key, but its type is ec, and GitHub Apps sign with RSA: paste the App's .pem file unchanged, or generate a new key under Settings → Developer settings → GitHub Apps → your App → Private keys",
    ]);
    writeFileSync(join(dir, "cut.pem"), `${cut}\n`);
    expect(problemsOf({ ...withoutKey, PRIVATE_KEY_PATH: "cut.pem" })).toEqual([
      expect.stringMatching(
        /^PRIVATE_KEY_PATH is cut.pem, which looks like a PEM private key, but it does not parse as a private key/,
      ),
    ]);
  });

  it("puts one line per problem in the error message", () => {
    expect(() => loadSettings({ ...VALID, APP_ID: undefined }, { cwd: dir })).toThrow(
      "agate cannot start: a setting is missing or invalid (environment variables):\n  - APP_ID is missing: ",
    );
  });
});
