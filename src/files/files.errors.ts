/** The errors of the file store and of PDF uploads. */
import { AppError } from '../http/errors.ts';

export const fileErrors = {
  /** Exactly `{ "error": "invalid_signature" }`. */
  invalidSignature: () => new AppError(403, 'invalid_signature'),
  notFound: () => new AppError(404, 'not_found', 'Fichier introuvable.'),
  invalidPdf: () => new AppError(415, 'invalid_pdf', 'Le fichier doit être un PDF (il commence par %PDF-).'),
  notAnUpload: () => new AppError(415, 'unsupported_media_type', 'Le corps doit être du JSON.'),
};
