/** Row types of every table, as Kysely sees them. Mirrors the migrations. */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

import type { MemberRole } from '../org/permissions.ts';

export type { MemberRole };
export type StaffLevel = 'STAFF' | 'SUPER_STAFF';

export interface UserMetadata {
  first_name?: string | null;
  display_name?: string | null;
  [key: string]: unknown;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  user_metadata: ColumnType<UserMetadata, UserMetadata | string | undefined, UserMetadata | string>;
  activated_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface OneTimeTokensTable {
  id: string;
  user_id: string;
  kind: 'invite' | 'magiclink';
  secret_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Generated<Date>;
  /** The organization whose invitation this is; null for sign-in links and staff invitations. */
  org_id: string | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  secret_hash: string;
  expires_at: Timestamp;
  last_verified_at: Generated<Date>;
  created_at: Generated<Date>;
}

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  structure_api: string | null;
  email_notifs: Generated<string[]>;
  email_notifs_cc: Generated<string[]>;
  virements_salaires: Generated<SalaryTransferMode>;
  documents_slug: string | null;
  siret: string | null;
  /** The headcount, at least 1 (default 1). */
  effectif: Generated<number>;
  /** The collective agreement (default `SVP`). */
  convention: Generated<OrgConvention>;
  /** The legal form, as the payroll model names it (default `association`). */
  categorie_juridique: Generated<CategorieJuridique>;
  /** The AT/MP rate, a percentage `numeric(5,2)` ("2.30"); null: the model's default. */
  taux_at: NullableNumeric;
  /** The buyer's postal address on invoices (null: unset). */
  address_line: string | null;
  postcode: string | null;
  city: string | null;
  /** ISO 3166 alpha-2 (default `FR`). */
  country: Generated<string>;
  /** The bulletin: the NAF code (APE), `9001Z` (no dot, upper case); null: unset. */
  ape_code: string | null;
  /** The bulletin: the URSSAF contributions are paid to ("Urssaf Île-de-France"); null: unset. */
  urssaf: string | null;
  created_at: Generated<Date>;
}

/** The collective agreement an organization's contracts fall under. */
export type OrgConvention = 'SVP' | 'droit_commun';

/** An organization's legal form (the payroll model's values). */
export type CategorieJuridique = 'association' | 'SARL' | 'SAS' | 'SELARL' | 'SELAS' | 'EI' | 'autre';

/** `Odentas`, the operator pays the salaries by transfer; `client`, the organization does. */
export type SalaryTransferMode = 'Odentas' | 'client';

export interface OrganizationMembersTable {
  org_id: string;
  user_id: string;
  role: MemberRole;
  revoked: Generated<boolean>;
  created_at: Generated<Date>;
  revoked_at: NullableTimestamp;
}

export interface StaffUsersTable {
  user_id: string;
  is_staff: Generated<boolean>;
  level: Generated<StaffLevel>;
  created_at: Generated<Date>;
  revoked_at: NullableTimestamp;
}

export interface StaffSettingsTable {
  user_id: string;
  active_org_id: string | null;
}

export interface UserAuthPreferencesTable {
  user_id: string;
  allow_magic_link: boolean;
  allow_password: boolean;
}

export interface MailOutboxTable {
  id: Generated<string>;
  kind: string;
  /** The first To address. */
  recipient: string;
  /** The other To addresses. */
  extra_to: Generated<string[]>;
  cc: Generated<string[]>;
  /** The Reply-To address, or null (a contract note answers its author). */
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  subject: string;
  text_body: string;
  html_body: string;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  locked_until: NullableTimestamp;
  last_error: string | null;
  created_at: Generated<Date>;
  sent_at: NullableTimestamp;
}

