import { eq } from 'drizzle-orm'
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
