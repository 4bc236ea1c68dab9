import type { LoaderFunctionArgs } from '@remix-run/node'
import { mediaResponse } from '#app/services/media/media-http.server.ts'

/** GET/HEAD /uploads/{filename}: the fallback media path (spec §7), the same files as /api/media. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return mediaResponse(request, params.filename)
}
