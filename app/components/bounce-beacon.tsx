import { useEffect } from 'react'
import { useNonce } from '#app/components/nonce.tsx'
import { BOUNCE_WINDOW_MS } from '#app/constants.ts'

export function trackBounceUrl(eventID: number) {
  return `/api/events/${eventID}/track-bounce`
}

/** Marks that the inline script is watching this page, so the React fallback does not send a second beacon. */
const MARKER = '__esBounce'

/**
 * The inline script: leaving (pagehide, or the page hidden) within BOUNCE_WINDOW_MS of navigation start sends one
 * beacon with an empty JSON body; later, or a second time, sends nothing. Kept to a few hundred bytes because the
 * page ships no other JavaScript.
 */
export function bounceScript(url: string, windowMs: number = BOUNCE_WINDOW_MS) {
  return `(function(){var u=${JSON.stringify(url)},s=0;window.${MARKER}=u;function f(){if(s||performance.now()>${windowMs})return;s=1;var b=new Blob(["{}"],{type:"application/json"});try{if(navigator.sendBeacon(u,b))return}catch(e){}fetch(u,{method:"POST",body:b,keepalive:true,credentials:"same-origin"}).catch(function(){})}addEventListener("pagehide",f);document.addEventListener("visibilitychange",function(){document.visibilityState=="hidden"&&f()})})()`
}

function sendBounce(url: string) {
  const body = new Blob(['{}'], { type: 'application/json' })
  try {
    if (navigator.sendBeacon(url, body)) return
  } catch {
    // fall through to fetch
  }
  fetch(url, { method: 'POST', body, keepalive: true, credentials: 'same-origin' }).catch(() => {})
}

/** Mounted beacons per URL: React's development double mount must not read as leaving the page. */
const mounted = new Map<string, number>()

/**
 * Bounce tracking for the public event view. A server-rendered page runs the inline script; when the page
 * was reached by client-side navigation (the inline script never runs then), the effect does the same job and also
 * counts leaving to another page of the app within the window.
 */
export function BounceBeacon({ eventID }: { eventID: number }) {
  const nonce = useNonce()
  const url = trackBounceUrl(eventID)

  useEffect(() => {
    const w = window as unknown as Record<string, unknown>
    if (w[MARKER] === url) return
    const openedAt = performance.now()
    let sent = false
    const send = () => {
      if (sent || performance.now() - openedAt > BOUNCE_WINDOW_MS) return
      sent = true
      sendBounce(url)
    }
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') send()
    }
    window.addEventListener('pagehide', send)
    document.addEventListener('visibilitychange', onVisibility)
    mounted.set(url, (mounted.get(url) ?? 0) + 1)
    return () => {
      window.removeEventListener('pagehide', send)
      document.removeEventListener('visibilitychange', onVisibility)
      mounted.set(url, (mounted.get(url) ?? 1) - 1)
      // Leaving for another page of the app (no pagehide then) counts too, unless the beacon was mounted again.
      setTimeout(() => {
        if (!mounted.get(url)) send()
      }, 0)
    }
  }, [url])

  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: bounceScript(url) }} />
}
