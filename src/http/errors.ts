/**
 * Errors a route can answer with. Services throw `AppError`; the one error handler
 * (`error-handler.ts`) renders them: JSON `{ error, message? }`, or the plain-text bodies
 * gives for 401 and for a failed access check.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: string,
    /** The French sentence shown to users; omitted from the body when undefined. */
    readonly userMessage?: string,
    /** When set, the body is this plain text instead of JSON. */
    readonly plainText?: string,
    /** When set, sent as `Retry-After` (429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(userMessage ?? code);
  }

  /**
   * Fields the JSON body carries beside `error` and `message` (e.g. the `payslip_ids` of a
   * refused batch). The route's schema for that status must declare them.
   */
  details?: Record<string, unknown>;

  withDetails(details: Record<string, unknown>): this {
    this.details = details;
    return this;
  }

  /** docs/api.md: 401, plain text `Unauthorized`. */
  static unauthorized(): AppError {
    return new AppError(401, 'unauthorized', undefined, 'Unauthorized');
  }

  /** The access rules (docs/access.md): 403, plain text `Forbidden`. */
  static forbidden(): AppError {
    return new AppError(403, 'forbidden', undefined, 'Forbidden');
  }
}

/** The JSON body of an error. */
export function errorBody(code: string, message?: string): { error: string; message?: string } {
  return message === undefined ? { error: code } : { error: code, message };
}

/**
 * A required field absent or empty is 400 `missing_<field>`, a wrong one 400
 * `invalid_<field>`. `label` names the field in the French message ("La date de début"), which
 * says "obligatoire": one word for every field, whatever its gender (never "requis(e)").
 */
export const fieldErrors = {
  missing: (field: string, label: string) => new AppError(400, `missing_${field}`, `${label} est obligatoire.`),
  invalid: (field: string, label: string) => new AppError(400, `invalid_${field}`, `${label} n'est pas valide.`),
};
