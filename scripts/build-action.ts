/**
 * Bundles the Action into dist/action/index.js, the file action.yml runs, `agate run` into
 * dist/cli/index.js, and the App into dist/app/index.js (what `npm start` runs: no TypeScript at
 * start, so a production install without dev dependencies starts). They are committed, as every
 * JavaScript action's bundle is, and CI fails when they differ from what this script makes.
 *
 * The App bundle holds agate's own code only; its dependencies (probot, better-sqlite3 with its
 * native binding) stay packages, loaded from node_modules.
 *
 * The Action is split: what it loads with import() only sometimes (the artifact upload with its
 * ~230 packages, the API client for reading the base config when git cannot, the trace reader
 * with the progress detector when the `trace` input is set) is in dist/action/chunks/, so a run
 * that needs none of them does not parse them.
 */
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { type BuildOptions, build, type Plugin } from "esbuild";

const ROOT_PACKAGE = resolve(import.meta.dirname, "..", "package.json");

/**
 * agate's own package.json is imported for its version only; bundling all of it would make every
 * edit to a script or a dependency range change dist/ for nothing.
 */
const versionOnly: Plugin = {
  name: "agate-version-only",
  setup(builder) {
    builder.onLoad({ filter: /package\.json$/ }, (args) =>
      resolve(args.path) === ROOT_PACKAGE
        ? {
            contents: JSON.stringify({
              version: JSON.parse(readFileSync(args.path, "utf8")).version,
            }),
            loader: "json",
          }
        : undefined,
    );
  },
};

/**
 * zod re-exports every locale (`z.locales`, ~40 languages) from `../locales/index.js`; agate
 * speaks English only and uses none of them, yet bundling them all costs a third of the Action's
 * bundle and ~45 ms of parsing at every start (docs/performance.md). Inside zod, that module is
 * replaced by English alone, which is the locale zod configures by default anyway.
 */
const zodEnglishOnly: Plugin = {
  name: "agate-zod-english-only",
  setup(builder) {
    // The module's path is kept relative to the checkout: esbuild writes it into the bundle as a
    // comment, and the bundle must not depend on where the repository was cloned.
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? {
            path: relative(process.cwd(), resolve(args.resolveDir, "../locales/index.js")),
            namespace: "zod-en",
          }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "zod-en" }, (args) => ({
      contents: `export { default as en } from "./en.js";`,
      loader: "js",
      resolveDir: dirname(resolve(args.path)),
    }));
  },
};

const shared = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __agateCreateRequire } from 'node:module';\nconst require = __agateCreateRequire(import.meta.url);",
  },
  legalComments: "none",
  logLevel: "warning",
  plugins: [versionOnly, zodEnglishOnly],
} satisfies BuildOptions;

rmSync("dist/action", { recursive: true, force: true });
await build({
  ...shared,
  entryPoints: ["action/index.ts"],
  outdir: "dist/action",
  splitting: true,
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
});
await build({
  ...shared,
  entryPoints: ["action/cli/bin.ts"],
  outfile: "dist/cli/index.js",
  banner: { js: `#!/usr/bin/env node\n${shared.banner.js}` },
});
chmodSync("dist/cli/index.js", 0o755);
await build({
  ...shared,
  entryPoints: ["app/main.ts"],
  outfile: "dist/app/index.js",
  packages: "external",
  banner: {},
});
console.log("built dist/action/index.js, dist/cli/index.js and dist/app/index.js");
