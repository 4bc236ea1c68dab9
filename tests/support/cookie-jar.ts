import { getToast, type Toast } from '#app/services/http/toast.server.ts'

/** Keeps cookies across calls the way a browser would (names and values only; an expired cookie is dropped). */
export class CookieJar {
  private cookies = new Map<string, string>()

  constructor(initial?: string) {
    if (initial) this.set(initial)
  }

  /** Stores one `name=value` pair or a whole Set-Cookie line. */
  set(cookie: string) {
    const [pair, ...attributes] = cookie.split(';')
    const index = pair!.indexOf('=')
    const name = pair!.slice(0, index).trim()
    const value = pair!.slice(index + 1).trim()
    const expired = attributes.some((a) => {
      const [key, v] = a.trim().split('=')
      if (key?.toLowerCase() === 'max-age') return Number(v) <= 0
      if (key?.toLowerCase() === 'expires') return new Date(v!).getTime() <= Date.now()
      return false
    })
    if (expired || value === '') this.cookies.delete(name)
    else this.cookies.set(name, value)
  }

  /** Takes every Set-Cookie of a response. */
  store(response: Response) {
    for (const line of response.headers.getSetCookie()) this.set(line)
    return response
  }

  get(name: string) {
    return this.cookies.get(name)
  }

  has(name: string) {
    return this.cookies.has(name)
  }

  names() {
    return [...this.cookies.keys()]
  }

  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  /** Request headers carrying these cookies (plus `extra`). */
  headers(extra: Record<string, string> = {}) {
    return { ...extra, Cookie: this.header() }
  }
}

/** The Set-Cookie line for `name` in a response, if any. */
export function setCookieFor(response: Response, name: string) {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`))
}

/** The flash toast a response set (what the next page will show). */
export async function toastOf(response: Response): Promise<Toast | null> {
  const line = setCookieFor(response, 'es_toast')
  if (!line) return null
  const { toast } = await getToast(
    new Request('http://localhost/', { headers: { Cookie: line.split(';')[0]! } }),
  )
  return toast
}
