import type { Viewer } from '#app/models/accounts/viewer.ts'
import { getSession } from './session.server.ts'

/** Who is signed in, as the page chrome shows it. */
export async function getViewer(request: Request): Promise<Viewer | null> {
  const session = await getSession(request)
  const business = session.get('business') as { businessName?: string } | undefined
  const user = session.get('user') as { name?: string; roles?: string[] } | undefined
  if (business?.businessName)
    return { kind: 'business', name: business.businessName, roles: user?.roles ?? [] }
  if (user) return { kind: 'user', name: user.name ?? '', roles: user.roles ?? [] }
  return null
}
