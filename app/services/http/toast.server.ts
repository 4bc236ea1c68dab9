import crypto from 'node:crypto'
import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { z } from 'zod'
import { TOAST_VARIANTS } from '#app/constants.ts'
import { getEnv } from '../platform/env.server.ts'
import { combineHeaders } from './http.server.ts'

export const toastSchema = z.object({
  id: z.string().default(() => crypto.randomUUID()),
  title: z.string().default(''),
  description: z.string().default(''),
  variant: z.enum(TOAST_VARIANTS).default('default'),
})

export type Toast = z.infer<typeof toastSchema>
export type ToastInput = z.input<typeof toastSchema>

const env = getEnv()
const TOAST_KEY = 'toast'

/** A one-shot cookie, so a toast survives a redirect and shows without JavaScript. */
export const toastSessionStorage = createCookieSessionStorage({
  cookie: {
    name: 'es_toast',
    sameSite: 'lax',
    path: '/',
    httpOnly: true,
    secrets: env.sessionSecrets,
    secure: env.isProduction,
  },
})

export async function createToastHeaders(input: ToastInput) {
  const session = await toastSessionStorage.getSession()
  session.flash(TOAST_KEY, toastSchema.parse(input))
  return new Headers({ 'Set-Cookie': await toastSessionStorage.commitSession(session) })
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  return redirect(url, { ...init, headers: combineHeaders(init?.headers, await createToastHeaders(toast)) })
}

/** Reads and clears the pending toast. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const session = await toastSessionStorage.getSession(request.headers.get('Cookie'))
  const parsed = toastSchema.safeParse(session.get(TOAST_KEY))
  const toast = parsed.success ? parsed.data : null
  return {
    toast,
    headers: toast ? new Headers({ 'Set-Cookie': await toastSessionStorage.destroySession(session) }) : null,
  }
}
