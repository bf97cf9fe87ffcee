/**
 * Versioned SQLite migrations. Append new ones at the end; never edit an applied one (its name
 * is checked on every open, so an edited or reordered list is caught). sqlite/migrate.ts runs them.
 */
import { DatabaseTooNewError, MigrationMismatchError } from "./errors.js";

export interface Migration {
  version: number;
  name: string;
  up: string;
}

/** RAISE(ABORT) triggers that make a table append-only in the database itself. */
function appendOnly(table: string, what: string): string {
  return `
    CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON ${table}
    BEGIN SELECT RAISE(ABORT, '${what} are append-only: UPDATE is refused, append a new row'); END;
    CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON ${table}
    BEGIN SELECT RAISE(ABORT, '${what} are append-only: DELETE is refused'); END;
  `;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "deliveries, jobs, acceptance records, handoff entries, audit log",
    up: `
      CREATE TABLE deliveries (
        id TEXT PRIMARY KEY CHECK (id <> ''),
        event TEXT NOT NULL,
        action TEXT,
        payload_sha256 TEXT NOT NULL CHECK (length(payload_sha256) = 64),
        payload TEXT NOT NULL,
        received_at TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      ) STRICT;
      ${appendOnly("deliveries", "webhook deliveries")}

      -- AUTOINCREMENT: ids are never reused, so "older" (lower id) stays true for ordering.
      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind <> ''),
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        concurrency_key TEXT CHECK (concurrency_key <> ''),
        delivery_id TEXT REFERENCES deliveries (id),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'dead')),
        attempts INTEGER NOT NULL CHECK (attempts >= 0),
        max_attempts INTEGER NOT NULL CHECK (max_attempts > 0),
        run_at TEXT NOT NULL,
        lease_owner TEXT,
        lease_expires_at TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        CHECK (status <> 'running' OR (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL))
      ) STRICT;
      -- The claim walks these in order and stops at the first runnable job: no sort, no scan.
      CREATE INDEX jobs_queued ON jobs (run_at, id) WHERE status = 'queued';
      CREATE INDEX jobs_leased ON jobs (lease_expires_at, id) WHERE status = 'running';
      CREATE INDEX jobs_pending_by_key ON jobs (concurrency_key, id)
        WHERE status IN ('queued', 'running') AND concurrency_key IS NOT NULL;
      CREATE INDEX jobs_by_delivery ON jobs (delivery_id) WHERE delivery_id IS NOT NULL;
      CREATE INDEX jobs_by_status ON jobs (status, id);

      -- Nested parts are JSON text (SQL NULL for null); the query keys are real or generated
      -- columns, so they can never disagree with the JSON they come from.
      CREATE TABLE acceptance_records (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        repository TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        head_sha TEXT NOT NULL,
        base_sha TEXT NOT NULL,
        tested TEXT CHECK (json_valid(tested)),
        tested_tree_sha TEXT GENERATED ALWAYS AS (tested ->> '$.tree_sha') VIRTUAL,
        commands TEXT NOT NULL CHECK (json_valid(commands)),
        provenance TEXT CHECK (json_valid(provenance)),
        runner TEXT CHECK (json_valid(runner)),
        grader TEXT NOT NULL CHECK (json_valid(grader)),
        verdict TEXT CHECK (json_valid(verdict)),
        verdict_by TEXT,
        handoff TEXT CHECK (json_valid(handoff)),
        decision TEXT NOT NULL CHECK (json_valid(decision)),
        decision_state TEXT GENERATED ALWAYS AS (decision ->> '$.state') VIRTUAL,
        decided_at TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX acceptance_records_by_pull ON acceptance_records (repository, pull_number, id);
      CREATE INDEX acceptance_records_by_head
        ON acceptance_records (repository, pull_number, head_sha, id);
      CREATE INDEX acceptance_records_by_tree
        ON acceptance_records (repository, pull_number, tested_tree_sha);
      CREATE INDEX acceptance_records_by_state
        ON acceptance_records (repository, pull_number, decision_state);
      ${appendOnly("acceptance_records", "acceptance records")}

      -- Staleness is a later fact about a record, so it is a row of its own: the records table
      -- refuses every UPDATE, and the primary key lets a record be marked stale only once.
      CREATE TABLE acceptance_record_stale_marks (
        record_id INTEGER PRIMARY KEY REFERENCES acceptance_records (id),
        superseded_by TEXT NOT NULL,
        at TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      ) STRICT;
      CREATE TRIGGER acceptance_record_stale_marks_not_own_head
      BEFORE INSERT ON acceptance_record_stale_marks
      WHEN NEW.superseded_by = (SELECT head_sha FROM acceptance_records WHERE id = NEW.record_id)
      BEGIN SELECT RAISE(ABORT, 'a record cannot be superseded by its own head SHA'); END;
      ${appendOnly("acceptance_record_stale_marks", "stale marks")}

      CREATE TABLE handoff_entries (
        repository TEXT NOT NULL,
        issue_number INTEGER NOT NULL CHECK (issue_number > 0),
        fields TEXT NOT NULL CHECK (json_valid(fields)),
        state TEXT NOT NULL,
        owner TEXT,
        agent_waiting INTEGER NOT NULL CHECK (agent_waiting IN (0, 1)),
        follow_ups INTEGER NOT NULL CHECK (follow_ups >= 0),
        claim_expiries INTEGER NOT NULL CHECK (claim_expiries >= 0),
        escalation_reason TEXT,
        opened_at TEXT NOT NULL,
        state_changed_at TEXT NOT NULL,
        version INTEGER NOT NULL CHECK (version > 0),
        PRIMARY KEY (repository, issue_number)
      ) STRICT;
      CREATE INDEX handoff_entries_by_state ON handoff_entries (state, repository);
      CREATE TRIGGER handoff_entries_no_delete BEFORE DELETE ON handoff_entries
      BEGIN SELECT RAISE(ABORT, 'handoff entries are never deleted: move them to a terminal state'); END;
      CREATE TRIGGER handoff_entries_version_bumps BEFORE UPDATE ON handoff_entries
      WHEN NEW.version <> OLD.version + 1
      BEGIN SELECT RAISE(ABORT, 'a handoff entry update must bump version by exactly one'); END;

      CREATE TABLE handoff_entry_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        repository TEXT NOT NULL,
        issue_number INTEGER NOT NULL,
        version INTEGER NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        entry TEXT NOT NULL CHECK (json_valid(entry)),
        recorded_at TEXT NOT NULL,
        UNIQUE (repository, issue_number, version),
        FOREIGN KEY (repository, issue_number) REFERENCES handoff_entries (repository, issue_number)
      ) STRICT;
      ${appendOnly("handoff_entry_events", "handoff entry events")}

      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind <> ''),
        subject TEXT NOT NULL CHECK (subject <> ''),
        decision TEXT NOT NULL CHECK (json_valid(decision)),
        facts TEXT NOT NULL CHECK (json_valid(facts)),
        at TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX audit_log_by_subject ON audit_log (subject, id);
      CREATE INDEX audit_log_by_kind ON audit_log (kind, id);
      ${appendOnly("audit_log", "audit log entries")}
    `,
  },
  {
    version: 2,
    name: "evaluations",
    up: `
      -- One row per evaluator call (or failed attempt), bound to the tree it judged.
      CREATE TABLE evaluations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        repository TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        head_sha TEXT NOT NULL,
        tree_sha TEXT NOT NULL,
        config_digest TEXT NOT NULL,
        run TEXT NOT NULL CHECK (json_valid(run)),
        outcome TEXT NOT NULL CHECK (json_valid(outcome)),
        status TEXT NOT NULL CHECK (status IN ('verdict', 'failed')),
        at TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX evaluations_by_pull ON evaluations (repository, pull_number, id);
      ${appendOnly("evaluations", "evaluations")}
    `,
  },
  {
    version: 3,
    name: "maintainer overrides, observed test merge commits and heads, override on acceptance records",
    up: `
      ALTER TABLE acceptance_records ADD COLUMN override TEXT CHECK (json_valid(override));

      -- A maintainer's explicit acceptance of one exact head; a push voids it by moving the head.
      CREATE TABLE maintainer_overrides (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        repository TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        head_sha TEXT NOT NULL,
        -- The base it was given on: a retarget voids it as a push does.
        base_ref TEXT NOT NULL CHECK (base_ref <> ''),
        by TEXT NOT NULL CHECK (by <> ''),
        reason TEXT NOT NULL CHECK (reason <> ''),
        comment_url TEXT,
        at TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX maintainer_overrides_by_head
        ON maintainer_overrides (repository, pull_number, head_sha, id);
      ${appendOnly("maintainer_overrides", "maintainer overrides")}

      -- Test merge commits GitHub reported for a head (pulls/get merge_commit_sha): the only
      -- commits besides the head that a pull request's command record may have tested.
      CREATE TABLE merge_commits (
        repository TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        head_sha TEXT NOT NULL,
        merge_sha TEXT NOT NULL,
        observed_at TEXT NOT NULL,
        PRIMARY KEY (repository, pull_number, head_sha, merge_sha)
      ) STRICT;
      ${appendOnly("merge_commits", "observed merge commits")}

      -- Every (head, pull request, base) the App has seen. GitHub's check runs and workflow runs
      -- are per commit: a head seen in two pull requests, or in one under two bases, cannot be
      -- told apart by them, so its evidence is not believed and its check is never permissive.
      CREATE TABLE head_observations (
        repository TEXT NOT NULL,
        head_sha TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        base_ref TEXT NOT NULL CHECK (base_ref <> ''),
        observed_at TEXT NOT NULL,
        PRIMARY KEY (repository, head_sha, pull_number, base_ref)
      ) STRICT;
      ${appendOnly("head_observations", "observed heads")}
    `,
  },
  {
    version: 4,
    name: "delivery payloads in their own table, pruned by retention only",
    up: `
      -- A delivery's payload moves to its own table so that retention can remove it while the
      -- delivery row (id, event, action, digest, times) stays append-only: a redelivery of a
      -- pruned id is still recognised by its digest, and its jobs keep the outcome.
      CREATE TABLE delivery_payloads (
        delivery_id TEXT PRIMARY KEY REFERENCES deliveries (id),
        payload TEXT NOT NULL
      ) STRICT;
      INSERT INTO delivery_payloads (delivery_id, payload)
        SELECT id, payload FROM deliveries ORDER BY rowid;

      -- The repository a delivery names, kept when its payload goes (the reconcile pass lists
      -- every repository agate has heard of). Filled once here, for the rows before this.
      DROP TRIGGER deliveries_no_update;
      ALTER TABLE deliveries ADD COLUMN repository TEXT;
      UPDATE deliveries SET repository = CASE
        WHEN json_valid(payload) AND json_type(payload, '$.repository.full_name') = 'text'
        THEN payload ->> '$.repository.full_name' END;
      ALTER TABLE deliveries DROP COLUMN payload;
      CREATE TRIGGER deliveries_no_update BEFORE UPDATE ON deliveries
      BEGIN SELECT RAISE(ABORT, 'webhook deliveries are append-only: UPDATE is refused, append a new row'); END;
      CREATE INDEX deliveries_by_repository ON deliveries (repository) WHERE repository IS NOT NULL;

      -- A prune is a fact of its own, appended: which delivery, when, under which retention.
      -- The database itself refuses a prune of a delivery that is not processed (a job of it
      -- still queued or running) or not older than the retention at the prune's time, a
      -- retention under one hour, and a prune time ahead of this host's clock by more than an
      -- hour; its payload row is deleted by the trigger below, and by nothing else.
      CREATE TABLE delivery_payload_prunes (
        delivery_id TEXT PRIMARY KEY REFERENCES deliveries (id),
        retention_ms INTEGER NOT NULL CHECK (retention_ms >= 3600000),
        pruned_at TEXT NOT NULL CHECK (unixepoch(pruned_at) IS NOT NULL)
      ) STRICT;
      ${appendOnly("delivery_payload_prunes", "payload prunes")}
      CREATE TRIGGER delivery_payload_prunes_only_processed_and_old
      BEFORE INSERT ON delivery_payload_prunes
      BEGIN
        SELECT RAISE(ABORT, 'a delivery payload can be pruned only once, while it is stored')
        WHERE NOT EXISTS (SELECT 1 FROM delivery_payloads WHERE delivery_id = NEW.delivery_id);
        SELECT RAISE(ABORT, 'a delivery payload cannot be pruned while a job of the delivery is queued or running')
        WHERE EXISTS (SELECT 1 FROM jobs WHERE delivery_id = NEW.delivery_id
          AND status IN ('queued', 'running'));
        SELECT RAISE(ABORT, 'a delivery payload cannot be pruned before the retention has passed since the delivery was recorded')
        WHERE (SELECT round(unixepoch(recorded_at, 'subsec') * 1000) FROM deliveries
               WHERE id = NEW.delivery_id) + NEW.retention_ms
          > round(unixepoch(NEW.pruned_at, 'subsec') * 1000);
        SELECT RAISE(ABORT, 'a delivery payload prune cannot be dated ahead of the database host''s clock')
        WHERE unixepoch(NEW.pruned_at) > unixepoch('now') + 3600;
      END;
      CREATE TRIGGER delivery_payload_prunes_delete_payload
      AFTER INSERT ON delivery_payload_prunes
      BEGIN DELETE FROM delivery_payloads WHERE delivery_id = NEW.delivery_id; END;

      CREATE TRIGGER delivery_payloads_no_update BEFORE UPDATE ON delivery_payloads
      BEGIN SELECT RAISE(ABORT, 'delivery payloads are append-only: UPDATE is refused'); END;
      CREATE TRIGGER delivery_payloads_delete_only_pruned BEFORE DELETE ON delivery_payloads
      WHEN NOT EXISTS (SELECT 1 FROM delivery_payload_prunes WHERE delivery_id = OLD.delivery_id)
      BEGIN SELECT RAISE(ABORT, 'delivery payloads are append-only: only retention deletes one, by appending its prune'); END;
    `,
  },
  {
    version: 5,
    name: "pull request sightings and the ledger of agate's own check runs",
    up: `
      -- The newest view of each pull request a pass acted on, by GitHub's updated_at: a webhook's
      -- copy of the pull request is believed instead of a fresh read only when it is not older.
      -- Mutable on purpose: one row per pull request, replaced only by a view at least as new.
      CREATE TABLE pull_request_sightings (
        repository TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        updated_at TEXT NOT NULL CHECK (unixepoch(updated_at) IS NOT NULL),
        digest TEXT NOT NULL CHECK (length(digest) = 64),
        observed_at TEXT NOT NULL,
        PRIMARY KEY (repository, pull_number)
      ) STRICT;

      -- agate's own agate check run on each commit as agate last wrote it; known = 0 while a
      -- write is in flight (a crash there leaves it unknown, read from GitHub again).
      CREATE TABLE agate_check_runs (
        repository TEXT NOT NULL,
        head_sha TEXT NOT NULL,
        known INTEGER NOT NULL CHECK (known IN (0, 1)),
        check_run TEXT NOT NULL CHECK (json_valid(check_run)),
        written_at TEXT NOT NULL,
        PRIMARY KEY (repository, head_sha)
      ) STRICT;
    `,
  },
  {
    version: 6,
    name: "handoff entries as compare-and-set rows with an append-only history and posted replies",
    up: `
      -- Migration 1's tables were never written (no code used them); they are replaced by the
      -- shape the entry state machine needs: the whole entry as JSON (query keys generated from
      -- it, so they cannot disagree), and events that carry their reply and comment id.
      DROP TABLE handoff_entry_events;
      DROP TABLE handoff_entries;

      CREATE TABLE handoff_entries (
        repository TEXT NOT NULL,
        issue_number INTEGER NOT NULL CHECK (issue_number > 0),
        entry TEXT NOT NULL CHECK (json_valid(entry)),
        state TEXT GENERATED ALWAYS AS (entry ->> '$.state') VIRTUAL
          CHECK (state IN ('open', 'claimed', 'resolved', 'blocked', 'escalated')),
        version INTEGER NOT NULL CHECK (version > 0),
        updated_at TEXT NOT NULL,
        PRIMARY KEY (repository, issue_number)
      ) STRICT;
      CREATE INDEX handoff_entries_by_state ON handoff_entries (repository, state);
      CREATE TRIGGER handoff_entries_no_delete BEFORE DELETE ON handoff_entries
      BEGIN SELECT RAISE(ABORT, 'handoff entries are never deleted: move them to a terminal state'); END;
      CREATE TRIGGER handoff_entries_version_bumps BEFORE UPDATE ON handoff_entries
      WHEN NEW.version <> OLD.version + 1
      BEGIN SELECT RAISE(ABORT, 'a handoff entry update must bump version by exactly one'); END;

      -- One row per version: the change, who and why, the entry after it, and agate's reply.
      -- A comment's command is recorded once per entry (NULL comment ids are distinct).
      CREATE TABLE handoff_entry_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        repository TEXT NOT NULL,
        issue_number INTEGER NOT NULL,
        version INTEGER NOT NULL CHECK (version > 0),
        kind TEXT NOT NULL CHECK (kind <> ''),
        actor TEXT NOT NULL CHECK (actor <> ''),
        comment_id INTEGER CHECK (comment_id > 0),
        from_state TEXT,
        to_state TEXT NOT NULL,
        event TEXT NOT NULL CHECK (json_valid(event)),
        recorded_at TEXT NOT NULL,
        UNIQUE (repository, issue_number, version),
        UNIQUE (repository, issue_number, comment_id),
        FOREIGN KEY (repository, issue_number) REFERENCES handoff_entries (repository, issue_number)
      ) STRICT;
      ${appendOnly("handoff_entry_events", "handoff entry events")}

      -- A reply posted on the issue is a later fact about an event: a row of its own.
      CREATE TABLE handoff_entry_event_posts (
        event_id INTEGER PRIMARY KEY REFERENCES handoff_entry_events (id),
        posted_at TEXT NOT NULL
      ) STRICT;
      ${appendOnly("handoff_entry_event_posts", "posted replies")}
    `,
  },
  {
    version: 7,
    name: "dedupe keys on jobs",
    up: `
      -- A timer several replicas schedule at once (the reconcile pass, a deadline) is enqueued
      -- with a key: the unique index makes a second enqueue of the key a no-op while the first
      -- job holds it. dedupe_until says how long it holds it: until it starts running, or until
      -- it finishes (done or dead). A job without a key is never deduplicated.
      ALTER TABLE jobs ADD COLUMN dedupe_key TEXT CHECK (dedupe_key <> '');
      ALTER TABLE jobs ADD COLUMN dedupe_until TEXT NOT NULL DEFAULT 'finished'
        CHECK (dedupe_until IN ('started', 'finished'));
      CREATE UNIQUE INDEX jobs_dedupe ON jobs (dedupe_key)
        WHERE dedupe_key IS NOT NULL
          AND (status = 'queued' OR (status = 'running' AND dedupe_until = 'finished'));
    `,
  },
  {
    version: 8,
    name: "entry mentions in pull request descriptions",
    up: `
      -- Which issues each pull request's description mentions (#12, its URL), as the newest gate
      -- pass of that pull request read it: replaced whole by each pass, so mutable on purpose.
      -- The entry's pass looks it up the other way round: which pull requests mention an issue.
      CREATE TABLE entry_mentions (
        repository TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        issue_number INTEGER NOT NULL CHECK (issue_number > 0),
        PRIMARY KEY (repository, pull_number, issue_number)
      ) STRICT;
      CREATE INDEX entry_mentions_by_issue ON entry_mentions (repository, issue_number, pull_number);
    `,
  },
  {
    version: 9,
    name: "bases named by events",
    up: `
      -- Every (head, pull request, base) an event named, written with its delivery before any
      -- job reads the pull request: a base held for a moment (a retarget and back) is known,
      -- and a run the head had under it is never taken for the current base's. Append-only.
      CREATE TABLE base_sightings (
        repository TEXT NOT NULL,
        head_sha TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        base_ref TEXT NOT NULL CHECK (base_ref <> ''),
        delivery_id TEXT NOT NULL REFERENCES deliveries (id),
        seen_at TEXT NOT NULL,
        PRIMARY KEY (repository, head_sha, pull_number, base_ref)
      ) STRICT;
      ${appendOnly("base_sightings", "bases named by events")}
    `,
  },
  {
    version: 10,
    name: "dedupe keys on appends and the write-intent ledger",
    up: `
      -- What a job retried after a crash must not append twice carries a key derived from the
      -- job (or the comment it answers): the second append of a key is the first row. Rows
      -- appended before this migration have none.
      ALTER TABLE acceptance_records ADD COLUMN dedupe_key TEXT CHECK (dedupe_key <> '');
      CREATE UNIQUE INDEX acceptance_records_dedupe ON acceptance_records (dedupe_key)
        WHERE dedupe_key IS NOT NULL;
      ALTER TABLE audit_log ADD COLUMN dedupe_key TEXT CHECK (dedupe_key <> '');
      CREATE UNIQUE INDEX audit_log_dedupe ON audit_log (dedupe_key) WHERE dedupe_key IS NOT NULL;
      ALTER TABLE maintainer_overrides ADD COLUMN dedupe_key TEXT CHECK (dedupe_key <> '');
      CREATE UNIQUE INDEX maintainer_overrides_dedupe ON maintainer_overrides (dedupe_key)
        WHERE dedupe_key IS NOT NULL;

      -- A GitHub write that is not idempotent (a comment), recorded before it is sent with the
      -- hidden marker it carries; github_id once it is known made. Never deleted; a row changes
      -- once, from pending to done, and nothing else of it ever changes.
      CREATE TABLE write_intents (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key TEXT NOT NULL UNIQUE CHECK (key <> ''),
        scope TEXT NOT NULL CHECK (scope <> ''),
        repository TEXT NOT NULL,
        target INTEGER NOT NULL CHECK (target > 0),
        kind TEXT NOT NULL CHECK (kind IN ('comment')),
        body TEXT NOT NULL,
        marker TEXT NOT NULL UNIQUE CHECK (marker <> ''),
        recorded_at TEXT NOT NULL,
        github_id INTEGER CHECK (github_id > 0),
        done_at TEXT,
        CHECK ((github_id IS NULL) = (done_at IS NULL))
      ) STRICT;
      CREATE INDEX write_intents_pending ON write_intents (scope, id) WHERE github_id IS NULL;
      CREATE TRIGGER write_intents_no_delete BEFORE DELETE ON write_intents
      BEGIN SELECT RAISE(ABORT, 'write intents are never deleted'); END;
      CREATE TRIGGER write_intents_done_once BEFORE UPDATE ON write_intents
      WHEN OLD.github_id IS NOT NULL OR NEW.id IS NOT OLD.id OR NEW.key IS NOT OLD.key
        OR NEW.scope IS NOT OLD.scope OR NEW.repository IS NOT OLD.repository
        OR NEW.target IS NOT OLD.target OR NEW.kind IS NOT OLD.kind OR NEW.body IS NOT OLD.body
        OR NEW.marker IS NOT OLD.marker OR NEW.recorded_at IS NOT OLD.recorded_at
      BEGIN SELECT RAISE(ABORT, 'a write intent only gets GitHub''s id, once'); END;
    `,
  },
  {
    version: 11,
    name: "over-budget evaluations, head observations by pull request",
    up: `
      -- A CHECK cannot be altered in SQLite: the table is rebuilt in this transaction, every row
      -- kept with its id, the AUTOINCREMENT counter carried over (no id is ever used twice), the
      -- index and the append-only triggers made again. Nothing references evaluations.
      CREATE TABLE evaluations_v11 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        repository TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        head_sha TEXT NOT NULL,
        tree_sha TEXT NOT NULL,
        config_digest TEXT NOT NULL,
        run TEXT NOT NULL CHECK (json_valid(run)),
        outcome TEXT NOT NULL CHECK (json_valid(outcome)),
        status TEXT NOT NULL CHECK (status IN ('verdict', 'failed', 'over_budget')),
        at TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO evaluations_v11 (id, repository, pull_number, head_sha, tree_sha, config_digest,
        run, outcome, status, at, recorded_at)
      SELECT id, repository, pull_number, head_sha, tree_sha, config_digest, run, outcome, status,
        at, recorded_at FROM evaluations ORDER BY id;
      INSERT INTO sqlite_sequence (name, seq)
      SELECT 'evaluations_v11', 0 WHERE NOT EXISTS
        (SELECT 1 FROM sqlite_sequence WHERE name = 'evaluations_v11');
      UPDATE sqlite_sequence SET seq = max(seq,
        coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'evaluations'), 0))
      WHERE name = 'evaluations_v11';
      DROP TABLE evaluations;
      ALTER TABLE evaluations_v11 RENAME TO evaluations;
      CREATE INDEX evaluations_by_pull ON evaluations (repository, pull_number, id);
      ${appendOnly("evaluations", "evaluations")}
      -- The evaluator job asks which heads a pull request had since its pass read it.
      CREATE INDEX head_observations_by_pull ON head_observations (repository, pull_number);
    `,
  },
  {
    version: 12,
    name: "evaluations bound to their base, each pull request's newest head",
    up: `
      -- The base commit the evaluator was shown, its diff's merge base; rows before answer nothing.
      ALTER TABLE evaluations ADD COLUMN base_sha TEXT CHECK (base_sha <> '');
      ALTER TABLE evaluations ADD COLUMN merge_base_sha TEXT CHECK (merge_base_sha <> '');
      -- The head and base a pass saw last, from head_observations (its commit: null till then).
      CREATE TABLE pull_request_heads (
        repository TEXT NOT NULL,
        pull_number INTEGER NOT NULL CHECK (pull_number > 0),
        head_sha TEXT NOT NULL,
        base_ref TEXT NOT NULL CHECK (base_ref <> ''), base_sha TEXT CHECK (base_sha <> ''),
        observed_at TEXT NOT NULL CHECK (unixepoch(observed_at) IS NOT NULL),
        PRIMARY KEY (repository, pull_number)
      ) STRICT;
      INSERT INTO pull_request_heads
      SELECT repository, pull_number, head_sha, base_ref, NULL, observed_at FROM (
        SELECT *, row_number() OVER (PARTITION BY repository, pull_number
          ORDER BY unixepoch(observed_at, 'subsec') DESC, head_sha DESC, base_ref DESC) AS n
        FROM head_observations) WHERE n = 1;
    `,
  },
];

