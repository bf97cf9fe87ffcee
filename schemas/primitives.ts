import { z } from "zod";

/** A git object id: SHA-1 (40 hex) or SHA-256 (64 hex) repositories. */
export const gitShaSchema = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, {
  error: "expected a git object id (40 or 64 hex digits)",
});

export const sha256HexSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { error: "expected a sha256 digest (64 hex digits)" });

export const isoDateTimeSchema = z.iso.datetime({ offset: true });

export const repositoryFullNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { error: "expected owner/name" });

export const githubLoginSchema = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$/, {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not a GitHub login such as octocat or copilot-swe-agent[bot]`,
  });

export const positiveIntSchema = z.number().int().positive();
export const nonNegativeIntSchema = z.number().int().nonnegative();
