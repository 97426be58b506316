/** Tells a database that cannot be reached from a query that failed. */

const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connect ECONNREFUSED',
  'timeout exceeded when trying to connect',
  // pg's client when the connect itself outlasts its connectionTimeoutMillis (openDatabase's connectTimeoutMs).
  'timeout expired',
  'Client has encountered a connection error',
  'Connection terminated unexpectedly',
  'the database system is starting up',
  'the database system is shutting down',
  'terminating connection due to administrator command',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  // Class 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
  if (typeof code === 'string' && (/^08/.test(code) || /^57P0[1-3]$/.test(code) || code === 'ECONNREFUSED' || code === 'ECONNRESET')) {
    return true;
  }
  return CONNECTION_MESSAGES.some((m) => error.message.includes(m));
}

/** PostgreSQL's unique-violation, for domain errors that map it (e.g. the one SUPER_ADMIN). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof Error)) return false;
  const e = error as { code?: unknown; constraint?: unknown };
  return e.code === '23505' && (constraint === undefined || e.constraint === constraint || error.message.includes(constraint));
}
