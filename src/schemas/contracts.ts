/** Schemas of the contracts endpoints. */
import { Type } from '@sinclair/typebox';
import { ListQuery, Page } from '../http/list.ts';
import { MoneyInput, MoneyString } from '../money/money.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableText = (description: string, maxLength = 200) => Type.Optional(Type.Union([Type.String({ maxLength, description }), Type.Null()]));

export const DateLineInput = Type.Object({
  date: Type.Optional(Type.String({ description: 'YYYY-MM-DD, within the contract period' })),
  nature: Type.Optional(Type.String({ description: 'representation, repetition, service or heures' })),
  quantity: Type.Optional(Type.Union([Type.String(), Type.Number()], { description: 'a positive number' })),
  amount: Type.Optional(MoneyInput),
});

export const DatesInput = Type.Array(DateLineInput, { description: 'salaries by date' });

/** A creation or a draft's edit: an edit changes the fields it carries (`null` clears one). */
export const ContractBody = Type.Object({
  employee_id: Type.Optional(Type.String({ maxLength: 100 })),
  kind: Type.Optional(Type.String({ description: 'CDDU, CDD or CDI' })),
  job_title: NullableText('emploi'),
  show_title: NullableText('objet / spectacle; required for a CDDU'),
  idcc: NullableText('four digits', 10),
  start_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
  end_date: Type.Optional(Type.Union([Type.String({ description: 'YYYY-MM-DD; required for CDDU and CDD, null for a CDI' }), Type.Null()])),
  monthly_gross: Type.Optional(Type.Union([MoneyInput, Type.Null()])),
  dates: Type.Optional(DatesInput),
});

/** An avenant: the new start and/or end, and the dates it adds. */
export const AmendmentBody = Type.Object({
  start_date: Type.Optional(Type.Union([Type.String({ description: 'YYYY-MM-DD: the new start, at or before the current one' }), Type.Null()])),
  end_date: Type.Optional(Type.Union([Type.String({ description: 'YYYY-MM-DD: the new end, at or after the current one (none for a CDI)' }), Type.Null()])),
  dates: Type.Optional(DatesInput),
});

export const DatesBody = Type.Object({ dates: Type.Optional(DatesInput) });

export const DateLine = Type.Object({
  date: Type.String(),
  nature: Type.String(),
  quantity: Type.String({ description: 'decimal string' }),
  amount: MoneyString,
});

const contractProperties = {
  id: Type.String(),
  org_id: Type.String(),
  contract_number: Type.String({ description: 'C-YYYY-NNNNNN' }),
  employee_id: Type.String(),
  employee: Type.Object({ first_name: Type.String(), last_name: Type.String() }),
  kind: Type.String(),
  status: Type.String({ description: 'brouillon, a_signer, signe or annule' }),
  job_title: NullableString,
  show_title: NullableString,
  idcc: NullableString,
  start_date: Type.String(),
  end_date: NullableString,
  monthly_gross: Type.Union([MoneyString, Type.Null()]),
  gross_total: Type.Union([MoneyString, Type.Null()]),
  has_generated_pdf: Type.Boolean(),
  has_signed_pdf: Type.Boolean(),
  signed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

/** A grid item: a contract without its dates. */
export const ContractSummary = Type.Object(contractProperties);
export const Contract = Type.Object({ ...contractProperties, dates: Type.Array(DateLine) });

export const ContractList = Page(ContractSummary);

export const GridQuery = Type.Object({
  ...ListQuery,
  status: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  employee_id: Type.Optional(Type.String()),
  from: Type.Optional(Type.String({ description: 'YYYY-MM-DD: contracts running on or after' })),
  to: Type.Optional(Type.String({ description: 'YYYY-MM-DD: contracts running on or before' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'employee name, contract number or show; case and accents ignored' })),
});

export const StaffGridQuery = Type.Object({ ...GridQuery.properties, org_id: Type.Optional(Type.String()) });

export const DatesAnswer = Type.Object({ gross_total: Type.Union([MoneyString, Type.Null()]), dates: Type.Array(DateLine) });

export const NoteBody = Type.Object({
  text: Type.Optional(Type.String({ maxLength: 5000, description: '1 to 5000 characters; several lines', 'x-text': 'multiline' })),
});
export const Note = Type.Object({
  id: Type.String(),
  author_email: Type.String(),
  text: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});
export const NoteList = Page(Note);
export const NoteListQuery = Type.Object({ ...ListQuery });

export const GeneratePdfBody = Type.Object({ contract_id: Type.Optional(Type.String({ maxLength: 100 })) });
export const SignedUrl = Type.Object({ url: Type.String(), expires_at: Type.String({ format: 'date-time' }) });
export const GeneratedPdf = Type.Object({ ok: Type.Literal(true), ...SignedUrl.properties });
export const PdfUrl = Type.Object({ ...SignedUrl.properties, signed: Type.Boolean() });
export const Ok = Type.Object({ ok: Type.Literal(true) });
