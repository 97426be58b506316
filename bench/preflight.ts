/**
 * What `npm run bench` needs from the OS, checked before anything starts (no database made, no
 * server built): each program the chosen scenarios run, found on PATH, or the run stops with
 * the Debian package to install. Everything else the bench uses comes from npm.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Tool {
  /** The program, as the bench runs it (through PATH). */
  command: string;
  /** The Debian package that has it. */
  debianPackage: string;
  /** The scenarios (`--only` names) that run it. */
  scenarios: string[];
  why: string;
}

export const TOOLS: Tool[] = [
  { command: 'psql', debianPackage: 'postgresql-client', scenarios: ['global'], why: "the global staff list is timed beside psql's \\copy of the same rows" },
];

/** The full path of `command` on `PATH`, or null. */
export function onPath(command: string, searchPath = process.env.PATH ?? ''): string | null {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** One message per missing program the chosen scenarios need (none: the bench can start). */
export function missingTools(only: ReadonlySet<string>, searchPath = process.env.PATH ?? ''): string[] {
  return TOOLS.filter((tool) => tool.scenarios.some((scenario) => only.has(scenario)) && onPath(tool.command, searchPath) === null).map(
    (tool) =>
      `${tool.command} is not on PATH: ${tool.why} (scenario ${tool.scenarios.join(', ')}). ` +
      `Install Debian's ${tool.debianPackage} (apt-get install -y ${tool.debianPackage}), or leave ${tool.scenarios.join(', ')} out with --only.`,
  );
}
