/** Types of `field-messages.js` (a plain ES module the browser loads as it is; the server imports it too). */
export declare const DATE_EXAMPLE: string;
export declare const PERIOD_EXAMPLE: string;
export declare const EXECUTION_DAYS_AHEAD: number;
export declare function frDate(iso: string): string;
export declare function isoOfTyped(typed: string | null | undefined): string | null;
export declare function dateProblem(typed: string | null | undefined): string;
export declare function periodProblem(typed: string | null | undefined): string;
export declare function periodText(period: { start_date: string; end_date: string | null }): string;
export type FieldKind = 'date' | 'period' | 'execution_date' | 'contract_date' | 'other';
export declare function fieldMessage(refusal: {
  code: string;
  message: string;
  kind: FieldKind;
  typed?: string;
  period?: { start_date: string; end_date: string | null };
  today?: string;
}): string;
