// GitHub App credentials the way GitHub checks them: an RS256 JWT signed with the app's private
// key (verified against its public key) for app endpoints, and opaque tokens for everything else.

import type { KeyObject } from "node:crypto";
import { createPublicKey, generateKeyPairSync, randomBytes, verify } from "node:crypto";

export interface AppKeys {
  /** PKCS#8 PEM, what Probot's PRIVATE_KEY takes. */
  privateKey: string;
  publicKey: KeyObject;
}

export function generateAppKeys(): AppKeys {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey,
  };
}

export type JwtCheck = { ok: true; appId: number } | { ok: false; message: string };

/** Maximum JWT lifetime GitHub accepts (10 minutes), and its tolerated clock drift. */
const MAX_LIFETIME_SECONDS = 600;
const CLOCK_DRIFT_SECONDS = 60;

export function looksLikeJwt(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(credential);
}

/**
 * Verifies what GitHub verifies: the signature against the app's public key, `iss` naming the
 * app, `iat` not in the future, `exp` in the future and at most 10 minutes after `iat`.
 * The messages are GitHub's, because Octokit's auth-app recognises some of them.
 */
export function verifyAppJwt(
  jwt: string,
  expectedAppId: number,
  publicKey: KeyObject | string,
  nowSeconds = Math.floor(Date.now() / 1000),
): JwtCheck {
  const parts = jwt.split(".");
  const [header64, payload64, signature64] = parts;
  if (parts.length !== 3 || !header64 || !payload64 || !signature64) {
    return { ok: false, message: "A JSON web token could not be decoded" };
  }
  let header: { alg?: unknown };
  let payload: { iss?: unknown; iat?: unknown; exp?: unknown };
  try {
    header = JSON.parse(Buffer.from(header64, "base64url").toString("utf8"));
    payload = JSON.parse(Buffer.from(payload64, "base64url").toString("utf8"));
  } catch {
    return { ok: false, message: "A JSON web token could not be decoded" };
  }
  if (header.alg !== "RS256")
    return { ok: false, message: "A JSON web token could not be decoded" };
  const key = typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey;
  const signed = verify(
    "RSA-SHA256",
    Buffer.from(`${header64}.${payload64}`),
    key,
    Buffer.from(signature64, "base64url"),
  );
  if (!signed) {
    return { ok: false, message: "A JSON web token could not be decoded" };
  }
  if (String(payload.iss) !== String(expectedAppId)) {
    return { ok: false, message: "'Issuer' claim ('iss') must be an Integer" };
  }
  if (typeof payload.iat !== "number" || payload.iat > nowSeconds + CLOCK_DRIFT_SECONDS) {
    return {
      ok: false,
      message: "'Issued at' claim ('iat') must be an Integer representing a time in the past",
    };
  }
  if (
    typeof payload.exp !== "number" ||
    payload.exp <= nowSeconds - CLOCK_DRIFT_SECONDS ||
    payload.exp - payload.iat > MAX_LIFETIME_SECONDS + CLOCK_DRIFT_SECONDS
  ) {
    return {
      ok: false,
      message:
        "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    };
  }
  return { ok: true, appId: Number(payload.iss) };
}

/** A fresh token in GitHub's installation-token format (`ghs_` + 36 characters). */
export function newTokenValue(): string {
  return `ghs_${randomBytes(27).toString("base64url").slice(0, 36)}`;
}

/** The credential in an Authorization header (`token X`, `Bearer X`), or undefined. */
export function credentialOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
