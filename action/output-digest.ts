import { createHash } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
import { normaliseLine } from "../checks/normalise-output.js";
import { type CommandOutput, OUTPUT_TAIL_BYTES } from "../schemas/command-record.js";

/**
 * A line longer than this is normalised and hashed in pieces, so memory stays bounded even
 * for output without newlines. Such lines are rare (minified bundles, progress bars).
 */
export const MAX_LINE_CHARS = 64 * 1024;

/**
 * Digests command output in one pass and bounded memory, whatever its size: sha256 of the raw
 * bytes, sha256 of the normalised text (same as hashing normaliseOutput() of the whole text,
 * for lines up to MAX_LINE_CHARS), and the last OUTPUT_TAIL_BYTES bytes as the tail.
 */
export class OutputDigest {
  private readonly raw = createHash("sha256");
  private readonly normalised = createHash("sha256");
  private readonly decoder = new StringDecoder("utf8");
  private partialLine = "";
  /** Normalised text not yet hashed: hashing in larger pieces is several times faster. */
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
    this.hashNormalised(normaliseLine(this.partialLine));
    this.partialLine = "";
    this.normalised.update(this.pending);
    this.pending = "";
    const tail = Buffer.concat(this.tailChunks).subarray(-OUTPUT_TAIL_BYTES);
    return {
      bytes: this.bytes,
      sha256: this.raw.digest("hex"),
      normalized_sha256: this.normalised.digest("hex"),
      tail: decodeTail(tail),
      truncated: this.bytes > tail.length,
    };
  }

  private addText(text: string): void {
    let start = 0;
    for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", start)) {
      this.hashNormalised(`${normaliseLine(this.partialLine + text.slice(start, newline))}\n`);
      this.partialLine = "";
      start = newline + 1;
    }
    this.partialLine += text.slice(start);
    if (this.partialLine.length > MAX_LINE_CHARS) {
      this.hashNormalised(normaliseLine(this.partialLine));
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

/** The tail may start inside a multi-byte character: drop its continuation bytes, not garble them. */
function decodeTail(tail: Buffer): string {
  let start = 0;
  while (start < tail.length && start < 4 && ((tail[start] ?? 0) & 0xc0) === 0x80) start++;
  return tail.subarray(start).toString("utf8");
}
