/**
 * Registration in one click, for an App started without credentials: GitHub's App-manifest flow.
 * `GET /` asks for the registration code this process printed in its log; the right code gets a
 * form that posts the manifest (app.yml, with this App's webhook and redirect URLs) to GitHub; a
 * person clicks "Create GitHub App"; GitHub sends the browser back to `/setup/done` with a
 * one-time code, which is exchanged for the App's id, private key and webhook secret. They are
 * written to `.env` (mode 0600, never over an existing APP_ID), and the App starts with them in
 * this same process (app/main.ts).
 *
 * The page is reachable by whoever reaches the address (a proxy in front makes it public), and
 * whoever finishes a registration decides whose App this process runs: theirs, with their
 * webhook secret. So the flow's `state` is handed out only for the code in the log, which only
 * the operator reads. While waiting, `/healthz` answers 200 (alive, waiting to be registered) and
 * `/readyz` 503 (not ready, and why), so a probe neither restarts it nor sends it webhooks.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { convertManifestCode, type RegisteredApp } from "../github/manifest.js";
import { HEALTH_PATH, READY_PATH } from "./health.js";
import { type Bound, listenOn } from "./listen.js";
import type { SetupSettings } from "./settings.js";

export const SETUP_PATH = "/setup";
export const SETUP_DONE_PATH = "/setup/done";
const WEBHOOKS_PATH = "/api/github/webhooks";
/** A form post carries one short field; anything longer is not ours. */
const MAX_FORM_BYTES = 1_024;
/** Crockford's base32: no I, L, O or U, so a code read off a terminal is typed back right. */
const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * The registration code: 80 random bits as four groups of four, printed in the App's log and
 * asked on the page. Guessing it over HTTP is hopeless, so wrong tries need no lock-out (which
 * would let anyone lock the operator out).
 */
function registrationCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % 32]).join("");
  return (chars.match(/.{4}/g) ?? []).join("-");
}

/** As typed: any case, spaces or dashes, and the letters base32 readers confuse with digits. */
function normalizeCode(text: string): string {
  return text.toUpperCase().replace(/[\s-]/g, "").replaceAll("O", "0").replace(/[IL]/g, "1");
}

function sameCode(typed: string, code: string): boolean {
  const a = Buffer.from(normalizeCode(typed));
  const b = Buffer.from(normalizeCode(code));
  return a.length === b.length && timingSafeEqual(a, b);
}

/** app.yml beside the package (the source tree, or dist/app's package). */
const MANIFEST_FILE = resolve(import.meta.dirname, "..", "..", "app.yml");

export interface RegistrationServer {
  url: string;
  port: number;
  /** Resolves with the App once a person registered it and `.env` was written. */
  registered: Promise<RegisteredApp>;
  close(): Promise<void>;
}

/** The manifest GitHub registers: app.yml, pointed at this App. */
function manifestFor(publicUrl: string, file = MANIFEST_FILE): Record<string, unknown> {
  const fromFile = parseYaml(readFileSync(file, "utf8")) as Record<string, unknown>;
  return {
    ...fromFile,
    url: typeof fromFile.url === "string" ? fromFile.url : publicUrl,
    hook_attributes: { url: `${publicUrl}${WEBHOOKS_PATH}`, active: true },
    redirect_url: `${publicUrl}${SETUP_DONE_PATH}`,
    public: false,
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy":
      "default-src 'none'; form-action https: http:; style-src 'unsafe-inline'",
  });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:42rem;margin:3rem auto">${body}</body></html>`,
  );
}

/**
 * Writes the App's credentials to `.env` in `cwd`: a new file, readable by this user only, or
 * nothing when one already holds an APP_ID (a second registration must not replace the first).
 */
