import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useSimulator } from "../../test/github/use-simulator.js";
import { tempDir } from "../../test/support/store.js";
import { type RegistrationServer, startRegistration } from "./registration.js";
import { loadSettings, loadSetupSettings } from "./settings.js";

const { sim } = useSimulator();

/** The form's target and its hidden manifest, as a browser would post them. */
function formOf(html: string): { action: string; manifest: Record<string, unknown> } {
  const fromHtml = (text: string) =>
    text
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
  const action = /<form action="([^"]+)"/.exec(html)?.[1];
  const manifest = /name="manifest" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !manifest) throw new Error(`no manifest form in:\n${html}`);
  return { action: fromHtml(action), manifest: JSON.parse(fromHtml(manifest)) };
}

describe("registration by GitHub's App-manifest flow (no credentials yet)", () => {
  let dir: string;
  let cleanup: () => void;
  let setup: RegistrationServer | undefined;
  const lines: string[] = [];
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    lines.length = 0;
  });
  afterEach(async () => {
    await setup?.close();
    setup = undefined;
    cleanup();
  });
  const start = async (extra: Record<string, string> = {}) => {
    setup = await startRegistration({
      settings: loadSetupSettings({
        PORT: "0",
        HOST: "127.0.0.1",
        GHE_HOST: sim.gheHost,
        GHE_PROTOCOL: "http",
        ...extra,
      }),
      cwd: dir,
      log: (line) => lines.push(line),
    });
    return setup;
  };

  /** The registration code, from the line of the log that prints it. */
  const codeInLog = () =>
    /the registration code ([0-9A-Z]{4}(?:-[0-9A-Z]{4}){3})/.exec(lines.join("\n"))?.[1] ?? "";
  const postCode = (server: RegistrationServer, code: string) =>
    fetch(`${server.url}/setup`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ code }).toString(),
    });

  it("serves app.yml as a manifest, exchanges GitHub's code for the App's credentials, and writes .env the App starts with", async () => {
    const server = await start({ AGATE_PUBLIC_URL: "https://agate.example.com/" });
    expect(lines[0]).toMatch(
      /^agate is not registered yet \(no APP_ID, PRIVATE_KEY or WEBHOOK_SECRET\); it listens on 127\.0\.0\.1:\d+\. To register it as a GitHub App from app\.yml: open https:\/\/agate\.example\.com\/ and enter the registration code [0-9A-Z]{4}(-[0-9A-Z]{4}){3} \(only this log shows it\)\.$/,
    );
    // Typed back as a person might: lower case, without the dashes.
    const home = await postCode(server, codeInLog().toLowerCase().replaceAll("-", ""));
    expect(home.status).toBe(200);
    const { action, manifest } = formOf(await home.text());
    const url = new URL(action);
    expect(`${url.origin}${url.pathname}`).toBe(`http://${sim.gheHost}/settings/apps/new`);
    const state = url.searchParams.get("state") ?? "";
    expect(state).toMatch(/^[0-9a-f]{32}$/);
    expect(manifest).toMatchObject({
      name: "agate",
      public: false,
      hook_attributes: { url: "https://agate.example.com/api/github/webhooks", active: true },
      redirect_url: "https://agate.example.com/setup/done",
      default_permissions: { checks: "write", contents: "read" },
    });
    expect(manifest.default_events).toContain("pull_request");

    // The person clicks "Create GitHub App"; GitHub redirects back with a one-time code.
    const { code } = sim.registerFromManifest(manifest);
    const forged = await fetch(`${server.url}/setup/done?code=${code}&state=${"0".repeat(32)}`);
    expect(forged.status).toBe(403);
    const back = await fetch(`${server.url}/setup/done?code=${code}&state=${state}`);
    expect(back.status, await back.clone().text()).toBe(200);
    expect(await back.text()).toContain(`Registered ${sim.appSlug}`);
    expect(await server.registered).toMatchObject({ id: sim.appId, slug: sim.appSlug });
    expect(sim.calls["apps/create-from-manifest"]).toBe(1);

    const file = join(dir, ".env");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const env = parseEnv(readFileSync(file, "utf8"));
    const settings = loadSettings(
      { ...env, GHE_HOST: sim.gheHost, GHE_PROTOCOL: "http" },
      { cwd: dir },
    );
    expect(settings.appId).toBe(sim.appId);
    expect(settings.webhookSecret).toBe(sim.webhookSecret);
    expect(settings.privateKey.trim()).toBe(sim.privateKey.trim());
    // The same link again changes nothing.
    expect((await fetch(`${server.url}/setup/done?code=${code}&state=${state}`)).status).toBe(409);
  });

  it("never overwrites an APP_ID already in .env, and says a local address is not reachable by GitHub", async () => {
    writeFileSync(join(dir, ".env"), "APP_ID=7\n");
    const server = await start();
    const html = await (await postCode(server, codeInLog())).text();
    expect(html).toContain("That address is this machine's own");
    const { action, manifest } = formOf(html);
    const state = new URL(action).searchParams.get("state") ?? "";
    const { code } = sim.registerFromManifest(manifest);
    const refused = await fetch(`${server.url}/setup/done?code=${code}&state=${state}`);
    expect(refused.status).toBe(502);
    expect(await refused.text()).toContain("already has an APP_ID; agate did not overwrite it");
    expect(readFileSync(join(dir, ".env"), "utf8")).toBe("APP_ID=7\n");
  });

  it("hands the flow's state only to someone with the code from the log: whoever reaches the page first cannot register their App", async () => {
    const server = await start({ AGATE_PUBLIC_URL: "https://agate.example.com/" });
    // The page a stranger behind the proxy gets: a question, no form to GitHub, no state.
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('name="code"');
    expect(html).not.toContain("state=");
    expect(html).not.toContain('name="manifest"');
    for (const wrong of ["", "0000-0000-0000-0000", `${codeInLog()}0`]) {
      const refused = await postCode(server, wrong);
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain("state=");
    }
    expect(lines).toContain("agate setup: a wrong registration code was entered on the page");
    // Without the state, GitHub's redirect of a stranger's own registration is refused.
    const { code } = sim.registerFromManifest(
      formOf((await (await postCode(server, codeInLog())).text()).replace(/state=[0-9a-f]+/, ""))
        .manifest,
    );
    const guessed = await fetch(`${server.url}/setup/done?code=${code}&state=`);
    expect(guessed.status).toBe(403);
    expect(sim.calls["apps/create-from-manifest"] ?? 0).toBe(0);
  });

  it("answers liveness (alive, waiting to be registered) and readiness (503, why) while waiting, and says where it really listens", async () => {
    const server = await start({ HOST: "" });
    expect(lines[0]).toMatch(/it listens on every interface \((::|0\.0\.0\.0)\), port \d+\./);
    expect(lines[0]).toContain("set AGATE_PUBLIC_URL to it");
    const live = await fetch(`${server.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ ok: true, status: "waiting to be registered" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      ok: false,
      why: expect.stringContaining("agate is not registered yet"),
    });
  });

  it("says after registering that the App starts in this same process, not to restart it", async () => {
    const server = await start();
    const { action, manifest } = formOf(await (await postCode(server, codeInLog())).text());
    const state = new URL(action).searchParams.get("state") ?? "";
    const { code } = sim.registerFromManifest(manifest);
    const page = await (await fetch(`${server.url}/setup/done?code=${code}&state=${state}`)).text();
    expect(page).toContain("in this same process: there is nothing to restart");
    expect(page).not.toMatch(/npm start. again|Stop this setup server/);
    expect(lines.at(-1)).toContain("agate starts with it now, in this same process");
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({
      ok: true,
      status: "registered; the App is starting",
    });
  });

  it("refuses bad setup settings in one line each", () => {
    expect(() =>
      loadSetupSettings({ AGATE_PUBLIC_URL: "agate.example.com", AGATE_GITHUB_ORG: "my org" }),
    ).toThrow(
      'agate cannot start: 2 settings are missing or invalid (environment variables):\n  - AGATE_PUBLIC_URL is "agate.example.com": give the address GitHub reaches this App at, such as https://agate.example.com\n  - AGATE_GITHUB_ORG is "my org": give the organisation\'s login, such as my-org',
    );
  });
});
