/**
 * The JSON Schemas published beside the zod schemas (scripts/write-schemas.ts writes them; a
 * test fails when they are stale). Apart from json-schema.ts, which the config's parser uses: the
 * Action's bundle loads the config's schema only, not every published one.
 */
import { commandRecordSchema } from "./command-record.js";
import { doctorReportSchema } from "./doctor.js";
import { statusReportSchema } from "./gate-status.js";
import { handoffFrontMatterSchema } from "./handoff-file.js";
import { configJsonSchema, inputJsonSchema } from "./json-schema.js";
import { progressReportSchema } from "./trace.js";

type JsonObject = Record<string, unknown>;

/** The JSON Schemas published beside the zod schemas, by file name under schemas/. */
export function publishedJsonSchemas(): Record<string, string> {
  const render = (json: JsonObject) => `${JSON.stringify(json, null, 2)}\n`;
  return {
    "agate.schema.json": render(configJsonSchema()),
    "handoff.schema.json": render(
      inputJsonSchema(handoffFrontMatterSchema, "agate handoff file front matter"),
    ),
    "command-record.schema.json": render(
      inputJsonSchema(commandRecordSchema, "agate command record"),
    ),
    "trace-report.schema.json": render(
      inputJsonSchema(progressReportSchema, "agate agent-trace progress report"),
    ),
    "doctor-report.schema.json": render(
      inputJsonSchema(doctorReportSchema, "agate-gate doctor --json"),
    ),
    "agate-status.schema.json": render(
      inputJsonSchema(statusReportSchema, "agate-gate status --json"),
    ),
  };
}
