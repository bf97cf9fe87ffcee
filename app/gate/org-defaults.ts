/**
 * The organisation defaults a base config extends (`extends: <owner>/.github:<path>@<sha>`), read
 * through the installation at the pinned commit. What cannot be read is said, with what to do,
 * and the config that extends it is invalid (the gate blocks): never the repository's file alone.
 */
import type { ExtendsRef } from "../../checks/config/extends.js";
import type { GitHubAdapter } from "../github/adapter.js";

export type DefaultsRead = string | { unreadable: string };

export async function readOrgDefaults(
  github: Pick<GitHubAdapter, "fileOfRepository">,
  ref: ExtendsRef,
): Promise<DefaultsRead> {
  const read = await github.fileOfRepository(ref.owner, ref.repo, ref.path, ref.sha);
  if (read.ok) return read.text;
  const where = `${ref.path} at ${ref.sha} in ${ref.owner}/${ref.repo}`;
  return {
    unreadable:
      read.status === 404
        ? `GitHub answered 404 for ${where}: the file is not at that commit, or the agate App's installation cannot see ${ref.owner}/${ref.repo}. Check the path and the SHA, and install the App on ${ref.owner}/${ref.repo} too (or on all of ${ref.owner}'s repositories); it reads it with the contents: read it already has`
        : `GitHub answered ${read.status} (${read.message}) for ${where}: the agate App's installation needs contents: read on ${ref.owner}/${ref.repo}`,
  };
}
