import { and, between, eq, sql } from 'drizzle-orm'
import { db } from '#db/client.server.ts'
import { zipCentroids } from '#db/schema.ts'

/** Whether the distance filter can measure from this 5-digit ZIP (it is in the ZIP centres). */
export async function isKnownZip(zip: string): Promise<boolean> {
  const [row] = await db
    .select({ zip: zipCentroids.zip })
    .from(zipCentroids)
    .where(eq(zipCentroids.zip, zip))
    .limit(1)
  return row !== undefined
}

/** How far (degrees of latitude, ~52 miles) a position may be from the closest ZIP centre and still be placed. */
const NEAREST_ZIP_REACH_DEGREES = 0.75

/**
 * The ZIP whose centre is closest to a position, or null when none is within reach (outside the US). Rare (one per
 * "Use my location"), so the 33,000 centres are read in a box without an index of their own.
 */
export async function nearestZip(latitude: number, longitude: number): Promise<string | null> {
  const reach = NEAREST_ZIP_REACH_DEGREES
  // A degree of longitude shrinks with the cosine of the latitude; the box and the distance both allow for it.
  const cos = Math.max(Math.cos((latitude * Math.PI) / 180), 0.05)
  const [row] = await db
    .select({ zip: zipCentroids.zip })
    .from(zipCentroids)
    .where(
      and(
        between(zipCentroids.latitude, latitude - reach, latitude + reach),
        between(zipCentroids.longitude, longitude - reach / cos, longitude + reach / cos),
      ),
    )
    .orderBy(
      sql`power(${zipCentroids.latitude} - ${latitude}, 2) + power((${zipCentroids.longitude} - ${longitude}) * ${cos}, 2)`,
    )
    .limit(1)
  return row?.zip ?? null
}
