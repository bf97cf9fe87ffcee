import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { normaliseOutput } from "../checks/normalise-output.js";
import { OUTPUT_TAIL_BYTES } from "../schemas/command-record.js";
import { MAX_LINE_CHARS, OutputDigest } from "./output-digest.js";

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

function digestInChunks(data: Buffer, chunkSize: number) {
  const digest = new OutputDigest();
  for (let i = 0; i < data.length; i += chunkSize) digest.update(data.subarray(i, i + chunkSize));
  return digest.finish();
}

describe("OutputDigest", () => {
  const text = Buffer.from(
    `${Array.from(
      { length: 5000 },
      (_, i) => `\u001b[32m✓\u001b[39m test ${i} (${i % 97}ms) — ünïcødé\n`,
    ).join("")}last line without newline`,
  );

  it.each([1, 7, 1024, 65_536, text.length])(
    "gives the same digests whatever the chunk size (%i bytes)",
    (size) => {
      const output = digestInChunks(text, size);
      expect(output.bytes).toBe(text.length);
      expect(output.sha256).toBe(sha256(text));
      expect(output.normalized_sha256).toBe(sha256(normaliseOutput(text.toString("utf8"))));
    },
  );

  it("keeps the true last 64 KiB as the tail, and says it is truncated", () => {
    const output = digestInChunks(text, 4096);
    expect(output.truncated).toBe(true);
    const expectedTail = text.subarray(-OUTPUT_TAIL_BYTES).toString("utf8");
    // The cut may fall inside a multi-byte character: those bytes are dropped, not garbled.
    expect(expectedTail.endsWith(output.tail)).toBe(true);
    expect(Buffer.byteLength(output.tail)).toBeGreaterThan(OUTPUT_TAIL_BYTES - 4);
    expect(output.tail).not.toContain("\uFFFD");
    expect(output.tail.endsWith("last line without newline")).toBe(true);
  });

  it("a short output is its own tail", () => {
    const output = digestInChunks(Buffer.from("ok\n"), 1);
    expect(output).toMatchObject({ bytes: 3, tail: "ok\n", truncated: false });
  });

  it("empty output has the digests of nothing", () => {
    const output = new OutputDigest().finish();
    expect(output).toEqual({
      bytes: 0,
      sha256: sha256(""),
      normalized_sha256: sha256(""),
      tail: "",
      truncated: false,
    });
  });

  it("binary output and a line longer than the line limit stay bounded and digest the raw bytes", () => {
    const binary = Buffer.concat([randomBytes(300_000), Buffer.alloc(MAX_LINE_CHARS * 3, 0x61)]);
    const output = digestInChunks(binary, 8192);
    expect(output.sha256).toBe(sha256(binary));
    expect(output.normalized_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(output.tail).toBe("a".repeat(OUTPUT_TAIL_BYTES));
  });
});
