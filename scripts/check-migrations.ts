/**
 * `npm run lint:migrations` (part of `npm run lint`): the migrations of db/migrations that the previous release could
 * not live with during a rolling deploy (db/migration-rules.js, docs/decisions/041 and 045) fail the lint, with the
 * file, the statement and what to do instead. Every start-up refuses them too; here they are found before a deploy.
 * With git, a contract marker must name a migration of the previous release (scripts/previous-release.ts), not only
 * an earlier one.
 */
import { MIGRATIONS_FOLDER } from '#db/client.server.ts'
import {
  describeRefusals,
  findUnsafeMigrations,
  LAST_UNCHECKED_MIGRATION,
  readJournal,
} from '#db/migration-rules.js'
import { previousRelease } from './previous-release.ts'

const previous = previousRelease(MIGRATIONS_FOLDER)
const refusals = await findUnsafeMigrations(MIGRATIONS_FOLDER, {
  shippedTags: previous.fromGit ? new Set(previous.tags) : undefined,
})
if (refusals.length > 0) {
  console.error(describeRefusals(refusals))
  process.exit(1)
}
const tags = readJournal(MIGRATIONS_FOLDER).map((entry) => entry.tag)
const checked = tags.length - (tags.indexOf(LAST_UNCHECKED_MIGRATION) + 1)
console.info(
  `Migrations: ${checked} after ${LAST_UNCHECKED_MIGRATION} checked for a rolling deploy, none refused ` +
    `(the previous release, ${previous.source}, has ${previous.tags.length} migrations).`,
)
