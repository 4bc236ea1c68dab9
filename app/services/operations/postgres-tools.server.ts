/**
 * PostgreSQL's own client programs (Debian's `postgresql-client`: pg_dump, pg_restore) run for a DATABASE_URL. The
 * password goes to them in PGPASSWORD, never on their command line, where any user of the machine could read it.
 */
import { spawn } from 'node:child_process'
import { AppError } from '#app/utils/app-error.ts'

/** The connection without its password (for the command line), and the environment carrying the password. */
export function connectionFor(url: string) {
  const parsed = new URL(url)
  const password = decodeURIComponent(parsed.password)
  parsed.password = ''
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.PGPASSWORD
  if (password) env.PGPASSWORD = password
  return { dbname: parsed.toString(), env }
}

/** Runs `program` with `args` against `url`; rejects with its error output (which holds no password). */
export function runPostgresTool(program: 'pg_dump' | 'pg_restore', url: string, args: string[]) {
  const { dbname, env } = connectionFor(url)
  return new Promise<void>((resolve, reject) => {
    const child = spawn(program, [...args, `--dbname=${dbname}`], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new AppError(
              `${program} is not installed: install PostgreSQL's client programs (postgresql-client).`,
              'unexpected',
            )
          : error,
      ),
    )
    child.once('close', (code) => {
      if (code === 0) resolve()
      else reject(new AppError(`${program} failed (exit code ${code}): ${stderr.trim()}`, 'unexpected'))
    })
  })
}
