/** A file to download: its text, its media type and the name a browser saves it under; never cached. */
export function attachmentResponse(
  body: string,
  { contentType, fileName }: { contentType: string; fileName: string },
) {
  return new Response(body, {
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
