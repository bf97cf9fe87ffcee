/**
 * What never changes once read, kept per process: a config at a base commit, base...head
 * comparisons by SHA pair, files at a commit, the files a commit touched. Keys are exact SHAs (never refs), so a cached
 * answer is GitHub's answer; a failed read is not remembered. Safe with several replicas: each
 * may read once, none can read something stale.
 */
import type { ExtendsRef } from "../../checks/config/extends.js";
import { configExtends, parseConfig } from "../../checks/config/parse-config.js";
import { ConfigurationError } from "../../checks/errors.js";
import { CONFIG_PATH } from "../../schemas/config.js";
import type { BaseConfigFact } from "../../schemas/gate.js";
import { remember, rememberRead } from "../kit/bounded-map.js";
import type { CommitFiles, Comparison, GitHubAdapter } from "./adapter.js";
import { type DefaultsRead, readOrgDefaults } from "./org-defaults.js";

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
  private readonly commitFileLists = new Map<string, Promise<CommitFiles>>();
  /** Organisation defaults by (repository, SHA, path): immutable once read. */
  private readonly defaultsFiles = new Map<string, Promise<DefaultsRead>>();
  /**
   * Facts made without defaults that could not be read: not remembered, so a fixed installation
   * (the App added to the `.github` repository) takes effect at the next look.
   */
  private readonly unreadable = new WeakSet<BaseConfigFact>();

  /**
   * The config at a base commit: read once per commit, parsed once per blob (with the owner: a
   * config that extends defaults reads its owner's `.github` repository).
   */
  config(github: GitHubAdapter, baseSha: string): Promise<BaseConfigFact> {
    return rememberRead(
      this.configs,
      `${github.owner}/${github.repo}@${baseSha}`,
      FACTS_KEPT,
      async () => {
        const file = await this.file(github, CONFIG_PATH, baseSha);
        if (!file) return { status: "missing", path: CONFIG_PATH };
        const parsedKey = `${github.owner}:${file.blobSha}`;
        const known = this.parsed.get(parsedKey);
        if (known) return known;
        let fact: BaseConfigFact;
        let defaults: DefaultsRead | undefined;
        try {
          const ref = configExtends(file.text, CONFIG_PATH, github.owner);
          defaults = ref ? await this.orgDefaults(github, ref) : undefined;
          const { config, digest } = parseConfig(file.text, CONFIG_PATH, {
            owner: github.owner,
            defaults,
          });
          fact = { status: "ok", path: CONFIG_PATH, blob_sha: file.blobSha, digest, config };
        } catch (error) {
          if (!(error instanceof ConfigurationError)) throw error;
          fact = { status: "invalid", path: CONFIG_PATH, message: error.message };
        }
        if (defaults !== undefined && typeof defaults !== "string") {
          this.unreadable.add(fact);
          return fact;
        }
        remember(this.parsed, parsedKey, fact, FACTS_KEPT);
        return fact;
      },
      (fact) => !this.unreadable.has(fact),
    );
  }

  /**
   * The defaults a config extends, at their pinned commit, checked on the default branch: four
   * calls the first time, none after (the gate's config and the entries' rules share them). A
   * failed or refused read is read again.
   */
  orgDefaults(github: GitHubAdapter, ref: ExtendsRef): Promise<DefaultsRead> {
    return rememberRead(
      this.defaultsFiles,
      `${ref.owner}/${ref.repo}@${ref.sha}:${ref.path}`,
      FACTS_KEPT,
      () => readOrgDefaults(github, ref),
      (read) => typeof read === "string" && read.length <= MAX_FILE_CHARS,
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

  /**
   * The files a commit touched against its first parent, by its exact SHA (a handoff file's
   * freshness asks it of the same commits at every pass of a head).
   */
  commitFiles(github: GitHubAdapter, sha: string): Promise<CommitFiles> {
    return rememberRead(
      this.commitFileLists,
      `${github.owner}/${github.repo}@${sha}`,
      FACTS_KEPT,
      () => github.commitFiles(sha),
    );
  }
}
