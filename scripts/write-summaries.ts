/** Writes docs/summaries.md from the real renderers; a test fails when the committed file is stale. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { summariesGallery } from "../test/support/summary-gallery.js";

const file = join(import.meta.dirname, "..", "docs", "summaries.md");
writeFileSync(file, summariesGallery());
console.log("wrote docs/summaries.md");
