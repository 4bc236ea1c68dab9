import { SIGNUP_FORM_MAX_AGE_MS, SIGNUP_STAMP_COOKIE } from '#app/constants.ts'
import { getEnv } from '../platform/env.server.ts'

/** The registration stamp the browser sent, if any. */
export function signupStampFrom(request: Request): string | null {
  const cookies = request.headers.get('Cookie') ?? ''
  const match = new RegExp(`(?:^|;\\s*)${SIGNUP_STAMP_COOKIE}=([^;]{1,100})`).exec(cookies)
  return match?.[1] ?? null
}

/** The Set-Cookie that hands the browser a registration stamp, kept for as long as a stamp is usable. */
export function signupStampCookie(stamp: string): string {
  const maxAge = Math.floor(SIGNUP_FORM_MAX_AGE_MS / 1000)
  const secure = getEnv().isProduction ? '; Secure' : ''
  return `${SIGNUP_STAMP_COOKIE}=${stamp}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`
}
