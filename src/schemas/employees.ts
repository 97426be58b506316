/** Schemas of the employees endpoints. */
import { Type } from '@sinclair/typebox';
import { ListQuery, Page } from '../http/list.ts';
import { Checked } from './fields.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const Optional = (description: string, maxLength = 200) => Type.Optional(Type.Union([Type.String({ maxLength, description }), Type.Null()]));

/**
 * The personalised withholding rate, checked by the rules: its refusal names the highest rate of
 * the model's neutral grid, which they give (`employeeErrors.invalidPasRate`).
 */
export const PasRate = Checked(
  Type.Union([Type.String(), Type.Number()], {
    'x-decimal': 'rate',
    description:
      'The personalised withholding (PAS) rate, a percentage as vat_rate ("7.50", 7.5, 0; 0 to the neutral grid\'s highest rate, two decimals at most); null clears it (the neutral grid)',
    examples: ['7.50'],
  }),
  {
    code: 'invalid_pas_rate',
    message:
      'Le taux personnalisé de prélèvement à la source (pas_rate) doit être un pourcentage de 0 au taux le plus haut de la grille du taux neutre, deux décimales au plus.',
  },
);

/** A creation or an edit: an edit changes the fields it carries (`null` clears an optional one). */
export const EmployeeBody = Type.Object({
  first_name: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'required at creation; at least one letter or digit once transliterated to Latin (it is the payee on SEPA transfers)',
    }),
  ),
  last_name: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'required at creation; at least one letter or digit once transliterated to Latin (it is the payee on SEPA transfers)',
    }),
  ),
  email: Optional('e-mail address', 320),
  category: Optional('artiste, technicien or permanent', 20),
  iban: Optional(
    'write-only: a valid IBAN of the SEPA zone (salaries are paid by SEPA transfer; another country: 400 invalid_iban), then shown as iban_last4 only',
    64,
  ),
  bic: Optional('8 or 11 characters', 20),
  cadre: Type.Optional(Type.Boolean({ description: 'Cadre status (default false)' })),
  pas_rate: Type.Optional(PasRate),
  dfs: Optional(
    "an artist's consent to the flat professional deduction: artiste_musicien or artiste_dramatique (the deduction's profession); null: none. Artists only",
    20,
  ),
  address_line: Optional("the bulletin: the employee's street line (200 characters at most)", 200),
  postcode: Optional('the bulletin: the postcode (2 to 12 letters, digits, spaces or hyphens)', 20),
  city: Optional('the bulletin: the city (100 characters at most)', 100),
  classification: Optional('the bulletin: the classification under the collective agreement, e.g. "Niveau 3 – échelon 2" (120 characters at most)', 200),
});

export const Employee = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: NullableString,
  category: NullableString,
  iban_last4: Type.Union([Type.String({ description: 'the last four characters of the IBAN' }), Type.Null()]),
  bic: NullableString,
  cadre: Type.Boolean(),
  pas_rate: Type.Union([Type.String({ description: 'percentage, two decimals' }), Type.Null()], {
    description: 'the personalised withholding rate; null: the neutral grid',
  }),
  dfs: Type.Union([Type.String(), Type.Null()], {
    description: 'the flat professional deduction the artist agreed to (artiste_musicien or artiste_dramatique); null: none',
  }),
  address_line: NullableString,
  postcode: NullableString,
  city: NullableString,
  classification: NullableString,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const EmployeeList = Page(Employee);

export const EmployeeListQuery = Type.Object({ ...ListQuery });

/** `/api/staff/orgs/{id}/salaries/{employee_id}`: the organization and its employee. */
export const OrgEmployeeParams = Type.Object({ id: Type.String({ maxLength: 100 }), employee_id: Type.String({ maxLength: 100 }) });