/** A durable job (docs/jobs.md). */
export type JobStatus = 'pending' | 'running' | 'done' | 'failed';
export interface JobsTable {
  id: Generated<string>;
  kind: string;
  payload: ColumnType<Record<string, unknown>, string | undefined, string>;
  org_id: string | null;
  subject_type: string | null;
  subject_id: string | null;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_after: Generated<Date>;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  /** Why the last attempt failed, in French, fit for staff (never a stack or a variable name). */
  last_error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

export type AccessAction =
  | 'invited'
  | 'added'
  | 'role_changed'
  | 'reactivated'
  | 'revoked'
  | 'invitation_resent'
  | 'active_org_selected'
  | 'staff_invited'
  | 'staff_revoked';

export interface AccessEventsTable {
  id: Generated<string>;
  org_id: string | null;
  action: AccessAction;
  actor_user_id: string | null;
  actor_email: string | null;
  target_user_id: string | null;
  target_email: string | null;
  old_role: string | null;
  new_role: string | null;
  created_at: Generated<Date>;
}

/** A fixed-window request counter of `@fastify/rate-limit` (src/http/rate-limit-store.ts). */
export interface RateLimitsTable {
  key: string;
  hits: number;
  expires_at: Date;
}

/** A stored file (src/files): its bytes here, or in S3 (`content` null) when STORAGE_URL says so. */
export interface FilesTable {
  id: Generated<string>;
  org_id: string | null;
  filename: string;
  content_type: string;
  size: number;
  content: Uint8Array | null;
  created_at: Generated<Date>;
}

/** A secret generated once and shared by every instance (the key of signed file URLs). */
export interface AppSecretsTable {
  name: string;
  value: Uint8Array;
}

export type EmployeeCategory = 'artiste' | 'technicien' | 'permanent';

/** `iban` in electronic form; never sent to a client. */
export interface EmployeesTable {
  id: Generated<string>;
  org_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  category: EmployeeCategory | null;
  iban: string | null;
  bic: string | null;
  /** Cadre status (default false). */
  cadre: Generated<boolean>;
  /** The personalised withholding (PAS) rate, a percentage `numeric(5,2)`; null: the neutral grid. */
  pas_rate: NullableNumeric;
  /** An artist's consent to the flat professional deduction, by profession; null: none. */
  dfs: EmployeeDfs | null;
  /** The bulletin: the employee's postal address (null: unset). */
  address_line: string | null;
  postcode: string | null;
  city: string | null;
  /** The bulletin: the collective agreement's classification ("Niveau 3 – échelon 2"); null: unset. */
  classification: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type EmployeeDfs = 'artiste_musicien' | 'artiste_dramatique';

/** A yearly number series (`contract`: C-YYYY-NNNNNN, `invoice`: F-YYYY-NNNNNN): the last number given. */
export interface NumberSeriesTable {
  series: string;
  year: number;
  last_value: number;
}

export type ContractKind = 'CDDU' | 'CDD' | 'CDI';
export type ContractStatus = 'brouillon' | 'a_signer' | 'signe' | 'annule';
export type DateNature = 'representation' | 'repetition' | 'service' | 'heures';

/** numeric(12,2): a decimal string from both drivers ("642.40"). */
type Numeric = ColumnType<string, string, string>;
type NullableNumeric = ColumnType<string | null, string | null | undefined, string | null>;
/** `date`: 'YYYY-MM-DD' from both drivers (src/db/database.ts). */
type CalendarDate = ColumnType<string, string, string>;

/** Contracts: CDDU and general-regime contracts of an organization. */
export interface ContractsTable {
  id: Generated<string>;
  org_id: string;
  contract_number: string;
  employee_id: string;
  kind: ContractKind;
  status: Generated<ContractStatus>;
  job_title: string | null;
  show_title: string | null;
  idcc: string | null;
  start_date: CalendarDate;
  end_date: string | null;
  monthly_gross: NullableNumeric;
  gross_total: NullableNumeric;
  generated_pdf_id: string | null;
  signed_pdf_id: string | null;
  signed_at: NullableTimestamp;
  /** Folded (lower case, no accents) employee name, number and show: the grid's `q`. */
  search_text: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ContractDatesTable {
  contract_id: string;
  position: number;
  date: CalendarDate;
  nature: DateNature;
  quantity: Numeric;
  amount: Numeric;
}

export interface ContractNotesTable {
  /** bigint identity, read as a string. */
  id: Generated<string>;
  contract_id: string;
  author_user_id: string | null;
  author_email: string;
  /** The author was staff when writing: clients see "Équipe paie", not the address. */
  author_is_staff: Generated<boolean>;
  text: string;
  created_at: Generated<Date>;
}

/** An audit event of the modules: what changed (`subject_type`, `subject_id`), who did it. */
export interface ModuleEventsTable {
  id: Generated<string>;
  org_id: string | null;
  /** e.g. `contract.created`, `contract.submitted`, `employee.updated`, `organization.updated`. */
  action: string;
  subject_type: string;
  subject_id: string;
  actor_user_id: string | null;
  actor_email: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Generated<Date>;
}

/** A payslip the operator publishes or computes (`brouillon` until validated, docs/payroll.md). */
export type PayslipStatus = 'brouillon' | 'publie' | 'annule';
export type PayslipKind = 'normal' | 'complementaire';
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;
export interface PayslipsTable {
  id: Generated<string>;
  org_id: string;
  employee_id: string;
  /** `YYYY-MM`. */
  period: string;
  gross: Numeric;
  net_to_pay: Numeric;
  contract_ids: ColumnType<string[], string[] | undefined, string[]>;
  pdf_id: string | null;
  status: Generated<PayslipStatus>;
  /** `calcule` (the payroll run) or `saisi` (typed in). */
  source: Generated<'calcule' | 'saisi'>;
  model_version: string | null;
  situation: NullableJson<Record<string, string>>;
  lines: NullableJson<Array<Record<string, string | null>>>;
  employee_contributions: NullableNumeric;
  employer_contributions: NullableNumeric;
  net_before_tax: NullableNumeric;
  net_taxable: NullableNumeric;
  net_social: NullableNumeric;
  pas_rate: NullableNumeric;
  pas_amount: NullableNumeric;
  employer_cost: NullableNumeric;
  run_id: string | null;
  published_at: NullableTimestamp;
  /** A computed payslip's day of payment, set at validation (`YYYY-MM-DD`); null: a draft, or typed in. */
  payment_date: ColumnType<string | null, string | null | undefined, string | null>;
  /** A computed payslip's inputs (situation and the month's contract dates), hashed: the stale check. */
  inputs_hash: string | null;
  /** `complementaire`: the difference paid after a published month's contract changed. */
  kind: Generated<PayslipKind>;
  /** A complementary payslip's original. */
  complements_id: string | null;
  /** A complementary draft's basis: the published payslips it subtracts (ids, sorted). */
  complement_basis: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A computation of an organization's month: its page; its `payroll.run` job computes it. */
export type PayrollRunStatus = 'en_cours' | 'termine' | 'echoue';
export interface PayrollRunsTable {
  id: Generated<string>;
  org_id: string;
  period: string;
  status: Generated<PayrollRunStatus>;
  done: Generated<number>;
  total: Generated<number>;
  payslip_ids: ColumnType<string[], string | undefined, string>;
  skipped: ColumnType<Array<{ contract_id: string; reason: string; message?: string }>, string | undefined, string>;
  message: string | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

/**
 * The contracts a payslip pays, with its period: one live link per contract and
 * period (a partial unique index), so a contract's month is never paid twice.
 */
export interface PayslipContractsTable {
  payslip_id: string;
  org_id: string;
  contract_id: string;
  period: string;
  cancelled: Generated<boolean>;
  /** A complementary payslip's link: it does not take the contract's month. */
  complementary: Generated<boolean>;
}

/** A SEPA credit transfer batch. */
export type TransferStatus = 'genere' | 'execute' | 'annule';
export interface TransfersTable {
  id: Generated<string>;
  org_id: string;
  /** `VIR-YYYY-NNNNNN`: the SEPA message id. */
  reference: string;
  execution_date: CalendarDate;
  status: Generated<TransferStatus>;
  count: number;
  total: Numeric;
  created_at: Generated<Date>;
  executed_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
  updated_at: Generated<Date>;
  /** The batch's SEPA file (the file store), made with the batch; null only for batches made before it was stored. */
  sepa_file_id: Generated<string | null>;
}

/**
 * The operator's identity and bank account as staff saved them (one row, `id` true). Null: the
 * environment variable's value applies; a saved value, even empty, wins.
 */
export interface OperatorSettingsTable {
  id: Generated<boolean>;
  name: string | null;
  siren: string | null;
  siret: string | null;
  vat: string | null;
  address: string | null;
  postcode: string | null;
  city: string | null;
  iban: string | null;
  bic: string | null;
  updated_at: Generated<Date>;
}

/** A batch's line as made: the payee at commit. `released` once the batch is cancelled. */
export interface TransferItemsTable {
  transfer_id: string;
  org_id: string;
  payslip_id: string;
  position: number;
  creditor_name: string;
  iban: string;
  bic: string | null;
  amount: Numeric;
  period: string;
  released: Generated<boolean>;
}

export type InvoiceType = 'paie_mensuelle' | 'frais_ouverture' | 'prestation';
export type PaymentMethod = 'prelevement' | 'virement';

/** An invoice line as issued (jsonb): amounts and rate as decimal strings. */
export interface InvoiceLine {
  label: string;
  quantity: string;
  unit_price: string;
  vat_rate: string;
}

/** Never deleted (a trigger refuses it). */
export interface InvoicesTable {
  id: Generated<string>;
  number: string;
  org_id: string;
  invoice_type: InvoiceType;
  payment_method: PaymentMethod;
  period_label: Generated<string>;
  issue_date: CalendarDate;
  due_date: CalendarDate;
  lines: ColumnType<InvoiceLine[], string, string>;
  total_ht: Numeric;
  total_vat: Numeric;
  total_ttc: Numeric;
  notified: Generated<boolean>;
  notified_at: NullableTimestamp;
  pdf_id: string | null;
  /** `facture` (F-YYYY-NNNNNN) or `avoir` (A-YYYY-NNNNNN, a credit note). */
  kind: Generated<InvoiceKind>;
  /** The invoice a credit note credits, and why. */
  credited_invoice_id: string | null;
  credit_reason: string | null;
  /** The stored `factur-x.xml`, byte for byte the one inside the PDF. */
  xml_id: string | null;
  /** A notification asked before the documents existed: sent by the documents' job. */
  notify_pending: Generated<boolean>;
  created_at: Generated<Date>;
}

export type InvoiceKind = 'facture' | 'avoir';

/** A line of a contribution call: the organism and the amount called. */
export interface ContributionLine {
  organism: string;
  amount: string;
}

export type ContributionStatus = 'a_payer' | 'paye';
export type ContributionOrigin = 'paie' | 'saisi';
/** A payslip a call covers: published (counted in), or cancelled after a paid call counted it (counted out). */
export type CoverEffect = 'publie' | 'annule';

/** A contribution call (appel de cotisations). */
export interface ContributionCallsTable {
  id: Generated<string>;
  org_id: string;
  period: string;
  due_date: CalendarDate;
  lines: ColumnType<ContributionLine[], string, string>;
  total: Numeric;
  status: Generated<ContributionStatus>;
  /** When the organization was last told of it by e-mail. */
  notified_at: Date | null;
  /** The day it was paid (set with status `paye`). */
  paid_date: CalendarDate | null;
  /** `AC-YYYY-NNNNNN`, from the number series: two calls of a month are told apart. */
  number: string;
  /** `paie`: made and revised from the month's published payslips; `saisi`: typed by staff. */
  origin: Generated<ContributionOrigin>;
  /** A complementary call: the month's first call (null for the first, and for a typed one). */
  first_call_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Which payslips a contribution call covers, and how (one row per payslip and effect). */
export interface ContributionCallPayslipsTable {
  payslip_id: string;
  effect: CoverEffect;
  call_id: string;
  org_id: string;
  created_at: Generated<Date>;
}

export interface DB {
  'auth.users': UsersTable;
  'auth.one_time_tokens': OneTimeTokensTable;
  'auth.sessions': SessionsTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  staff_users: StaffUsersTable;
  staff_settings: StaffSettingsTable;
  user_auth_preferences: UserAuthPreferencesTable;
  mail_outbox: MailOutboxTable;
  jobs: JobsTable;
  access_events: AccessEventsTable;
  rate_limits: RateLimitsTable;
  files: FilesTable;
  app_secrets: AppSecretsTable;
  employees: EmployeesTable;
  number_series: NumberSeriesTable;
  contracts: ContractsTable;
  contract_dates: ContractDatesTable;
  contract_notes: ContractNotesTable;
  module_events: ModuleEventsTable;
  payslips: PayslipsTable;
  payslip_contracts: PayslipContractsTable;
  payroll_runs: PayrollRunsTable;
  transfers: TransfersTable;
  operator_settings: OperatorSettingsTable;
  transfer_items: TransferItemsTable;
  invoices: InvoicesTable;
  contribution_calls: ContributionCallsTable;
  contribution_call_payslips: ContributionCallPayslipsTable;
}

export type User = Selectable<UsersTable>;
export type Organization = Selectable<OrganizationsTable>;
export type Membership = Selectable<OrganizationMembersTable>;
export type NewMail = Insertable<MailOutboxTable>;
