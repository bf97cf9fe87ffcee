/** Apps: the App itself (its slug, where it is installed), and any App by its slug (doctor). */
import { Octokit } from "@octokit/rest";
import { statusOf } from "./call.js";
import type { RestClient } from "./client.js";

/** The authenticated App's slug (a client authenticated as the App, not an installation). */
export async function appSlug(client: RestClient): Promise<string> {
  const { data } = await client.rest.apps.getAuthenticated();
  if (!data?.slug) throw new Error("GitHub did not say this App's slug; is APP_ID right?");
  return data.slug;
}

/**
 * The App as GitHub sees it, for a readiness probe: no retries and a deadline, since a probe must
 * answer in seconds; every failure is thrown for the probe to explain.
 */
export async function appForProbe(
  client: RestClient,
  timeoutMs: number,
): Promise<{ slug?: string | null; id?: number }> {
  const { data } = await client.rest.apps.getAuthenticated({
    request: { retries: 0, signal: AbortSignal.timeout(timeoutMs) },
  });
  return data ?? {};
}

/** The App's installation on a repository; null when the App is no longer installed there. */
export async function installationOf(client: RestClient, fullName: string): Promise<number | null> {
  const [owner, repo] = fullName.split("/");
  if (!owner || !repo) return null;
  try {
    const { data } = await client.rest.apps.getRepoInstallation({ owner, repo });
    return data.id;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** An App as GitHub shows it to this client; null when GitHub answers nothing. */
export async function appBySlug(client: RestClient, slug: string) {
  return (await client.rest.apps.getBySlug({ app_slug: slug })).data;
}

/** Every installation in an organisation (an owner's token only). */
export async function organisationInstallations(client: RestClient, org: string) {
  return client.paginate(client.rest.orgs.listAppInstallations, { org, per_page: 100 });
}

export interface RegisteredApp {
  id: number;
  slug: string;
  html_url: string;
  pem: string;
  webhook_secret: string;
}

/**
 * GitHub's App-manifest flow, the one call agate makes before it has credentials: the one-time
 * code GitHub hands back after a person creates the App from a manifest becomes the App's id,
 * private key and webhook secret (`POST /app-manifests/{code}/conversions`).
 */
export async function convertManifestCode(baseUrl: string, code: string): Promise<RegisteredApp> {
  // The code is the credential: no token, no retries (a code works once).
  const octokit = new Octokit({ baseUrl, request: { retries: 0 } });
  const { data } = await octokit.rest.apps.createFromManifest({ code });
  if (!data.pem || !data.webhook_secret) {
    throw new Error(
      `GitHub registered the App ${data.slug ?? data.id} but sent no private key or webhook secret: generate them on its settings page (${data.html_url})`,
    );
  }
  return {
    id: data.id,
    slug: data.slug ?? String(data.id),
    html_url: data.html_url,
    pem: data.pem,
    webhook_secret: data.webhook_secret,
  };
}
