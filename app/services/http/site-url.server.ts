import { getEnv } from '../platform/env.server.ts'

/**
 * The site's public origin for canonical links, feeds and the sitemap: PUBLIC_URL when set (behind a proxy the
 * request's own origin may be an internal address), otherwise the origin the request came to.
 */
export function siteOrigin(request: Request): string {
  const configured = getEnv().PUBLIC_URL
  if (configured) return new URL(configured).origin
  return new URL(request.url).origin
}

/**
 * The origin for links in email: PUBLIC_URL, else the origin of the request that caused the email, else (a job with
 * no request, PUBLIC_URL unset: a local machine) this server's local address.
 */
export function linkOrigin(request?: Request): string {
  if (request) return siteOrigin(request)
  const { PUBLIC_URL, PORT } = getEnv()
  return PUBLIC_URL ? new URL(PUBLIC_URL).origin : `http://localhost:${PORT ?? 3000}`
}

/** What the email composers need from the configuration: the links' origin and the platform time zone. */
export function mailContext(request?: Request) {
  return { origin: linkOrigin(request), timeZone: getEnv().APP_TIME_ZONE }
}
