/**
 * The client's address: the first X-Forwarded-For entry. server.js replaces whatever a client sent there with the
 * address it vouches for (the socket's, or a trusted proxy's word under TRUST_PROXY), so it cannot be forged through
 * the server. Without one, every client shares the key 'unknown' and the sign-in limit becomes per email.
 */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get('X-Forwarded-For')?.split(',')[0]?.trim()
  return forwarded ? forwarded.slice(0, 64) : 'unknown'
}
