/**
 * The version of URSSAF's model the payslips are computed with, read from its package.json alone:
 * the server stores it with each draft without loading the model's rules (they are loaded only in
 * the computing processes, `payroll.process.ts`).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** `modele-social@x.y.z`, stored with every computed payslip. */
export const MODEL_VERSION = `modele-social@${(require('modele-social/package.json') as { version: string }).version}`;
