/** The employees module's words, one wording for its pages. */
import type { EmployeeCategory, EmployeeDfs } from '../db/schema.ts';

/** An artist's flat professional deduction, by the profession it falls under (the payroll model's). */
export const DFS_LABELS: Record<EmployeeDfs, string> = {
  artiste_dramatique: 'Artiste dramatique, lyrique, chorégraphique',
  artiste_musicien: 'Artiste musicien, choriste, chef d\u2019orchestre',
};

/** An employee's category, on the staff pages, the contract and the bulletin. */
export const EMPLOYEE_CATEGORY_LABELS: Record<EmployeeCategory, string> = {
  artiste: 'Artiste',
  technicien: 'Technicien',
  permanent: 'Personnel permanent',
};
