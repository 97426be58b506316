/**
 * Active-organization resolution, as a pure function of the request's cookies
 * and headers and of three injected look-ups, so each rule can be tested on its own.
 */
import { hasUnsafeCharacters, isUuid } from '../http/input.ts';

export { isUuid };

export interface OrgLookups {
  /** The database function `get_my_org`. */
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

/**
 * A hint's text, trimmed; null when absent or empty, or when it holds a character no name or
 * key may hold (`hasUnsafeCharacters`: a NUL, which PostgreSQL cannot even compare): such a
 * hint names no organization, so it is passed over.
 */
function usable(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed && !hasUnsafeCharacters(trimmed) ? trimmed : null;
}

function first(bag: Bag, name: string): string | null {
  const value = bag[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function text(bag: Bag, name: string): string | null {
  return usable(first(bag, name));
}

/** Strict base64 (standard or URL alphabet) of valid UTF-8 (a usable text); null for anything else. */
export function decodeBase64Utf8(value: string | null): string | null {
  if (value === null || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(value) || value.length % 4 === 1) return null;
  try {
    return usable(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64')));
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
 * The staff hints of docs/access.md, in their order of precedence. An id that is not a
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
  // Checked once decoded: the bytes of a UTF-8 name read as Latin-1 include C1 controls.
  const headerName = usable(headerUtf8(first(headers, 'x-company-name'))) ?? decodeBase64Utf8(text(headers, 'x-company-name-b64'));
  candidates.push(headerName ? { source: 'header x-company-name', kind: 'name', value: headerName } : null);
  return candidates.filter((hint): hint is OrgHint => hint !== null);
}

export interface ResolutionInput {
  caller: { userId: string; isStaff: boolean } | null;
  cookies: Bag;
  headers: Bag;
}

/** The resolved organization id, or null. */
export async function resolveActiveOrgId(input: ResolutionInput, lookups: OrgLookups): Promise<string | null> {
  const { caller } = input;
  if (!caller) return null;
  // A non-staff caller's hints are ignored: its membership is the only source.
  if (!caller.isStaff) return lookups.myOrg(caller.userId);
  for (const hint of staffOrgHints(input.cookies, input.headers)) {
    const id = hint.kind === 'id' ? hint.value : hint.kind === 'key' ? await lookups.orgIdByKey(hint.value) : await lookups.orgIdByName(hint.value);
    if (id) return id;
  }
  return null;
}
