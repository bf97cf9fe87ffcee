/**
 * The hidden line at the end of each of agate's replies on an entry. The App finds a reply it
 * posted before a crash by it (so none is posted twice); the CLI reads an entry's state, owner
 * and agate's answer to each command from it, with nothing but the comments.
 */
import {
  type EntryEventKind,
  entryEventKindSchema,
  type HandoffEntryState,
  handoffEntryStateSchema,
} from "../../schemas/handoff-entry.js";

export interface ReplyMarker {
  version: number;
  kind: EntryEventKind;
  state: HandoffEntryState;
  /** A login, or "agate" for a timer. */
  actor: string;
  /** The comment whose command this answers; null for none. */
  comment: number | null;
}

export function renderReplyMarker(marker: ReplyMarker): string {
  return `<!-- agate:entry-event v=${marker.version} kind=${marker.kind} state=${marker.state} actor=${marker.actor} comment=${marker.comment ?? 0} -->`;
}

/** The start of a version's marker, whatever follows: enough to find a reply already posted. */
export const markerPrefix = (version: number) => `<!-- agate:entry-event v=${version} `;

const MARKER =
  /<!-- agate:entry-event v=([1-9][0-9]*) kind=([a-z_]+) state=([a-z]+) actor=(\S+) comment=([0-9]+) -->/;

/** The marker in one comment's body; null when there is none or it does not parse. */
export function parseReplyMarker(body: string): ReplyMarker | null {
  const match = MARKER.exec(body);
  if (!match) return null;
  const kind = entryEventKindSchema.safeParse(match[2]);
  const state = handoffEntryStateSchema.safeParse(match[3]);
  if (!kind.success || !state.success) return null;
  const comment = Number(match[5]);
  return {
    version: Number(match[1]),
    kind: kind.data,
    state: state.data,
    actor: match[4] ?? "",
    comment: comment === 0 ? null : comment,
  };
}

export interface EntryStatus {
  state: HandoffEntryState;
  owner: string | null;
  version: number;
}

/**
 * An entry's state and owner from agate's replies, read in version order (comments by anyone
 * but `appLogin` are ignored: a marker typed by someone else proves nothing). Null when agate
 * has not opened the entry.
 */
export function entryStatus(
  comments: readonly { login: string; body: string }[],
  appLogin: string,
): EntryStatus | null {
  const markers = comments
    .filter((c) => c.login.toLowerCase() === appLogin.toLowerCase())
    .map((c) => parseReplyMarker(c.body))
    .filter((m): m is ReplyMarker => m !== null)
    .sort((a, b) => a.version - b.version);
  let status = null as EntryStatus | null;
  for (const m of markers) {
    if (m.kind === "refused") continue;
    const owner: string | null =
      m.kind === "claimed"
        ? m.actor
        : m.state === "claimed" || m.state === "resolved" || m.state === "escalated"
          ? (status?.owner ?? null)
          : null;
    status = { state: m.state, owner, version: m.version };
  }
  return status;
}
