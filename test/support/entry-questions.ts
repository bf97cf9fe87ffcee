/**
 * Tests and the demo: the questions agents ask in handoff entries, as `agate-gate entry open`
 * arguments. The staging port is one another agent knows; the billing commit is one nobody does.
 */
export const STAGING_PORT_QUESTION = [
  "--question",
  "Which port does the staging database listen on?",
  "--tried",
  "Searched this workspace and my environment for it: nothing names the staging port.",
  "--needed",
  "The port number, to write the staging DATABASE_URL.",
];

export const BILLING_COMMIT_QUESTION = [
  "--question",
  "Which commit introduced the flaky test in the legacy billing repository?",
  "--tried",
  "This workspace has no copy of that repository and no history of it.",
  "--needed",
  "A commit SHA.",
];
