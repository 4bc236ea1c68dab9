import { getEnv } from './env.server.ts'

/**
 * The site's public origin for canonical links, feeds and the sitemap: PUBLIC_URL when set (behind a proxy the
 * request's own origin may be an internal address), otherwise the origin the request came to.
 */
export function siteOrigin(request: Request): string {
  const configured = getEnv().PUBLIC_URL
  if (configured) return new URL(configured).origin
  return new URL(request.url).origin
}
