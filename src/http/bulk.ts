/** The bulk routes (`bulk-create`, `bulk-notify`, `POST /api/staff/virements`) take bodies up to 4 MiB. */
export const BULK_BODY_LIMIT = 4 * 1024 * 1024;