function writeCredentials(cwd: string, app: RegisteredApp): string {
  const file = join(cwd, ".env");
  const existing = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (/^\s*APP_ID\s*=/m.test(existing)) {
    throw new Error(
      `${file} already has an APP_ID; agate did not overwrite it. Move it away to register again, or delete the App just created (${app.html_url})`,
    );
  }
  const lines = [
    `# The GitHub App ${app.slug}, registered from app.yml on ${new Date().toISOString()}.`,
    `APP_ID=${app.id}`,
    `PRIVATE_KEY="${app.pem.trim().replaceAll("\n", "\\n")}"`,
    `WEBHOOK_SECRET=${app.webhook_secret}`,
    "",
  ];
  writeFileSync(
    file,
    `${existing}${existing && !existing.endsWith("\n") ? "\n" : ""}${lines.join("\n")}`,
    {
      mode: 0o600,
    },
  );
  return file;
}

/** Reads a small form post (`code=…`), or null when it is too large or not a form. */
function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  return new Promise((resolve) => {
    if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
      req.resume();
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
    req.on("error", () => resolve(null));
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const CODE_FORM = `<form action="${SETUP_PATH}" method="post">
<p><label>Registration code: <input name="code" autocomplete="off" autofocus size="24" placeholder="XXXX-XXXX-XXXX-XXXX"></label></p>
<button type="submit">Continue</button>
</form>`;

export interface RegistrationOptions {
  settings: SetupSettings;
  cwd: string;
  log?: (line: string) => void;
  /** The registration code; a random one by default (tests pass their own). */
  code?: string;
}

export async function startRegistration(options: RegistrationOptions): Promise<RegistrationServer> {
  const { settings } = options;
  const flow = new RegistrationFlow(options);
  const server: Server = createServer((req, res) => {
    flow.handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`agate setup failed: ${error.message}`);
    });
  });
  const bound: Bound = await listenOn(server, settings.port, settings.host);
  const open = settings.publicUrl ?? bound.url;
  flow.log(
    `agate is not registered yet (no APP_ID, PRIVATE_KEY or WEBHOOK_SECRET); it listens on ${bound.where}. To register it as a GitHub App from app.yml: open ${open}/ and enter the registration code ${flow.code} (only this log shows it).${settings.publicUrl ? "" : " GitHub reaches this App only at a public HTTPS address: set AGATE_PUBLIC_URL to it (README: Deploy)."}`,
  );
  const { url, port } = bound;
  return {
    url,
    port,
    registered: flow.registered,
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}

/** One process's registration: its code, the flow's state, and whether it is done. */
class RegistrationFlow {
  readonly log: (line: string) => void;
  readonly code: string;
  // The state ties GitHub's redirect to a form this process served, and only someone who
  // entered the code was served one: nobody else can finish a registration.
  private readonly state = randomBytes(16).toString("hex");
  private done = false;
  private resolveRegistered: (app: RegisteredApp) => void = () => {};
  readonly registered = new Promise<RegisteredApp>((resolve) => {
    this.resolveRegistered = resolve;
  });

  constructor(private readonly options: RegistrationOptions) {
    this.log = options.log ?? ((line: string) => console.log(line));
    this.code = options.code ?? registrationCode();
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://setup.invalid");
    if (req.method === "GET" && this.probe(url.pathname, res)) return;
    if (req.method === "POST" && url.pathname === SETUP_PATH) {
      await this.codeEntered(req, res);
      return;
    }
    if (req.method !== "GET") {
      res.writeHead(405, { allow: "GET, POST" }).end();
      return;
    }
    if (url.pathname === "/" || url.pathname === SETUP_PATH) {
      page(
        res,
        200,
        "Register agate",
        `<h1>Register agate as a GitHub App</h1>
<p>This agate has no GitHub App yet. Enter the registration code it printed in its log when it started: only someone who can read that log may register it.</p>
${CODE_FORM}`,
      );
      return;
    }
    if (url.pathname === SETUP_DONE_PATH) {
      await this.finish(url, res);
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${url.pathname}`);
  }

  /**
   * The probes: alive (a liveness probe must not restart the process a person is registering),
   * never ready.
   */
  private probe(path: string, res: ServerResponse): boolean {
    if (path === HEALTH_PATH) {
      json(res, 200, {
        ok: true,
        status: this.done ? "registered; the App is starting" : "waiting to be registered",
      });
      return true;
    }
    if (path === READY_PATH) {
      json(res, 503, {
        ok: false,
        why: this.done
          ? "registered; the App is starting with its new credentials"
          : "agate is not registered yet (no APP_ID, PRIVATE_KEY or WEBHOOK_SECRET): open its address and enter the registration code from its log, or set the three",
      });
      return true;
    }
    return false;
  }

  /** The code posted: the manifest form when it is this process's, else a refusal. */
  private async codeEntered(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req);
    if (form && sameCode(form.get("code") ?? "", this.code)) {
      this.manifestPage(req, res);
      return;
    }
    this.log("agate setup: a wrong registration code was entered on the page");
    page(
      res,
      403,
      "Wrong code",
      `<p>That is not the registration code in this agate's log. Copy it from the line that says <i>the registration code is</i>.</p>${CODE_FORM}`,
    );
  }

