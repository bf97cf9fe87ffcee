import { diagnose, hasProblem, renderFindings } from "../../checks/setup/doctor.js";
import { type DoctorReport, doctorReportSchema } from "../../schemas/doctor.js";
import { DoctorAccessError, DoctorGitHub } from "./doctor-github.js";

export interface DoctorOptions {
  repo?: string;
  app?: string;
  apiUrl?: string;
  json?: boolean;
}

export interface DoctorOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * `agate-gate doctor`: reads the repository's set-up with the caller's token and prints one
 * finding per check. Exit 0 when nothing is a problem (some things may not have been checkable
 * with this token, and the output says which and why), 1 on any problem, 2 when the repository
 * itself cannot be read or the invocation is incomplete.
 */
export async function doctor(
  options: DoctorOptions,
  env: NodeJS.ProcessEnv,
  out: DoctorOutput,
): Promise<number> {
  const token = env.GITHUB_TOKEN || env.GH_TOKEN;
  if (!token) {
    out.stderr(
      "agate: doctor: no token: set GITHUB_TOKEN or GH_TOKEN to a token that can read the repository (for example GH_TOKEN=$(gh auth token)); an organisation owner's token also lets it check the App's installation\n",
    );
    return 2;
  }
  const full = options.repo ?? env.GITHUB_REPOSITORY;
  const [owner, repo, extra] = (full ?? "").split("/");
  if (!owner || !repo || extra !== undefined) {
    out.stderr(
      `agate: doctor: ${full ? `${JSON.stringify(full)} is not a repository` : "no repository"}: pass --repo OWNER/NAME (or set GITHUB_REPOSITORY)\n`,
    );
    return 2;
  }
  const apiUrl = (options.apiUrl || env.GITHUB_API_URL || "https://api.github.com").replace(
    /\/+$/,
    "",
  );
  if (!/^https?:\/\/[^/]/.test(apiUrl)) {
    out.stderr(
      `agate: doctor: --api-url ${JSON.stringify(apiUrl)} is not an http(s) URL such as https://github.example.com/api/v3\n`,
    );
    return 2;
  }
  let facts: Awaited<ReturnType<DoctorGitHub["facts"]>>;
  try {
    facts = await new DoctorGitHub(token, owner, repo, apiUrl).facts(options.app);
  } catch (error) {
    if (!(error instanceof DoctorAccessError)) throw error;
    out.stderr(`agate: doctor: ${error.message}\n`);
    return 2;
  }
  const findings = diagnose(facts);
  // Parsed on the way out: what scripts read from --json is the schema's shape, nothing else.
  const report: DoctorReport = doctorReportSchema.parse({
    repository: facts.repository,
    default_branch: facts.defaultBranch,
    findings,
  });
  out.stdout(
    options.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : renderFindings(`${facts.repository} (default branch ${facts.defaultBranch})`, findings),
  );
  return hasProblem(findings) ? 1 : 0;
}
