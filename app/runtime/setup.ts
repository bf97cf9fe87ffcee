/**
 * Registration in one click, for an App started without credentials: GitHub's App-manifest flow.
 * `GET /` shows a form that posts the manifest (app.yml, with this App's webhook and redirect
 * URLs) to GitHub; a person clicks "Create GitHub App"; GitHub sends the browser back to
 * `/setup/done` with a one-time code, which is exchanged for the App's id, private key and
 * webhook secret. They are written to `.env` (mode 0600, never over an existing APP_ID), and the
 * next `npm start` runs the App with them.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { convertManifestCode, type RegisteredApp } from "../github/manifest.js";
import type { SetupSettings } from "./settings.js";

export const SETUP_PATH = "/setup";
export const SETUP_DONE_PATH = "/setup/done";
const WEBHOOKS_PATH = "/api/github/webhooks";

/** app.yml beside the package (the source tree, or dist/app's package). */
const MANIFEST_FILE = resolve(import.meta.dirname, "..", "..", "app.yml");

export interface SetupServer {
  url: string;
  port: number;
  /** Resolves with the App once a person registered it and `.env` was written. */
  registered: Promise<RegisteredApp>;
  close(): Promise<void>;
}

/** The manifest GitHub registers: app.yml, pointed at this App. */
export function manifestFor(publicUrl: string, file = MANIFEST_FILE): Record<string, unknown> {
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
export function writeCredentials(cwd: string, app: RegisteredApp): string {
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

export async function startSetup(options: {
  settings: SetupSettings;
  cwd: string;
  log?: (line: string) => void;
}): Promise<SetupServer> {
  const { settings } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  // The state ties GitHub's redirect to a form this process served: nobody else's code lands.
  const state = randomBytes(16).toString("hex");
  let done = false;
  let resolveRegistered: (app: RegisteredApp) => void = () => {};
  const registered = new Promise<RegisteredApp>((resolve) => {
    resolveRegistered = resolve;
  });

  const publicUrlOf = (req: IncomingMessage) =>
    settings.publicUrl ?? `http://${req.headers.host ?? `127.0.0.1:${settings.port}`}`;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://setup.invalid");
    if (req.method !== "GET") {
      res.writeHead(405, { allow: "GET" }).end();
      return;
    }
    if (url.pathname === "/" || url.pathname === SETUP_PATH) {
      const base = publicUrlOf(req);
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
<form action="${escapeHtml(`${where}?state=${state}`)}" method="post">
<input type="hidden" name="manifest" value="${escapeHtml(JSON.stringify(manifest))}">
<button type="submit">Create the GitHub App</button>
</form>`,
      );
      return;
    }
    if (url.pathname === SETUP_DONE_PATH) {
      const code = url.searchParams.get("code") ?? "";
      if (url.searchParams.get("state") !== state) {
        page(
          res,
          403,
          "Not this setup",
          '<p>This link did not come from the form this agate served. Start again at <a href="/">/</a>.</p>',
        );
        return;
      }
      if (done) {
        page(
          res,
          409,
          "Already registered",
          "<p>This agate was registered already; restart it with <code>npm start</code>.</p>",
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
        app = await convertManifestCode(settings.apiUrl, code);
        file = writeCredentials(options.cwd, app);
      } catch (error) {
        page(res, 502, "Registration failed", `<p>${escapeHtml((error as Error).message)}</p>`);
        log(`agate setup: ${(error as Error).message}`);
        return;
      }
      done = true;
      log(
        `agate setup: registered the GitHub App ${app.slug} (id ${app.id}); its credentials are in ${file}. Install it (${app.html_url}/installations/new), then run npm start again.`,
      );
      page(
        res,
        200,
        "agate is registered",
        `<h1>Registered ${escapeHtml(app.slug)}</h1>
<p>The App's id, private key and webhook secret are in <code>${escapeHtml(file)}</code> (readable by this user only).</p>
<ol><li><a href="${escapeHtml(`${app.html_url}/installations/new`)}">Install it on your repositories</a>.</li>
<li>Stop this setup server and run <code>npm start</code> again: agate starts with the new App.</li></ol>`,
      );
      resolveRegistered(app);
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${url.pathname}`);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`agate setup failed: ${error.message}`);
    });
  });
  const port = await new Promise<number>((ready, fail) => {
    server.once("error", fail);
    server.listen(settings.port, settings.host, () => {
      const address = server.address();
      ready(typeof address === "object" && address ? address.port : settings.port);
    });
  });
  const url = `http://127.0.0.1:${port}`;
  log(
    `agate is not registered yet (no APP_ID, PRIVATE_KEY or WEBHOOK_SECRET): open ${settings.publicUrl ?? url}/ to register it as a GitHub App from app.yml in one click.`,
  );
  return {
    url,
    port,
    registered,
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}
