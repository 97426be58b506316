/**
 * Active-organization resolution (SPEC 4.3), as a pure function of the request's cookies
 * and headers and of three injected look-ups, so each rule can be tested on its own.
 */

export interface OrgLookups {
  /** SPEC 4.3 rule 3: the database function `get_my_org`. */
  myOrg(userId: string): Promise<string | null>;
  /** Matches `structure_api`. */
  orgIdByKey(key: string): Promise<string | null>;
  /** Matches `name`. */
  orgIdByName(name: string): Promise<string | null>;
}

export type OrgHint =
  | { source: string; kind: 'id'; value: string }
  | { source: string; kind: 'key'; value: string }
  | { source: string; kind: 'name'; value: string };

type Bag = Record<string, string | string[] | undefined>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

function text(bag: Bag, name: string): string | null {
  const raw = bag[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** Strict base64 (standard or URL alphabet) of valid UTF-8; null for anything else. */
export function decodeBase64Utf8(value: string | null): string | null {
  if (value === null || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(value) || value.length % 4 === 1) return null;
  try {
    const decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64'));
    const trimmed = decoded.trim();
    return trimmed ? trimmed : null;
  } catch {
    return null;
  }
}

/**
 * Node reads header bytes as Latin-1; a client that sent a UTF-8 name unencoded
 * ("Lumière" as bytes) gets it back as intended when the bytes are valid UTF-8.
 */
export function headerUtf8(value: string | null): string | null {
  if (value === null || !/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/**
 * The staff hints of SPEC 4.3 rule 4, in their order of precedence. An id that is not a
 * UUID names no organization, so it is passed over like an absent hint.
 */
export function staffOrgHints(cookies: Bag, headers: Bag): OrgHint[] {
  const candidates: Array<OrgHint | null> = [];
  const cookieId = text(cookies, 'active_org_id');
  candidates.push(isUuid(cookieId) ? { source: 'cookie active_org_id', kind: 'id', value: cookieId } : null);
  const cookieKey = text(cookies, 'active_org_key');
  candidates.push(cookieKey ? { source: 'cookie active_org_key', kind: 'key', value: cookieKey } : null);
  const cookieName = decodeBase64Utf8(text(cookies, 'active_org_name_b64'));
  candidates.push(cookieName ? { source: 'cookie active_org_name_b64', kind: 'name', value: cookieName } : null);
  const headerId = text(headers, 'x-active-org-id');
  candidates.push(isUuid(headerId) ? { source: 'header x-active-org-id', kind: 'id', value: headerId } : null);
  const headerName = headerUtf8(text(headers, 'x-company-name')) ?? decodeBase64Utf8(text(headers, 'x-company-name-b64'));
  candidates.push(headerName ? { source: 'header x-company-name', kind: 'name', value: headerName } : null);
  return candidates.filter((hint): hint is OrgHint => hint !== null);
}

export interface ResolutionInput {
  caller: { userId: string; isStaff: boolean } | null;
  cookies: Bag;
  headers: Bag;
}

/** SPEC 4.3: the resolved organization id, or null. */
export async function resolveActiveOrgId(input: ResolutionInput, lookups: OrgLookups): Promise<string | null> {
  const { caller } = input;
  if (!caller) return null;
  // A non-staff caller's hints are ignored: its membership is the only source.
  if (!caller.isStaff) return lookups.myOrg(caller.userId);
  for (const hint of staffOrgHints(input.cookies, input.headers)) {
    const id =
      hint.kind === 'id' ? hint.value : hint.kind === 'key' ? await lookups.orgIdByKey(hint.value) : await lookups.orgIdByName(hint.value);
    if (id) return id;
  }
  return null;
}
