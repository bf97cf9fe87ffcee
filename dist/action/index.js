import { createRequire as __agateCreateRequire } from 'node:module';
const require = __agateCreateRequire(import.meta.url);
import {
  external_exports
} from "./chunks/chunk-3CVLB5M4.js";
import "./chunks/chunk-FBXJFVTN.js";

// action/index.ts
external_exports.config({ jitless: true });
var { run } = await import("./chunks/main-ZC5RTWSJ.js");
await run();
