/**
 * What never changes once read, kept per process: a config at a base commit, base...head
 * comparisons by SHA pair, files at a commit. Keys are exact SHAs (never refs), so a cached
 * answer is GitHub's answer; a failed read is not remembered. Safe with several replicas: each
 * may read once, none can read something stale.
 */
import { parseConfig } from "../../checks/config/parse-config.js";
import { ConfigurationError } from "../../checks/errors.js";
import { CONFIG_PATH } from "../../schemas/config.js";
import type { BaseConfigFact } from "../../schemas/gate.js";
import type { Comparison, GitHubAdapter } from "../github/adapter.js";
import { remember, rememberRead } from "./bounded-map.js";

/** Comparisons carry patches: fewer of them are kept than of the small facts. */
const COMPARISONS_KEPT = 32;
const FACTS_KEPT = 1_000;
/** What one cached entry may hold, so the caches stay within tens of MiB whatever is read. */
const MAX_COMPARISON_CHARS = 2 * 1024 * 1024;
const MAX_FILE_CHARS = 64 * 1024;

const patchChars = (comparison: Comparison) =>
  comparison.files.reduce((sum, f) => sum + (f.patch?.length ?? 0), 0);

export class ImmutableReads {
  private readonly configs = new Map<string, Promise<BaseConfigFact>>();
  private readonly parsed = new Map<string, BaseConfigFact>();
  private readonly comparisons = new Map<string, Promise<Comparison>>();
  private readonly files = new Map<string, Promise<{ text: string; blobSha: string } | null>>();

  /** The config at a base commit: read once per commit, parsed once per blob. */
  config(github: GitHubAdapter, baseSha: string): Promise<BaseConfigFact> {
    return rememberRead(
      this.configs,
      `${github.owner}/${github.repo}@${baseSha}`,
      FACTS_KEPT,
      async () => {
        const file = await this.file(github, CONFIG_PATH, baseSha);
        if (!file) return { status: "missing", path: CONFIG_PATH };
        const known = this.parsed.get(file.blobSha);
        if (known) return known;
        let fact: BaseConfigFact;
        try {
          const { config, digest } = parseConfig(file.text, CONFIG_PATH);
          fact = { status: "ok", path: CONFIG_PATH, blob_sha: file.blobSha, digest, config };
        } catch (error) {
          if (!(error instanceof ConfigurationError)) throw error;
          fact = { status: "invalid", path: CONFIG_PATH, message: error.message };
        }
        remember(this.parsed, file.blobSha, fact, FACTS_KEPT);
        return fact;
      },
    );
  }

  compare(github: GitHubAdapter, base: string, head: string): Promise<Comparison> {
    return rememberRead(
      this.comparisons,
      `${github.owner}/${github.repo}@${base}...${head}`,
      COMPARISONS_KEPT,
      () => github.compare(base, head),
      (comparison) => patchChars(comparison) <= MAX_COMPARISON_CHARS,
    );
  }

  /** A file at an exact commit; null when it is not there. */
  file(github: GitHubAdapter, path: string, sha: string) {
    return rememberRead(
      this.files,
      `${github.owner}/${github.repo}@${sha}:${path}`,
      FACTS_KEPT,
      () => github.fileAt(path, sha),
      (file) => (file?.text.length ?? 0) <= MAX_FILE_CHARS,
    );
  }
}
