import type { LoaderFunctionArgs } from '@remix-run/node'
import { mediaFileResponse, mediaViewer } from '#app/services/http/media-response.server.ts'
import { viewableMedia } from '#app/services/media/media-access.server.ts'

/** GET/HEAD /uploads/{filename}: the fallback media path, the same files as /api/media. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return mediaFileResponse(request, await viewableMedia(params.filename, mediaViewer(request)))
}
