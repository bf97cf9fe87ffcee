import { createRequire as __agateCreateRequire } from 'node:module';
const require = __agateCreateRequire(import.meta.url);

// package.json
var package_default = { version: "0.1.0" };

// schemas/version.ts
var AGATE_VERSION = package_default.version;

export {
  AGATE_VERSION
};
