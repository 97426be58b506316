/**
 * The version of URSSAF's model the payslips are computed with, read from its package.json alone,
 * and of the service's overlay (law/spectacle/VERSION): the server stores it with each draft
 * without loading the rules (they are loaded only in the computing processes, `payroll.process.ts`).
 */
import { createRequire } from 'node:module';
import { OVERLAY_VERSION } from './law.ts';

const require = createRequire(import.meta.url);

/** `modele-social@x.y.z+spectacle.N`, stored with every computed payslip. */
export const MODEL_VERSION = `modele-social@${(require('modele-social/package.json') as { version: string }).version}+spectacle.${OVERLAY_VERSION}`;
