/** For the rule tests: what a rule throws, as the HTTP answer would carry it. */
import { AppError } from '../../src/http/errors.ts';

/** `fn`'s refusal as `<status> <code>` (an AppError), its text (anything else), or `no error`. */
export const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.code}` : String(error);
  }
  return 'no error';
};
