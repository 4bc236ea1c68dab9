/**
 * An ad's QR code as the server drew it (inline SVG, no script): an image with its text alternative, and an optional
 * caption. `className` sizes it (the SVG fills its box).
 */
export function QrCode({
  svg,
  label,
  caption,
  className = 'w-32',
}: {
  svg: string
  label: string
  caption?: string
  className?: string
}) {
  return (
    <figure data-testid="event-qr" className="inline-block text-center">
      <div
        role="img"
        aria-label={label}
        className={`bg-white [&>svg]:block [&>svg]:h-auto [&>svg]:w-full ${className}`}
        // Drawn by the server from the ad's address only (no text of the ad): markup the site makes itself.
        dangerouslySetInnerHTML={{ __html: svg }}
      />
      {caption ? <figcaption className="mt-1 max-w-40 text-xs text-slate-600">{caption}</figcaption> : null}
    </figure>
  )
}
