/**
 * Bundles the Action into dist/action/index.js, the file action.yml runs. It is committed, as
 * every JavaScript action's bundle is, and CI fails when it differs from what this script makes.
 */
import { build } from "esbuild";

await build({
  entryPoints: ["action/index.ts"],
  outfile: "dist/action/index.js",
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
});
console.log("built dist/action/index.js");
