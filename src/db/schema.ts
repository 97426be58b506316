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
  email_notifs: string | null;
  email_notifs_cc: string | null;
  virements_salaires: string | null;
  documents_slug: string | null;
  created_at: Generated<Date>;
}

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
  recipient: string;
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
  access_events: AccessEventsTable;
  rate_limits: RateLimitsTable;
  files: FilesTable;
  app_secrets: AppSecretsTable;
}

export type User = Selectable<UsersTable>;
export type Organization = Selectable<OrganizationsTable>;
export type Membership = Selectable<OrganizationMembersTable>;
export type NewMail = Insertable<MailOutboxTable>;
