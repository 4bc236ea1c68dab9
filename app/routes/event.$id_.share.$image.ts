import type { LoaderFunctionArgs } from '@remix-run/node'
import { parseShareImageName } from '#app/models/ads/share-images.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { errorResponse } from '#app/services/http/http.server.ts'
import { mediaFileResponse } from '#app/services/http/media-response.server.ts'
import { shareImage } from '#app/services/media/share-images.server.ts'

/** A stale address is sent on for a while only: the event may change again, or stop being live. */
const MOVED_CACHE = 'public, max-age=300'

/**
 * GET/HEAD /event/{id}/share/{card|16x9|4x3|1x1}.jpg?v={hash}: a live event's share image (the link preview's card,
 * the structured data's crops), cached for good at its current `v`; an older `v` is sent on to the current one.
 * Anything but a live event is a 404, the same as media nobody may see.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const eventID = parseId(params.id)
    const kind = parseShareImageName(params.image)
    const version = new URL(request.url).searchParams.get('v')
    const answer = eventID && kind ? await shareImage(eventID, kind, version) : null
    if (answer && 'currentPath' in answer) {
      return new Response(null, {
        status: 302,
        headers: { Location: answer.currentPath, 'Cache-Control': MOVED_CACHE },
      })
    }
    return await mediaFileResponse(request, answer?.media ?? null)
  } catch (error) {
    return errorResponse(error, { request })
  }
}
