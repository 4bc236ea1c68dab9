/**
 * Which migrations the release before this working tree's has, for `npm run lint:migrations` (a contract marker
 * must name one of them) and `npm run bench:rolling-deploy` (it migrates a database to them, then to this release).
 *
 * The repository has no release tags: a release is taken to be what the last commit that changed the migration
 * journal (on the first-parent line, so a merge counts once) brought in. The previous release is the journal
 * before that commit; when the working tree's journal differs from the last commit's (migrations not committed
 * yet), it is the last commit's. Without git or its history (an export, a shallow clone), it is the journal without
 * its newest migration.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { readJournal } from '#db/migration-rules.js'

export interface PreviousRelease {
  tags: string[]
  /** Where the list comes from, for a person reading the output. */
  source: string
  /** True when it comes from git, false when guessed from the journal alone. */
  fromGit: boolean
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()

export function previousRelease(migrationsFolder: string): PreviousRelease {
  return previousReleaseFromGit(migrationsFolder) ?? previousReleaseFromJournal(migrationsFolder)
}

function previousReleaseFromGit(migrationsFolder: string): PreviousRelease | undefined {
  const folder = path.resolve(migrationsFolder)
  try {
    const root = git(folder, 'rev-parse', '--show-toplevel')
    const journal = path.relative(root, path.join(folder, 'meta/_journal.json'))
    if (journal.startsWith('..')) return undefined
    const uncommitted = git(root, 'status', '--porcelain', '--', journal) !== ''
    let revision = 'HEAD'
    let source = "HEAD, the last commit (this release's migrations are not committed yet)"
    if (!uncommitted) {
      const last = git(root, 'log', '--first-parent', '-n', '1', '--format=%H', '--', journal)
      if (!last) return undefined
      if (!hasParent(root, last))
        // A shallow clone lacks the parent, and git cannot tell; otherwise that commit started the journal.
        return isShallow(root)
          ? undefined
          : { tags: [], source: 'git: none before the first commit', fromGit: true }
      revision = `${last}^`
      source = `${last.slice(0, 10)}^, before the last commit that added migrations`
    }
    const text = git(root, 'show', `${revision}:${journal}`)
    const entries = (JSON.parse(text) as { entries: Array<{ tag: string }> }).entries
    return { tags: entries.map((entry) => entry.tag), source: `git: ${source}`, fromGit: true }
  } catch {
    return undefined
  }
}

function hasParent(root: string, commit: string) {
  try {
    git(root, 'rev-parse', '--verify', '--quiet', `${commit}^`)
    return true
  } catch {
    return false
  }
}

function isShallow(root: string) {
  try {
    return git(root, 'rev-parse', '--is-shallow-repository') === 'true'
  } catch {
    return true
  }
}

function previousReleaseFromJournal(migrationsFolder: string): PreviousRelease {
  const tags = readJournal(migrationsFolder).map((entry) => entry.tag)
  return { tags: tags.slice(0, -1), source: 'the journal without its newest migration', fromGit: false }
}

/** The number a migration's files start with (`0025_…sql`, `concurrent/0025_…sql`), or NaN. */
const numberOf = (name: string) => Number.parseInt(/^(\d+)_/.exec(name)?.[1] ?? '', 10)

/**
 * A copy of `migrationsFolder` in `into` as the previous release had it: the journal's entries up to the last one
 * the previous release also has (the common beginning, so it is a real path to this release), and only the
 * `concurrent/` and `backfills/` files of those migrations. Returns the tags kept.
 */
export function copyPreviousRelease(migrationsFolder: string, into: string, previousTags: string[]) {
  const journalFile = path.join(migrationsFolder, 'meta/_journal.json')
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> }
  let kept = 0
  while (kept < journal.entries.length && journal.entries[kept]!.tag === previousTags[kept]) kept++
  const entries = journal.entries.slice(0, kept)
  const lastNumber = entries.length ? numberOf(entries.at(-1)!.tag) : -1
  fs.rmSync(into, { recursive: true, force: true })
  fs.cpSync(migrationsFolder, into, { recursive: true })
  fs.writeFileSync(path.join(into, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }, null, 2))
  for (const sub of ['concurrent', 'backfills']) {
    const folder = path.join(into, sub)
    if (!fs.existsSync(folder)) continue
    for (const name of fs.readdirSync(folder))
      if (!(numberOf(name) <= lastNumber)) fs.rmSync(path.join(folder, name), { force: true })
  }
  return entries.map((entry) => entry.tag)
}
