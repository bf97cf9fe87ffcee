import { z } from "zod";
import { configSchema } from "./config.js";

type JsonObject = Record<string, unknown>;

/**
 * JSON Schema of what a person writes (`io: "input"`: durations are text, defaults optional).
 * zod leaves out `examples` in input mode when a schema holds a transform, since they could be
 * output values; agate's examples are all written in input form, so they are kept.
 */
export function inputJsonSchema(schema: z.ZodType, title: string): JsonObject {
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
