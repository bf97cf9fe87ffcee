import { createHash } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
import { normaliseLine, normaliseOutput } from "../checks/normalise-output.js";
import { type CommandOutput, OUTPUT_TAIL_BYTES } from "../schemas/command-record.js";

/**
 * A line longer than this is normalised and hashed in pieces, so memory stays bounded even
 * for output without newlines. Such lines are rare (minified bundles, progress bars).
 */
export const MAX_LINE_CHARS = 64 * 1024;

/** Normalised text is hashed once this much has gathered: larger pieces hash several times faster. */
const HASH_PIECE_CHARS = 64 * 1024;

/**
 * Digests command output in one pass and bounded memory, whatever its size: sha256 of the raw
 * bytes, sha256 of the normalised text (same as hashing normaliseOutput() of the whole text,
 * for lines up to MAX_LINE_CHARS), and the last OUTPUT_TAIL_BYTES bytes as the tail.
 *
 * What it holds, whatever the output's size: the tail (OUTPUT_TAIL_BYTES), the open line (at
 * most MAX_LINE_CHARS characters plus one chunk), normalised text waiting to be hashed (under
 * HASH_PIECE_CHARS), and the text of the chunk being read. The complete
 * lines of each chunk are normalised together (normaliseOutput), not one string per line.
 */
export class OutputDigest {
  private readonly raw = createHash("sha256");
  private readonly normalised = createHash("sha256");
  private readonly decoder = new StringDecoder("utf8");
  private partialLine = "";
  private pending = "";
  /** The last bytes seen, as a ring: `tailEnd` is where the next byte goes. */
  private readonly tail = Buffer.allocUnsafe(OUTPUT_TAIL_BYTES);
  private tailEnd = 0;
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
    const tail =
      this.bytes < OUTPUT_TAIL_BYTES
        ? this.tail.subarray(0, this.bytes)
        : Buffer.concat([this.tail.subarray(this.tailEnd), this.tail.subarray(0, this.tailEnd)]);
    return {
      bytes: this.bytes,
      sha256: this.raw.digest("hex"),
      normalized_sha256: this.normalised.digest("hex"),
      tail: decodeTail(tail),
      truncated: this.bytes > tail.length,
    };
  }

  private addText(text: string): void {
    const last = text.lastIndexOf("\n");
    if (last >= 0) {
      // The line an earlier chunk left open ends at this chunk's first newline; the complete
      // lines after it are normalised in one call.
      let from = 0;
      if (this.partialLine !== "") {
        const first = text.indexOf("\n");
        this.hashNormalised(`${normaliseLine(this.partialLine + text.slice(0, first))}\n`);
        this.partialLine = "";
        from = first + 1;
      }
      if (last >= from) this.hashNormalised(normaliseOutput(text.slice(from, last + 1)));
      this.partialLine = text.slice(last + 1);
    } else {
      this.partialLine += text;
    }
    if (this.partialLine.length > MAX_LINE_CHARS) {
      this.hashNormalised(normaliseLine(this.partialLine));
      this.partialLine = "";
    }
  }

  /** Short pieces gather in `pending`; a piece that fills it is hashed as it is, not copied. */
  private hashNormalised(text: string): void {
    if (this.pending.length + text.length < HASH_PIECE_CHARS) {
      this.pending += text;
      return;
    }
    if (this.pending !== "") this.normalised.update(this.pending);
    this.normalised.update(text);
    this.pending = "";
  }

  /** Copies the chunk's last bytes into the ring: one copy per byte, no allocation. */
  private keepTail(chunk: Buffer): void {
    const size = OUTPUT_TAIL_BYTES;
    let bytes = chunk;
    if (bytes.length >= size) {
      bytes = bytes.subarray(bytes.length - size);
      this.tailEnd = 0;
    }
    const first = Math.min(bytes.length, size - this.tailEnd);
    bytes.copy(this.tail, this.tailEnd, 0, first);
    bytes.copy(this.tail, 0, first);
    this.tailEnd = (this.tailEnd + bytes.length) % size;
  }
}

/** The tail may start inside a multi-byte character: drop its continuation bytes, not garble them. */
function decodeTail(tail: Buffer): string {
  let start = 0;
  while (start < tail.length && start < 4 && ((tail[start] ?? 0) & 0xc0) === 0x80) start++;
  return tail.subarray(start).toString("utf8");
}
