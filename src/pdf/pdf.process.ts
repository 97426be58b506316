/** One rendering process of the PDF pool (`render.ts`): `pdf.worker.ts`'s render, served at the lowest priority. */
import { serveAtIdlePriority } from '../workers/idle-processes.ts';
import render from './pdf.worker.ts';

serveAtIdlePriority({ render });
