import { createHash } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
import { describe, expect, it } from "vitest";
import { type CommandOutput, OUTPUT_TAIL_BYTES } from "../schemas/command-record.js";
import { invalidUtf8, randomOutput, seeded } from "../test/support/normalise-output/corpus.js";
import { referenceLine } from "../test/support/normalise-output/reference.js";
import { MAX_LINE_CHARS, OutputDigest } from "./output-digest.js";

/**
 * The streaming digest as it was before the fast path (the stored command-output digests were
 * made with it), kept verbatim as the reference: the same chunks must give the same digests.
 */
class ReferenceDigest {
  private readonly raw = createHash("sha256");
  private readonly normalised = createHash("sha256");
  private readonly decoder = new StringDecoder("utf8");
  private partialLine = "";
  private pending = "";
  private tailChunks: Buffer[] = [];
  private tailLength = 0;
  private bytes = 0;

  update(chunk: Buffer): void {
    this.bytes += chunk.length;
    this.raw.update(chunk);
    this.keepTail(chunk);
    this.addText(this.decoder.write(chunk));
  }

  finish(): CommandOutput {
    this.addText(this.decoder.end());
    this.hashNormalised(referenceLine(this.partialLine));
    this.partialLine = "";
    this.normalised.update(this.pending);
    this.pending = "";
    const tail = Buffer.concat(this.tailChunks).subarray(-OUTPUT_TAIL_BYTES);
    let start = 0;
    while (start < tail.length && start < 4 && ((tail[start] ?? 0) & 0xc0) === 0x80) start++;
    return {
      bytes: this.bytes,
      sha256: this.raw.digest("hex"),
      normalized_sha256: this.normalised.digest("hex"),
      tail: tail.subarray(start).toString("utf8"),
      truncated: this.bytes > tail.length,
    };
  }

  private addText(text: string): void {
    let start = 0;
    for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", start)) {
      this.hashNormalised(`${referenceLine(this.partialLine + text.slice(start, newline))}\n`);
      this.partialLine = "";
      start = newline + 1;
    }
    this.partialLine += text.slice(start);
    if (this.partialLine.length > MAX_LINE_CHARS) {
      this.hashNormalised(referenceLine(this.partialLine));
      this.partialLine = "";
    }
  }

  private hashNormalised(text: string): void {
    this.pending += text;
    if (this.pending.length >= 64 * 1024) {
      this.normalised.update(this.pending);
      this.pending = "";
    }
  }

  private keepTail(chunk: Buffer): void {
    this.tailChunks.push(chunk);
    this.tailLength += chunk.length;
    if (this.tailLength > 2 * OUTPUT_TAIL_BYTES) {
      const kept = Buffer.concat(this.tailChunks).subarray(-OUTPUT_TAIL_BYTES);
      this.tailChunks = [Buffer.from(kept)];
      this.tailLength = kept.length;
    }
  }
}

/** Cuts `data` at the given sizes, cycling through them. */
function chunks(data: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length] ?? 1);
    out.push(data.subarray(at, at + size));
    at += size;
  }
  return out;
}

function both(pieces: Buffer[]) {
  const fast = new OutputDigest();
  const reference = new ReferenceDigest();
  for (const piece of pieces) {
    fast.update(piece);
    reference.update(piece);
  }
  return { fast: fast.finish(), reference: reference.finish() };
}

describe("OutputDigest gives exactly the reference digests, tail and sizes", () => {
  const random = seeded(1717);
  const corpus: [string, Buffer][] = [
    ["random text", Buffer.from(randomOutput(random, 3_000))],
    [
      "random ASCII text (escapes kept)",
      Buffer.from(
        randomOutput(random, 3_000).replace(/[^\t\n\r -~]/g, (c) => (c === "\u001b" ? c : "?")),
      ),
    ],
    [
      "ASCII after a cut character, then ASCII again",
      Buffer.from(`${"plain 12 line\n".repeat(5_000)}é ü\n${"more plain\n".repeat(10_000)}`),
    ],
    ["invalid UTF-8", invalidUtf8(random, 400)],
    ["CRLF only", Buffer.from("one\r\ntwo  \r\n\r\nthree\r".repeat(2_000))],
    [
      "long lines around the line limit",
      Buffer.from(
        [MAX_LINE_CHARS - 1, MAX_LINE_CHARS, MAX_LINE_CHARS + 1, 3 * MAX_LINE_CHARS + 5]
          .map((n) => `${"ab 12ms ".repeat(n / 8 + 1).slice(0, n)}\n`)
          .join(""),
      ),
    ],
    [
      "a long line of multi-byte characters",
      Buffer.from(`${"ü€🚀 17:30:20 ".repeat(20_000)}\nend`),
    ],
    ["no newline at all", Buffer.from("x 1s ".repeat(50_000))],
    ["the benchmark's line", Buffer.from("a line of output, 64 bytes long\n".repeat(10_000))],
  ];

  for (const [name, data] of corpus) {
    // One-byte pieces of the larger outputs take long and prove nothing the 3-byte ones do not.
    const small = data.length <= 100_000;
    it.each([
      ...(small ? [["1 byte", [1]] as [string, number[]]] : []),
      ["3 and 5 bytes (mid-character)", [3, 5]],
      ["1 KiB + 1", [1025]],
      ["64 KiB, as pipes deliver", [65_536]],
      ["64 KiB + 7", [65_543]],
      ["random sizes", Array.from({ length: 50 }, () => 1 + Math.floor(random() * 100_000))],
      ["whole", [data.length]],
    ])(`${name}, in pieces of %s`, (_label, sizes) => {
      const { fast, reference } = both(chunks(data, sizes));
      expect(fast).toEqual(reference);
    });
  }

  it("every cut of a short output with escapes, CRLF and multi-byte text gives the same digests", () => {
    const data = Buffer.from("é 12ms\r\n\u001b[31mü\u001b[0m 0xdeadbeef00  \n🚀 pid 7\r100%\nend");
    for (let cut = 1; cut < data.length; cut++) {
      const { fast, reference } = both([data.subarray(0, cut), data.subarray(cut)]);
      expect(fast, `cut at ${cut}`).toEqual(reference);
    }
  });
});
