import { redirect } from '@remix-run/node'

/**
 * The loader of a page that only answers a form post (drawing a refusal with the form again from the action's data).
 * Opened directly, it sends the browser to the page the form lives on. After a post, Remix loads the page's data with
 * the post's own headers (a Content-Type a plain visit has not): there is nothing more to load then.
 */
export function postOnlyPageLoad(request: Request, formPage: string) {
  if (request.headers.has('Content-Type')) return null
  throw redirect(formPage)
}
