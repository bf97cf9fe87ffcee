/**
 * Versioned PostgreSQL migrations: the same versions, names and meaning as SQLite's
 * (../migrations.ts), written in PostgreSQL's dialect, so "version N" is the same schema on
 * either backend (a test holds the two lists together). Append new ones at the end, in step
 * with SQLite's; never edit an applied one (its name is checked on every open).
 *
 * Dialect choices, the same everywhere: caller-given times stay TEXT exactly as given (they are
 * returned as given), the store's own times (recorded_at, run_at, leases) are timestamptz and
 * compared as instants; JSON is `json` (validated, kept as written: key order and numbers
 * round-trip byte for byte, as SQLite's text does); ids are bigint identities (never reused);
 * append-only tables refuse UPDATE, DELETE and TRUNCATE in triggers.
 */
import type { Migration } from "../migrations.js";

/** Triggers that make a table append-only in the database itself (TRUNCATE too: it skips row triggers). */
function appendOnly(table: string, what: string): string {
  return `
    CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON ${table} FOR EACH ROW
      EXECUTE FUNCTION agate_refuse('${what} are append-only: UPDATE is refused, append a new row');
    CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON ${table} FOR EACH ROW
      EXECUTE FUNCTION agate_refuse('${what} are append-only: DELETE is refused');
    CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT
      EXECUTE FUNCTION agate_refuse('${what} are append-only: TRUNCATE is refused');
  `;
}

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "deliveries, jobs, acceptance records, handoff entries, audit log",
    up: `
      -- The message is the trigger's argument: one function for every refusal.
      CREATE FUNCTION agate_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation'; END
      $$;

      CREATE TABLE deliveries (
        id text PRIMARY KEY CHECK (id <> ''),
        event text NOT NULL,
        action text,
        payload_sha256 text NOT NULL CHECK (length(payload_sha256) = 64),
        payload text NOT NULL,
        received_at text NOT NULL,
        recorded_at timestamptz NOT NULL
      );
      ${appendOnly("deliveries", "webhook deliveries")}

      CREATE TABLE jobs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind <> ''),
        payload json NOT NULL,
        concurrency_key text CHECK (concurrency_key <> ''),
        delivery_id text REFERENCES deliveries (id),
        status text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'dead')),
        attempts integer NOT NULL CHECK (attempts >= 0),
        max_attempts integer NOT NULL CHECK (max_attempts > 0),
        run_at timestamptz NOT NULL,
        lease_owner text,
        lease_expires_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK (status <> 'running' OR (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL))
      );
      -- The claim reads these in order and stops at the first runnable job.
      CREATE INDEX jobs_queued ON jobs (run_at, id) WHERE status = 'queued';
      CREATE INDEX jobs_leased ON jobs (lease_expires_at, id) WHERE status = 'running';
      CREATE INDEX jobs_pending_by_key ON jobs (concurrency_key, id)
        WHERE status IN ('queued', 'running') AND concurrency_key IS NOT NULL;
      CREATE INDEX jobs_by_delivery ON jobs (delivery_id) WHERE delivery_id IS NOT NULL;
      CREATE INDEX jobs_by_status ON jobs (status, id);

      CREATE TABLE acceptance_records (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        repository text NOT NULL,
        pull_number integer NOT NULL CHECK (pull_number > 0),
        head_sha text NOT NULL,
        base_sha text NOT NULL,
        tested json,
        tested_tree_sha text GENERATED ALWAYS AS (tested ->> 'tree_sha') STORED,
        commands json NOT NULL,
        provenance json,
        runner json,
        grader json NOT NULL,
        verdict json,
        verdict_by text,
        handoff json,
        decision json NOT NULL,
        decision_state text GENERATED ALWAYS AS (decision ->> 'state') STORED,
        decided_at text NOT NULL,
        recorded_at timestamptz NOT NULL
      );
      CREATE INDEX acceptance_records_by_pull ON acceptance_records (repository, pull_number, id);
      CREATE INDEX acceptance_records_by_head
        ON acceptance_records (repository, pull_number, head_sha, id);
      CREATE INDEX acceptance_records_by_tree
        ON acceptance_records (repository, pull_number, tested_tree_sha);
      CREATE INDEX acceptance_records_by_state
        ON acceptance_records (repository, pull_number, decision_state);
      ${appendOnly("acceptance_records", "acceptance records")}

      -- Staleness is a later fact about a record: a row of its own, once per record.
      CREATE TABLE acceptance_record_stale_marks (
        record_id bigint PRIMARY KEY REFERENCES acceptance_records (id),
        superseded_by text NOT NULL,
        at text NOT NULL,
        recorded_at timestamptz NOT NULL
      );
      CREATE FUNCTION acceptance_record_stale_marks_not_own_head() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.superseded_by = (SELECT head_sha FROM acceptance_records WHERE id = NEW.record_id) THEN
          RAISE EXCEPTION 'a record cannot be superseded by its own head SHA'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER acceptance_record_stale_marks_not_own_head
        BEFORE INSERT ON acceptance_record_stale_marks
        FOR EACH ROW EXECUTE FUNCTION acceptance_record_stale_marks_not_own_head();
      ${appendOnly("acceptance_record_stale_marks", "stale marks")}

      -- Never written by any code and dropped by migration 6; created so version 1 has SQLite's
      -- tables (their triggers left out: nothing can reach these tables before 6 drops them).
      CREATE TABLE handoff_entries (
        repository text NOT NULL,
        issue_number integer NOT NULL CHECK (issue_number > 0),
        fields json NOT NULL,
        state text NOT NULL,
        owner text,
        agent_waiting boolean NOT NULL,
        follow_ups integer NOT NULL CHECK (follow_ups >= 0),
        claim_expiries integer NOT NULL CHECK (claim_expiries >= 0),
        escalation_reason text,
        opened_at text NOT NULL,
        state_changed_at text NOT NULL,
        version integer NOT NULL CHECK (version > 0),
        PRIMARY KEY (repository, issue_number)
      );
      CREATE TABLE handoff_entry_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        repository text NOT NULL,
        issue_number integer NOT NULL,
        version integer NOT NULL,
        from_state text,
        to_state text NOT NULL,
        entry json NOT NULL,
        recorded_at timestamptz NOT NULL,
        UNIQUE (repository, issue_number, version),
        FOREIGN KEY (repository, issue_number) REFERENCES handoff_entries (repository, issue_number)
      );

      CREATE TABLE audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind <> ''),
        subject text NOT NULL CHECK (subject <> ''),
        decision json NOT NULL,
        facts json NOT NULL,
        at text NOT NULL,
        recorded_at timestamptz NOT NULL
      );
      CREATE INDEX audit_log_by_subject ON audit_log (subject, id);
      CREATE INDEX audit_log_by_kind ON audit_log (kind, id);
      ${appendOnly("audit_log", "audit log entries")}
    `,
  },
  {
    version: 2,
    name: "evaluations",
    up: `
      CREATE TABLE evaluations (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        repository text NOT NULL,
        pull_number integer NOT NULL CHECK (pull_number > 0),
        head_sha text NOT NULL,
        tree_sha text NOT NULL,
        config_digest text NOT NULL,
        run json NOT NULL,
        outcome json NOT NULL,
        status text NOT NULL CHECK (status IN ('verdict', 'failed')),
        at text NOT NULL,
        recorded_at timestamptz NOT NULL
      );
      CREATE INDEX evaluations_by_pull ON evaluations (repository, pull_number, id);
      ${appendOnly("evaluations", "evaluations")}
    `,
  },
  {
    version: 3,
    name: "maintainer overrides, observed test merge commits and heads, override on acceptance records",
    up: `
      ALTER TABLE acceptance_records ADD COLUMN override json;

      CREATE TABLE maintainer_overrides (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        repository text NOT NULL,
        pull_number integer NOT NULL CHECK (pull_number > 0),
        head_sha text NOT NULL,
        base_ref text NOT NULL CHECK (base_ref <> ''),
        by text NOT NULL CHECK (by <> ''),
        reason text NOT NULL CHECK (reason <> ''),
        comment_url text,
        at text NOT NULL,
        recorded_at timestamptz NOT NULL
      );
      CREATE INDEX maintainer_overrides_by_head
        ON maintainer_overrides (repository, pull_number, head_sha, id);
      ${appendOnly("maintainer_overrides", "maintainer overrides")}

      CREATE TABLE merge_commits (
        repository text NOT NULL,
        pull_number integer NOT NULL CHECK (pull_number > 0),
        head_sha text NOT NULL,
        merge_sha text NOT NULL,
        observed_at text NOT NULL,
        PRIMARY KEY (repository, pull_number, head_sha, merge_sha)
      );
      ${appendOnly("merge_commits", "observed merge commits")}

      CREATE TABLE head_observations (
        repository text NOT NULL,
        head_sha text NOT NULL,
        pull_number integer NOT NULL CHECK (pull_number > 0),
        base_ref text NOT NULL CHECK (base_ref <> ''),
        observed_at text NOT NULL,
        PRIMARY KEY (repository, head_sha, pull_number, base_ref)
      );
      ${appendOnly("head_observations", "observed heads")}
    `,
  },
  {
    version: 4,
    name: "delivery payloads in their own table, pruned by retention only",
    up: `
      CREATE TABLE delivery_payloads (
        delivery_id text PRIMARY KEY REFERENCES deliveries (id),
        payload text NOT NULL
      );
      INSERT INTO delivery_payloads (delivery_id, payload) SELECT id, payload FROM deliveries;

      -- The repository a payload names, or NULL (not JSON, or no string there), as SQLite's
      -- json_valid / json_type / ->> read it. json, not jsonb: it accepts what SQLite accepts.
      CREATE FUNCTION agate_payload_repository(payload text) RETURNS text
      LANGUAGE plpgsql IMMUTABLE AS $$
      DECLARE doc json;
      BEGIN
        BEGIN
          doc := payload::json;
        EXCEPTION WHEN others THEN
          RETURN NULL;
        END;
        IF json_typeof(doc) = 'object' AND json_typeof(doc -> 'repository') = 'object'
          AND json_typeof(doc -> 'repository' -> 'full_name') = 'string' THEN
          RETURN doc -> 'repository' ->> 'full_name';
        END IF;
        RETURN NULL;
      END
      $$;

      DROP TRIGGER deliveries_no_update ON deliveries;
      ALTER TABLE deliveries ADD COLUMN repository text;
      UPDATE deliveries SET repository = agate_payload_repository(payload);
      ALTER TABLE deliveries DROP COLUMN payload;
      CREATE TRIGGER deliveries_no_update BEFORE UPDATE ON deliveries FOR EACH ROW
        EXECUTE FUNCTION agate_refuse('webhook deliveries are append-only: UPDATE is refused, append a new row');
      CREATE INDEX deliveries_by_repository ON deliveries (repository) WHERE repository IS NOT NULL;

      -- A prune is a fact of its own. The database refuses one of a delivery that is not
      -- processed or not older than the retention at the prune's time, a retention under one
      -- hour, and a prune dated more than an hour ahead of the database host's clock; the
      -- payload row is deleted by the trigger below, and by nothing else.
      CREATE TABLE delivery_payload_prunes (
        delivery_id text PRIMARY KEY REFERENCES deliveries (id),
        retention_ms bigint NOT NULL CHECK (retention_ms >= 3600000),
        pruned_at timestamptz NOT NULL
      );
      ${appendOnly("delivery_payload_prunes", "payload prunes")}
      CREATE FUNCTION delivery_payload_prunes_only_processed_and_old() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM delivery_payloads WHERE delivery_id = NEW.delivery_id) THEN
          RAISE EXCEPTION 'a delivery payload can be pruned only once, while it is stored'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF EXISTS (SELECT 1 FROM jobs WHERE delivery_id = NEW.delivery_id
            AND status IN ('queued', 'running')) THEN
          RAISE EXCEPTION 'a delivery payload cannot be pruned while a job of the delivery is queued or running'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF (SELECT recorded_at FROM deliveries WHERE id = NEW.delivery_id)
            + NEW.retention_ms * interval '1 millisecond' > NEW.pruned_at THEN
          RAISE EXCEPTION 'a delivery payload cannot be pruned before the retention has passed since the delivery was recorded'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        -- The one place the database's own clock is read: a guard against a runaway caller clock.
        IF NEW.pruned_at > now() + interval '1 hour' THEN
          RAISE EXCEPTION 'a delivery payload prune cannot be dated ahead of the database host''s clock'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER delivery_payload_prunes_only_processed_and_old
        BEFORE INSERT ON delivery_payload_prunes
        FOR EACH ROW EXECUTE FUNCTION delivery_payload_prunes_only_processed_and_old();
      CREATE FUNCTION delivery_payload_prunes_delete_payload() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM delivery_payloads WHERE delivery_id = NEW.delivery_id;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER delivery_payload_prunes_delete_payload
        AFTER INSERT ON delivery_payload_prunes
        FOR EACH ROW EXECUTE FUNCTION delivery_payload_prunes_delete_payload();

      CREATE TRIGGER delivery_payloads_no_update BEFORE UPDATE ON delivery_payloads FOR EACH ROW
        EXECUTE FUNCTION agate_refuse('delivery payloads are append-only: UPDATE is refused');
      CREATE TRIGGER delivery_payloads_no_truncate BEFORE TRUNCATE ON delivery_payloads
        FOR EACH STATEMENT
        EXECUTE FUNCTION agate_refuse('delivery payloads are append-only: TRUNCATE is refused');
      CREATE FUNCTION delivery_payloads_delete_only_pruned() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM delivery_payload_prunes WHERE delivery_id = OLD.delivery_id) THEN
          RAISE EXCEPTION 'delivery payloads are append-only: only retention deletes one, by appending its prune'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN OLD;
      END
      $$;
      CREATE TRIGGER delivery_payloads_delete_only_pruned BEFORE DELETE ON delivery_payloads
        FOR EACH ROW EXECUTE FUNCTION delivery_payloads_delete_only_pruned();
    `,
  },
  {
    version: 5,
    name: "pull request sightings and the ledger of agate's own check runs",
    up: `
      -- Mutable on purpose: one row per pull request, replaced only by a view at least as new.
      CREATE TABLE pull_request_sightings (
        repository text NOT NULL,
        pull_number integer NOT NULL CHECK (pull_number > 0),
        updated_at text NOT NULL,
        digest text NOT NULL CHECK (length(digest) = 64),
        observed_at text NOT NULL,
        PRIMARY KEY (repository, pull_number)
      );

      -- known = false while a write is in flight (a crash there leaves it unknown).
      CREATE TABLE agate_check_runs (
        repository text NOT NULL,
        head_sha text NOT NULL,
        known boolean NOT NULL,
        check_run json NOT NULL,
        written_at text NOT NULL,
        PRIMARY KEY (repository, head_sha)
      );
    `,
  },
  {
    version: 6,
    name: "handoff entries as compare-and-set rows with an append-only history and posted replies",
    up: `
      DROP TABLE handoff_entry_events;
      DROP TABLE handoff_entries;

      CREATE TABLE handoff_entries (
        repository text NOT NULL,
        issue_number integer NOT NULL CHECK (issue_number > 0),
        entry json NOT NULL,
        state text GENERATED ALWAYS AS (entry ->> 'state') STORED
          CHECK (state IN ('open', 'claimed', 'resolved', 'blocked', 'escalated')),
        version integer NOT NULL CHECK (version > 0),
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (repository, issue_number)
      );
      CREATE INDEX handoff_entries_by_state ON handoff_entries (repository, state);
      CREATE TRIGGER handoff_entries_no_delete BEFORE DELETE ON handoff_entries FOR EACH ROW
        EXECUTE FUNCTION agate_refuse('handoff entries are never deleted: move them to a terminal state');
      CREATE TRIGGER handoff_entries_no_truncate BEFORE TRUNCATE ON handoff_entries
        FOR EACH STATEMENT
        EXECUTE FUNCTION agate_refuse('handoff entries are never deleted: move them to a terminal state');
      CREATE FUNCTION handoff_entries_version_bumps() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.version <> OLD.version + 1 THEN
          RAISE EXCEPTION 'a handoff entry update must bump version by exactly one'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER handoff_entries_version_bumps BEFORE UPDATE ON handoff_entries
        FOR EACH ROW EXECUTE FUNCTION handoff_entries_version_bumps();

      -- bigint comment ids: GitHub's ids outgrew 32 bits long ago.
      CREATE TABLE handoff_entry_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        repository text NOT NULL,
        issue_number integer NOT NULL,
        version integer NOT NULL CHECK (version > 0),
        kind text NOT NULL CHECK (kind <> ''),
        actor text NOT NULL CHECK (actor <> ''),
        comment_id bigint CHECK (comment_id > 0),
        from_state text,
        to_state text NOT NULL,
        event json NOT NULL,
        recorded_at timestamptz NOT NULL,
        UNIQUE (repository, issue_number, version),
        UNIQUE (repository, issue_number, comment_id),
        FOREIGN KEY (repository, issue_number) REFERENCES handoff_entries (repository, issue_number)
      );
      ${appendOnly("handoff_entry_events", "handoff entry events")}

      CREATE TABLE handoff_entry_event_posts (
        event_id bigint PRIMARY KEY REFERENCES handoff_entry_events (id),
        posted_at text NOT NULL
      );
      ${appendOnly("handoff_entry_event_posts", "posted replies")}
    `,
  },
  {
    version: 7,
    name: "dedupe keys on jobs",
    up: `
      ALTER TABLE jobs ADD COLUMN dedupe_key text CHECK (dedupe_key <> '');
      ALTER TABLE jobs ADD COLUMN dedupe_until text NOT NULL DEFAULT 'finished'
        CHECK (dedupe_until IN ('started', 'finished'));
      -- Replicas enqueueing the same key at once: the second INSERT waits on the first's index
      -- entry, then does nothing (ON CONFLICT ... DO NOTHING names this index by its predicate).
      CREATE UNIQUE INDEX jobs_dedupe ON jobs (dedupe_key)
        WHERE dedupe_key IS NOT NULL
          AND (status = 'queued' OR (status = 'running' AND dedupe_until = 'finished'));
    `,
  },
  {
    version: 8,
    name: "entry mentions in pull request descriptions",
    up: `
      -- Replaced whole per pull request by each of its gate passes: mutable on purpose.
      CREATE TABLE entry_mentions (
        repository text NOT NULL,
        pull_number integer NOT NULL CHECK (pull_number > 0),
        issue_number integer NOT NULL CHECK (issue_number > 0),
        PRIMARY KEY (repository, pull_number, issue_number)
      );
      CREATE INDEX entry_mentions_by_issue ON entry_mentions (repository, issue_number, pull_number);
    `,
  },
  {
    version: 9,
    name: "bases named by events",
    up: `
      CREATE TABLE base_sightings (
        repository text NOT NULL,
        head_sha text NOT NULL,
        pull_number integer NOT NULL CHECK (pull_number > 0),
        base_ref text NOT NULL CHECK (base_ref <> ''),
        delivery_id text NOT NULL REFERENCES deliveries (id),
        seen_at text NOT NULL,
        PRIMARY KEY (repository, head_sha, pull_number, base_ref)
      );
      ${appendOnly("base_sightings", "bases named by events")}
    `,
  },
  {
    version: 10,
    name: "dedupe keys on appends and the write-intent ledger",
    up: `
      -- Replicas appending the same key at once: the second INSERT waits on the first's index
      -- entry, then does nothing (ON CONFLICT ... DO NOTHING names the index by its predicate).
      ALTER TABLE acceptance_records ADD COLUMN dedupe_key text CHECK (dedupe_key <> '');
      CREATE UNIQUE INDEX acceptance_records_dedupe ON acceptance_records (dedupe_key)
        WHERE dedupe_key IS NOT NULL;
      ALTER TABLE audit_log ADD COLUMN dedupe_key text CHECK (dedupe_key <> '');
      CREATE UNIQUE INDEX audit_log_dedupe ON audit_log (dedupe_key) WHERE dedupe_key IS NOT NULL;
      ALTER TABLE maintainer_overrides ADD COLUMN dedupe_key text CHECK (dedupe_key <> '');
      CREATE UNIQUE INDEX maintainer_overrides_dedupe ON maintainer_overrides (dedupe_key)
        WHERE dedupe_key IS NOT NULL;

      CREATE TABLE write_intents (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        key text NOT NULL UNIQUE CHECK (key <> ''),
        scope text NOT NULL CHECK (scope <> ''),
        repository text NOT NULL,
        target integer NOT NULL CHECK (target > 0),
        kind text NOT NULL CHECK (kind IN ('comment')),
        body text NOT NULL,
        marker text NOT NULL UNIQUE CHECK (marker <> ''),
        recorded_at timestamptz NOT NULL,
        github_id bigint CHECK (github_id > 0),
        done_at timestamptz,
        CHECK ((github_id IS NULL) = (done_at IS NULL))
      );
      CREATE INDEX write_intents_pending ON write_intents (scope, id) WHERE github_id IS NULL;
      CREATE TRIGGER write_intents_no_delete BEFORE DELETE ON write_intents FOR EACH ROW
        EXECUTE FUNCTION agate_refuse('write intents are never deleted');
      CREATE TRIGGER write_intents_no_truncate BEFORE TRUNCATE ON write_intents
        FOR EACH STATEMENT EXECUTE FUNCTION agate_refuse('write intents are never deleted');
      CREATE FUNCTION write_intents_done_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD.github_id IS NOT NULL
          OR (NEW.id, NEW.key, NEW.scope, NEW.repository, NEW.target, NEW.kind, NEW.body,
              NEW.marker, NEW.recorded_at)
            IS DISTINCT FROM (OLD.id, OLD.key, OLD.scope, OLD.repository, OLD.target, OLD.kind,
              OLD.body, OLD.marker, OLD.recorded_at) THEN
          RAISE EXCEPTION 'a write intent only gets GitHub''s id, once'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
      END
      $$;
      CREATE TRIGGER write_intents_done_once BEFORE UPDATE ON write_intents
        FOR EACH ROW EXECUTE FUNCTION write_intents_done_once();
    `,
  },
  {
    version: 11,
    name: "over-budget evaluations, head observations by pull request",
    up: `
      ALTER TABLE evaluations DROP CONSTRAINT evaluations_status_check;
      ALTER TABLE evaluations ADD CONSTRAINT evaluations_status_check
        CHECK (status IN ('verdict', 'failed', 'over_budget'));
      -- The evaluator job asks which heads a pull request had since its pass read it.
      CREATE INDEX head_observations_by_pull ON head_observations (repository, pull_number);
    `,
  },
  {
    version: 12,
    name: "evaluations bound to their base, each pull request's newest head",
    up: `
      ALTER TABLE evaluations ADD COLUMN base_sha text CHECK (base_sha <> '');
      ALTER TABLE evaluations ADD COLUMN merge_base_sha text CHECK (merge_base_sha <> '');
      CREATE TABLE pull_request_heads (
        repository text NOT NULL,
        pull_number integer NOT NULL CHECK (pull_number > 0),
        head_sha text NOT NULL,
        base_ref text NOT NULL CHECK (base_ref <> ''),
        base_sha text CHECK (base_sha <> ''),
        observed_at text NOT NULL,
        PRIMARY KEY (repository, pull_number)
      );
      INSERT INTO pull_request_heads (repository, pull_number, head_sha, base_ref, observed_at)
      SELECT DISTINCT ON (repository, pull_number)
        repository, pull_number, head_sha, base_ref, observed_at FROM head_observations
      ORDER BY repository, pull_number, observed_at::timestamptz DESC,
        head_sha COLLATE "C" DESC, base_ref COLLATE "C" DESC;
    `,
  },
];
