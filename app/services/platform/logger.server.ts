import { pino, type DestinationStream } from 'pino'
import type Pretty from 'pino-pretty'
import { getEnv } from './env.server.ts'
import { lazyRequire } from './lazy-require.server.ts'

/**
 * The server's log: one JSON object a line (pino) on stdout, errors on stderr; a readable form for a person at a
 * terminal (LOG_FORMAT=pretty, the default when stdout is a terminal). Lines never carry request bodies, query
 * strings, headers, cookies or client addresses; what an error says is cleared of email addresses.
 */

/** An email address, its @ percent-encoded or not (as a path may carry it). */
const EMAIL = /[^\s@<>"'(),;:[\]/\\]+(?:@|%40)[^\s@<>"'(),;:[\]/\\%]+\.[a-z]{2,}/gi

/** `text` with every email address replaced. */
export function withoutEmails(text: string) {
  return text.includes('@') || text.includes('%40') ? text.replace(EMAIL, '[email]') : text
}

interface LoggedError {
  type: string
  message: string
  stack?: string
  code?: string
  status?: number
  cause?: LoggedError
}

/**
 * An error as a log line holds it: its type, message, stack and code. Nothing else of it: a database error may carry
 * the query's parameters or a detail quoting a row ("Key (email)=(…) already exists").
 */
export function loggedError(error: unknown, depth = 0): LoggedError {
  if (error instanceof Error) {
    const { code } = error as { code?: unknown }
    return {
      type: error.name,
      message: withoutEmails(error.message),
      stack: error.stack === undefined ? undefined : withoutEmails(error.stack),
      ...(typeof code === 'string' && { code }),
      ...(error.cause !== undefined && depth < 3 && { cause: loggedError(error.cause, depth + 1) }),
    }
  }
  // A response thrown by a loader (Remix's ErrorResponse): its status and status text, not its data.
  if (typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number') {
    const { statusText } = error as { statusText?: unknown }
    return { type: 'ErrorResponse', status: error.status, message: String(statusText ?? '') }
  }
  return { type: typeof error, message: withoutEmails(String(error)) }
}

/**
 * Where error lines go. Under the test runner, through console.error, which fails a test that does not expect an
 * error (tests/support/fail-on-console-error.ts) and is where such a test reads it; otherwise stderr.
 */
function errorDestination(prettyFormat: boolean): DestinationStream {
  // eslint-disable-next-line no-console -- the logger's own destination under the test runner, described above
  if (process.env.VITEST) return { write: (line: string) => console.error(line.trimEnd()) }
  return prettyFormat ? prettyStream(2) : pino.destination({ dest: 2, sync: true })
}

function prettyStream(fd: 1 | 2) {
  return (lazyRequire('pino-pretty') as typeof Pretty)({
    destination: fd,
    sync: true,
    colorize: Boolean((fd === 1 ? process.stdout : process.stderr).isTTY),
    ignore: 'pid,hostname,method,path,status,durationMs',
    messageFormat: (line: Record<string, unknown>, messageKey: string) =>
      line.method
        ? `${line.method} ${line.path} ${line.status} ${line.durationMs} ms`
        : String(line[messageKey]),
    translateTime: 'SYS:HH:MM:ss.l',
  })
}

function createLogger() {
  const env = getEnv()
  const prettyFormat = env.LOG_FORMAT ? env.LOG_FORMAT === 'pretty' : Boolean(process.stdout.isTTY)
  const out = prettyFormat ? prettyStream(1) : pino.destination({ dest: 1, sync: true })
  return pino(
    {
      level: env.LOG_LEVEL,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: loggedError },
      // Nothing puts these in a line; should a future one, they are blanked rather than written.
      redact: {
        paths: [
          'headers',
          'cookie',
          'authorization',
          'password',
          'token',
          'email',
          'ip',
          '*.headers',
          '*.password',
        ],
        censor: '[redacted]',
      },
    },
    // Errors go to stderr only (dedupe: the stream with the highest level that matches).
    pino.multistream(
      [
        { level: 'trace', stream: out },
        { level: 'error', stream: errorDestination(prettyFormat) },
      ],
      { dedupe: true },
    ),
  )
}

export const logger = createLogger()

/**
 * Logs an error with its stack on one line, with the request it broke (its id) when there is one, and any other
 * fields of `context` (never personal data).
 */
export function logError(
  error: unknown,
  context: { requestId?: string; msg?: string; [field: string]: string | undefined } = {},
) {
  const { msg, ...fields } = context
  logger.error(
    { ...fields, err: error },
    msg ?? withoutEmails(error instanceof Error ? error.message : 'Error'),
  )
}