export const LATEST_SCHEMA_VERSION: number = MIGRATIONS.at(-1)?.version ?? 0;

/** What a migration run did, for logs (sqlite/migrate.ts, postgres/migrate.ts). */
export interface MigrationOutcome {
  from: number;
  to: number;
  applied: number[];
}

/**
 * The version a database is at, from its schema_migrations rows (oldest first), checked against
 * the list both backends run: a database newer than this agate, or one whose applied names differ
 * (an edited or reordered list), is refused before anything runs.
 */
export function appliedVersion(
  location: string,
  applied: readonly { version: number; name: string }[],
  migrations: readonly Migration[],
): number {
  const newest = migrations.at(-1)?.version ?? 0;
  const from = applied.at(-1)?.version ?? 0;
  if (from > newest) throw new DatabaseTooNewError(location, from, newest);
  for (const row of applied) {
    const known = migrations.find((m) => m.version === row.version);
    if (known?.name !== row.name) {
      throw new MigrationMismatchError(location, row.version, row.name, known?.name ?? "(none)");
    }
  }
  return from;
}

/** The list must be 1, 2, 3, …: a gap or a duplicate is a merge mistake, caught by a test. */
export function checkMigrationOrder(migrations: readonly Migration[] = MIGRATIONS): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `migration "${migration.name}" has version ${migration.version}, expected ${index + 1}: ` +
          "versions must be consecutive from 1; renumber the newest migration",
      );
    }
  });
}
