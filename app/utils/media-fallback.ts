/**
 * Photos and videos that fail to load: the photo is hidden and its fallback shown, the video hidden.
 * The public pages ship no framework JavaScript, so one tiny inline script does it for every page, hydrated or not:
 * it listens for `error` in the capture phase on the document (media errors do not bubble), and it sits first in the
 * <head>, so it is listening before any media element exists. The CSP allows it by its hash (security.server.ts).
 *
 * Markup: the media element carries MEDIA_PROPS; a fallback right after it carries MEDIA_FALLBACK_PROPS and `hidden`.
 * A <video>'s sources fail one by one on the <source> elements; only the last one failing hides the video, and an
 * error on the video itself (a file that cannot be decoded) hides it too.
 */
export const MEDIA_PROPS = { 'data-media': '' } as const
export const MEDIA_FALLBACK_PROPS = { 'data-media-fallback': '' } as const

const media = Object.keys(MEDIA_PROPS)[0]!
const fallback = Object.keys(MEDIA_FALLBACK_PROPS)[0]!

export const MEDIA_FALLBACK_SCRIPT = `document.addEventListener("error",function(e){var t=e.target,n;if(t.tagName=="SOURCE"){n=t.nextElementSibling;if(n&&n.tagName=="SOURCE")return;t=t.parentNode}if(!t||!t.hasAttribute||!t.hasAttribute("${media}"))return;t.hidden=true;n=t.nextElementSibling;if(n&&n.hasAttribute("${fallback}"))n.hidden=false},true)`
