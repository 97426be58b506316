/**
 * The document a renderer takes: pdfmake's definition, minus what cannot cross to a worker
 * thread (functions). The page footer ("text … Page n / N") is drawn by the worker from
 * `pageFooter`; tables name their layout (`'payroll'` or the tighter `'payrollCompact'`, defined
 * in the worker).
 */
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';

export type PdfDocument = Omit<TDocumentDefinitions, 'header' | 'footer' | 'background' | 'pageBreakBefore'> & {
  /** Left of every page's footer (e.g. the operator's legal mentions). */
  pageFooter?: string;
  /**
   * Embed every font (Roboto, subset) even when Helvetica would do: PDF/A (a Factur-X invoice,
   * docs/einvoice.md) forbids fonts that are not embedded.
   */
  embedFonts?: boolean;
};
