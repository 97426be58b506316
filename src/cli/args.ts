/** The command line's words: `payroll-access <command> [options]` to a command and its options. */
import { parseArgs } from 'node:util';
import { CommandError, findCommand, USAGE, type RawArgs } from './commands.ts';
import { oneLineMessage } from './control-socket.ts';

const GROUPS = new Set(['org', 'staff', 'member']);

export const HELP = `payroll-access <command> [options]

  migrate                                              apply pending migrations
  org create --name N [--key K]                        new organization (K: employer key, structure_api)
  staff create --email E [--first-name F] [--super]    staff account (SUPER_STAFF with --super), activated
  member add --org ID --email E --role R [--first-name F]
                                                       membership (R: ADMIN, SUPER_ADMIN, AGENT, COMPTA)
  login-link --email E                                 one-time sign-in link for an existing account
  seed-demo                                            demo organizations, members and staff

Configuration comes from the environment (DATABASE_URL, DATA_DIR, PUBLIC_URL…); see README.md.
Each command prints one JSON object, or one line on stderr and exits 1.
`;

export interface Invocation {
  name: string;
  args: RawArgs;
}

function parseParseArgsError(error: unknown, name: string): CommandError {
  const e = error as { code?: string; message?: string };
  const usage = `usage: payroll-access ${findCommand(name).usage}`;
  const option = /'(-[^' ]+)/.exec(e.message ?? '')?.[1];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new CommandError(`"${name}" has no option ${option ?? ''}; ${usage}`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (e.message?.includes('ambiguous')) {
        return new CommandError(`option ${option ?? ''} needs a value; write ${option ?? '--option'}=VALUE for a value that starts with "-"`);
      }
      return new CommandError(`option ${option ?? ''} ${e.message?.includes('argument missing') ? 'needs a value' : 'takes no value'}; ${usage}`);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new CommandError(`unexpected argument ${/'([^']*)'/.exec(e.message ?? '')?.[1] ?? ''} for "${name}"; ${usage}`);
    default:
      return new CommandError(`${oneLineMessage(error)}; ${usage}`);
  }
}

export function parseInvocation(argv: string[]): Invocation | 'help' {
  const [first, second] = argv;
  if (first === undefined) throw new CommandError(`no command given; ${USAGE}`);
  if (first === 'help' || first === '--help' || first === '-h') return 'help';
  const grouped = GROUPS.has(first);
  if (grouped && (second === undefined || second.startsWith('-'))) throw new CommandError(`"${first}" needs a sub-command; ${USAGE}`);
  const name = grouped ? `${first} ${second}` : first;
  const command = findCommand(name);
  let values: RawArgs;
  try {
    values = parseArgs({ args: argv.slice(grouped ? 2 : 1), options: command.options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw parseParseArgsError(error, name);
  }
  // parseArgs returns a null-prototype object; the control socket sends it as JSON.
  return { name, args: { ...values } };
}
