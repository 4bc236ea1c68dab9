import { getEnv } from '../platform/env.server.ts'

/**
 * The origin of every absolute link the server writes (emails, feeds, JSON-LD, the sitemap, canonical links). In
 * production it is PUBLIC_URL's, always: the configuration refuses to start without it, and the Host of a request is
 * whatever its client wrote, so a link built from it could point anywhere.
 */
function configuredOrigin(): string | undefined {
  const { PUBLIC_URL, isProduction } = getEnv()
  if (PUBLIC_URL) return new URL(PUBLIC_URL).origin
  if (isProduction) throw new Error('PUBLIC_URL is required in production')
  return undefined
}

/**
 * The site's public origin for canonical links, feeds and the sitemap: PUBLIC_URL; outside production without it
 * (a local machine), the origin the request came to.
 */
export function siteOrigin(request: Request): string {
  return configuredOrigin() ?? new URL(request.url).origin
}

/**
 * The origin for links in email: PUBLIC_URL; outside production without it, the origin of the request that caused
 * the email, else (a job, with no request) this server's local address.
 */
export function linkOrigin(request?: Request): string {
  const configured = configuredOrigin()
  if (configured) return configured
  return request ? new URL(request.url).origin : `http://localhost:${getEnv().PORT ?? 3000}`
}

/** What the email composers need from the configuration: the links' origin and the platform time zone. */
export function mailContext(request?: Request) {
  return { origin: linkOrigin(request), timeZone: getEnv().APP_TIME_ZONE }
}