  /** The manifest form for someone who gave the right code. */
  private manifestPage(req: IncomingMessage, res: ServerResponse): void {
    const { settings } = this.options;
    const base = settings.publicUrl ?? `http://${req.headers.host ?? `127.0.0.1:${settings.port}`}`;
    const manifest = manifestFor(base);
    const where = settings.org
      ? `${settings.githubUrl}/organizations/${settings.org}/settings/apps/new`
      : `${settings.githubUrl}/settings/apps/new`;
    const local = /^https?:\/\/(localhost|127\.|\[::1\])/.test(base);
    page(
      res,
      200,
      "Register agate",
      `<h1>Register agate as a GitHub App</h1>
<p>This creates a private GitHub App from <code>app.yml</code>${settings.org ? ` under <b>${escapeHtml(settings.org)}</b>` : " under your account"}, with the permissions and events agate needs and nothing more. GitHub will send its webhooks to <code>${escapeHtml(`${base}${WEBHOOKS_PATH}`)}</code>.</p>
${local ? `<p><b>That address is this machine's own:</b> GitHub cannot reach it. Set AGATE_PUBLIC_URL to the address GitHub reaches this App at (or change the webhook URL in the App's settings later).</p>` : ""}
<form action="${escapeHtml(`${where}?state=${this.state}`)}" method="post">
<input type="hidden" name="manifest" value="${escapeHtml(JSON.stringify(manifest))}">
<button type="submit">Create the GitHub App</button>
</form>`,
    );
  }

  /** GitHub's redirect back: its one-time code exchanged for the App's credentials, written once. */
  private async finish(url: URL, res: ServerResponse): Promise<void> {
    const code = url.searchParams.get("code") ?? "";
    if (url.searchParams.get("state") !== this.state) {
      page(
        res,
        403,
        "Not this setup",
        '<p>This link did not come from the form this agate served. Start again at <a href="/">/</a>.</p>',
      );
      return;
    }
    if (this.done) {
      page(
        res,
        409,
        "Already registered",
        "<p>This agate was registered already, and runs with that App.</p>",
      );
      return;
    }
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(code)) {
      page(
        res,
        400,
        "No code",
        '<p>GitHub\'s redirect carried no code. Start again at <a href="/">/</a>.</p>',
      );
      return;
    }
    let app: RegisteredApp;
    let file: string;
    try {
      app = await convertManifestCode(this.options.settings.apiUrl, code);
      file = writeCredentials(this.options.cwd, app);
    } catch (error) {
      page(res, 502, "Registration failed", `<p>${escapeHtml((error as Error).message)}</p>`);
      this.log(`agate setup: ${(error as Error).message}`);
      return;
    }
    this.done = true;
    this.log(
      `agate setup: registered the GitHub App ${app.slug} (id ${app.id}); its credentials are in ${file} (keep a copy: they are not in the database). agate starts with it now, in this same process. Install it: ${app.html_url}/installations/new`,
    );
    page(
      res,
      200,
      "agate is registered",
      `<h1>Registered ${escapeHtml(app.slug)}</h1>
<p>The App's id, private key and webhook secret are in <code>${escapeHtml(file)}</code> (readable by this user only; keep a copy, they are not in the database). agate is starting with the new App now, in this same process: there is nothing to restart, and later starts read that file.</p>
<p><a href="${escapeHtml(`${app.html_url}/installations/new`)}">Install it on your repositories</a>.</p>`,
    );
    this.resolveRegistered(app);
  }
}
