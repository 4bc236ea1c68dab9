/** A stored timestamp (ISO, UTC) to the minute, as the admin pages show it: "2025-03-01 14:05 UTC". */
export function UtcTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{iso.slice(0, 16).replace('T', ' ')} UTC</time>
}
