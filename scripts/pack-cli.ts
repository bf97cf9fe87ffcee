/**
 * Packs the npm package `agate-gate`: the CLI bundle (dist/cli/index.js, which imports nothing but
 * Node's own modules) with a package.json of no dependencies, the licence and a README. The
 * repository's own package.json is the App's (probot, better-sqlite3's native build, pg): a person
 * who runs `npx agate-gate validate` must not install those. Writes the tarball and prints its path.
 *
 *   npm run pack:cli [-- OUT_DIR]     (default build/npm)
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CLI_PACKAGE } from "../checks/handoff/verify.js";

const ROOT = resolve(import.meta.dirname, "..");

interface RootPackage {
  version: string;
  license: string;
  engines: { node: string };
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
}

/** The published package.json: everything comes from the repository's, nothing is kept twice. */
export function cliManifest(root: RootPackage) {
  return {
    name: CLI_PACKAGE,
    version: root.version,
    description:
      "The agate CLI: run a repository's required agate commands locally, write and check the handoff file, validate .github/agate.yml, and check a repository's set-up (doctor).",
    license: root.license,
    type: "module",
    bin: { [CLI_PACKAGE]: "index.js" },
    files: ["index.js"],
    engines: root.engines,
    repository: root.repository,
    homepage: root.homepage,
    bugs: root.bugs,
    keywords: ["agate", "github", "ai-agents", "pull-requests", "ci", "merge-gate"],
  };
}

function readme(version: string, help: string): string {
  return `# ${CLI_PACKAGE}

The command line of [agate](https://github.com/agate-gate/agate#readme), the acceptance gate for
pull requests written by AI coding agents. One file, no dependencies; version ${version}.

\`\`\`text
${help.trimEnd()}
\`\`\`

The gate itself is a GitHub App and a GitHub Action; their set-up, and what every command checks,
is in agate's [README](https://github.com/agate-gate/agate#readme).
`;
}

export function packCli(outDir: string): string {
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as RootPackage;
  const bundle = join(ROOT, "dist", "cli", "index.js");
  const stage = join(outDir, CLI_PACKAGE);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  copyFileSync(bundle, join(stage, "index.js"));
  chmodSync(join(stage, "index.js"), 0o755);
  copyFileSync(join(ROOT, "LICENSE"), join(stage, "LICENSE"));
  const help = spawnSync(process.execPath, [bundle, "--help"], { encoding: "utf8" });
  if (help.status !== 0) {
    throw new Error(
      `dist/cli/index.js --help exited ${help.status}: ${help.stderr}; run npm run build`,
    );
  }
  writeFileSync(join(stage, "README.md"), readme(root.version, help.stdout));
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(cliManifest(root), null, 2)}\n`);
  const packed = spawnSync(
    "npm",
    ["pack", "--json", "--ignore-scripts", "--pack-destination", resolve(outDir)],
    { cwd: stage, encoding: "utf8" },
  );
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout) as { filename: string }[];
  if (!info) throw new Error(`npm pack said nothing: ${packed.stdout}`);
  return join(resolve(outDir), info.filename);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(packCli(resolve(process.argv[2] ?? join(ROOT, "build", "npm"))));
}
