import { z } from "zod";
import { commandRecordSchema } from "./command-record.js";
import { configSchema } from "./config.js";
import { doctorReportSchema } from "./doctor.js";
import { statusReportSchema } from "./gate-status.js";
import { handoffFrontMatterSchema } from "./handoff-file.js";
import { progressReportSchema } from "./trace.js";

type JsonObject = Record<string, unknown>;

/**
 * JSON Schema of what a person writes (`io: "input"`: durations are text, defaults optional).
 * zod leaves out `examples` in input mode when a schema holds a transform, since they could be
 * output values; agate's examples are all written in input form, so they are kept.
 */
function inputJsonSchema(schema: z.ZodType, title: string): JsonObject {
  const json = z.toJSONSchema(schema, {
    io: "input",
    target: "draft-2020-12",
    override: ({ zodSchema, jsonSchema }) => {
      const examples = z.globalRegistry.get(zodSchema)?.examples;
      if (Array.isArray(examples) && jsonSchema.examples === undefined) {
        jsonSchema.examples = examples;
      }
    },
  }) as JsonObject;
  return { ...json, title: (json.title as string | undefined) ?? title };
}

export function configJsonSchema(): JsonObject {
  const { required, ...json } = inputJsonSchema(configSchema, "agate config (.github/agate.yml)");
  // A file that `extends` organisation defaults may leave version and commands to them (the
  // merged config must have them): editors require them only of a file that extends nothing.
  return { ...json, if: { required: ["extends"] }, else: { required } };
}

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
