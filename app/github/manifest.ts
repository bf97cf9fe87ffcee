/**
 * GitHub's App-manifest flow, the one call agate makes before it has credentials: the one-time
 * code GitHub hands back after a person creates the App from a manifest becomes the App's id,
 * private key and webhook secret (`POST /app-manifests/{code}/conversions`).
 */
import { Octokit } from "@octokit/rest";

export interface RegisteredApp {
  id: number;
  slug: string;
  html_url: string;
  pem: string;
  webhook_secret: string;
}

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
