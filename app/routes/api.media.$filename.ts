import type { LoaderFunctionArgs } from '@remix-run/node'
import { mediaResponse } from '#app/services/media/media-http.server.ts'

/** GET/HEAD /api/media/{filename}: stored event media (spec §2, §7). */
export function loader({ request, params }: LoaderFunctionArgs) {
  return mediaResponse(request, params.filename)
}
