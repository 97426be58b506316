/**
 * The kinds of job, named once: the module that queues a job, the one that runs it and the one
 * that answers while it runs may be different modules.
 */
export const JOB_KINDS = {
  /** A validated computed payslip's bulletin: rendered and stored (`payload.payslip_id`). */
  bulletin: 'payroll.bulletin',
  /** An invoice's or credit note's Factur-X PDF and XML, then its waiting notification (`payload.invoice_id`). */
  invoiceDocument: 'invoice.document',
  /** A payroll run: an organization's month computed into drafts (`payload.run_id`, the `payroll_runs` row). */
  payrollRun: 'payroll.run',
} as const;

/** The French name of a kind, for the staff's page. */
export const JOB_LABELS: Record<string, string> = {
  [JOB_KINDS.bulletin]: 'Bulletin de paie (PDF)',
  [JOB_KINDS.invoiceDocument]: 'Facture ou avoir (PDF Factur-X)',
  [JOB_KINDS.payrollRun]: 'Calcul de la paie',
};
