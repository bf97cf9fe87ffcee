/** The App-manifest flow's one call (github/apps.ts), under the name app/runtime/registration.ts imports. */
export { convertManifestCode, type RegisteredApp } from "../../github/apps.js";
