/** The options every cookie of the service is set with: HttpOnly, SameSite=Lax, Path=/, Secure by config. */
export function cookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };
}
