// Errors a state change throws; the router turns them into GitHub's 404 and 422 bodies.
type Json = Record<string, unknown>;

export class NotFound extends Error {}

export class Unprocessable extends Error {
  constructor(
    message: string,
    readonly errors: Json[] = [],
  ) {
    super(message);
  }
}
