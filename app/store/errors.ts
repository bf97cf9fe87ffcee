/**
 * Typed store errors. Callers branch on the class (or `code`), people read the message: each one
 * says what went wrong and what to do about it.
 */
export class StoreError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** AGATE_DATABASE_URL (or the url option) is not a form this agate can open. */
export class DatabaseUrlError extends StoreError {
  constructor(message: string) {
    super("database_url", message);
  }
}

/** The database file exists but cannot be opened or configured as agate needs it. */
export class StoreOpenError extends StoreError {
  readonly location: string;

  constructor(location: string, message: string, options?: { cause?: unknown }) {
    super("store_open", message, options);
    this.location = location;
  }
}

/** The database was migrated by a newer agate; opening it with older code could corrupt it. */
export class DatabaseTooNewError extends StoreError {
  readonly location: string;
  readonly databaseVersion: number;
  readonly codeVersion: number;

  constructor(location: string, databaseVersion: number, codeVersion: number) {
    super(
      "database_too_new",
      `database ${location} is at schema version ${databaseVersion}, this agate knows up to ` +
        `${codeVersion}: upgrade agate, or point AGATE_DATABASE_URL at another database`,
    );
    this.location = location;
    this.databaseVersion = databaseVersion;
    this.codeVersion = codeVersion;
  }
}

/** An applied migration does not match the code's migration of the same version. */
export class MigrationMismatchError extends StoreError {
  constructor(location: string, version: number, applied: string, known: string) {
    super(
      "migration_mismatch",
      `database ${location} has migration ${version} "${applied}" applied, but this agate's ` +
        `migration ${version} is "${known}": the file was migrated by a different build of ` +
        `agate; use that build, or point AGATE_DATABASE_URL at another database`,
    );
  }
}

/** A value handed to the store does not match its schema; nothing was written. */
export class InvalidInputError extends StoreError {
  constructor(what: string, details: string) {
    super("invalid_input", `invalid ${what}, nothing was written: ${details}`);
  }
}

/** A stored row does not parse back through its schema; refuse to decide on it. */
export class CorruptRowError extends StoreError {
  constructor(table: string, key: string, details: string, options?: { cause?: unknown }) {
    super(
      "corrupt_row",
      `row ${key} in table ${table} does not match its schema (${details}); it was changed ` +
        `outside agate or by a different build: restore it from a backup or remove the file`,
      options,
    );
  }
}

/**
 * The worker no longer holds the job's lease: it expired and another claim took the job (or it
 * was completed). The worker must stop and must not write the job's results.
 */
export class LeaseLostError extends StoreError {
  readonly jobId: number;

  constructor(jobId: number, message: string) {
    super("lease_lost", message);
    this.jobId = jobId;
  }
}

/** The delivery is processed and retention has removed its payload; the rest of it is kept. */
export class DeliveryPrunedError extends StoreError {
  readonly deliveryId: string;
  readonly prunedAt: string;

  constructor(deliveryId: string, prunedAt: string, retentionMs: number) {
    super(
      "payload_pruned",
      `delivery ${deliveryId} was processed, and its payload was pruned at ${prunedAt} by the ` +
        `retention of ${retentionMs} ms (AGATE_DELIVERY_RETENTION); its id, event, digest and jobs ` +
        "are kept. Nothing should need it again: a job that does was enqueued outside agate",
    );
    this.deliveryId = deliveryId;
    this.prunedAt = prunedAt;
  }
}

export class NotFoundError extends StoreError {
  constructor(message: string) {
    super("not_found", message);
  }
}
