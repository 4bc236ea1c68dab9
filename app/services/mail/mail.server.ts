/**
 * Sending the outbox: every server runs a worker that claims due messages, sends them over SMTP (SMTP_URL, from
 * MAIL_FROM) and marks them sent; a failed attempt is retried with exponential backoff. Without SMTP_URL nothing is
 * sent and the messages wait in the outbox, readable by administrators at /admin/outbox.
 */
import type Nodemailer from 'nodemailer'
import type { Transporter } from 'nodemailer'
import { claimDueMessages, markMessageFailed, markMessageSent } from '#app/models/mail/outbox.server.ts'
import type { OutboxMessage } from '#db/schema.ts'
import { getEnv } from '../platform/env.server.ts'
import { lazyRequire } from '../platform/lazy-require.server.ts'

/** How often a worker looks for due messages. */
export const MAIL_POLL_INTERVAL_MS = 5000
/** A claimed message is left to its sender this long; past it another worker may try it again. */
const CLAIM_LEASE_MS = 2 * 60 * 1000
const BATCH_SIZE = 20
/** Attempts before a message is given up on (status 'failed', shown at /admin/outbox): about two days of retries. */
export const MAX_ATTEMPTS = 12
const FIRST_RETRY_MS = 60 * 1000
const LONGEST_RETRY_MS = 6 * 60 * 60 * 1000
/** Each SMTP step's time limit, well inside the claim's lease. */
const SMTP_TIMEOUT_MS = 20_000

/** The wait after failed attempt number `attempts` (1-based): 1 min, 2, 4, … up to 6 h. */
export function retryDelayMs(attempts: number) {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS)
}

export function createMailTransport(smtpUrl: string): Transporter {
  return (lazyRequire('nodemailer') as typeof Nodemailer).createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    // nodemailer's own logging would print the SMTP conversation, credentials included.
    logger: false,
    debug: false,
  })
}

/** An error's text with the SMTP password taken out (an error may quote the URL it failed on). */
function scrubbed(error: unknown, smtpUrl: string | undefined) {
  let text = error instanceof Error ? error.message : String(error)
  const password = smtpUrl ? new URL(smtpUrl).password : ''
  if (password) {
    for (const form of new Set([password, decodeURIComponent(password)])) text = text.split(form).join('***')
  }
  return text.slice(0, 1000)
}

/** A Message-ID fixed per outbox row, so a receiver can recognise the rare second delivery after a lost reply. */
function messageId(message: OutboxMessage, from: string) {
  const domain = /@([^\s<>@]+)>?$/.exec(from)?.[1] ?? 'eventshout.invalid'
  return `<outbox-${message.id}-${message.createdAt.getTime()}@${domain}>`
}

export interface DeliveryReport {
  sent: number[]
  retrying: number[]
  failed: number[]
}

/**
 * One delivery round: claims the due messages and sends each. What is not sent is due again after its backoff, or
 * given up on after MAX_ATTEMPTS.
 */
export async function deliverDueMessages({
  transport,
  from,
  smtpUrl,
  now = () => new Date(),
}: {
  transport: Transporter
  from: string
  smtpUrl?: string
  now?: () => Date
}): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: [], retrying: [], failed: [] }
  const claimed = await claimDueMessages({ now: now(), limit: BATCH_SIZE, leaseMs: CLAIM_LEASE_MS })
  for (const message of claimed) {
    try {
      await transport.sendMail({
        from,
        to: message.toAddress,
        subject: message.subject,
        text: message.textBody,
        html: message.htmlBody,
        headers: message.headers ?? undefined,
        messageId: messageId(message, from),
      })
    } catch (error) {
      const giveUp = message.attempts >= MAX_ATTEMPTS
      const retryAt = giveUp ? null : new Date(now().getTime() + retryDelayMs(message.attempts))
      await markMessageFailed(message.id, scrubbed(error, smtpUrl), retryAt)
      ;(giveUp ? report.failed : report.retrying).push(message.id)
      // The id only: the address is personal data and stays out of the log.
      console.warn(
        `Email ${message.id} (attempt ${message.attempts}) was not sent: ${scrubbed(error, smtpUrl)}${giveUp ? '; giving up' : ''}`,
      )
      continue
    }
    await markMessageSent(message.id, now())
    report.sent.push(message.id)
  }
  return report
}

export interface MailWorker {
  /** Runs a delivery round now (or waits for the one under way) and reports it. */
  deliverNow(): Promise<DeliveryReport>
  /** Stops polling, waits for the round under way and closes the SMTP connections. */
  stop(): Promise<void>
}

/** Starts polling the outbox every `intervalMs`. */
export function createMailWorker({
  smtpUrl,
  from,
  intervalMs = MAIL_POLL_INTERVAL_MS,
  now,
}: {
  smtpUrl: string
  from: string
  intervalMs?: number
  now?: () => Date
}): MailWorker {
  const transport = createMailTransport(smtpUrl)
  let round: Promise<DeliveryReport> | null = null
  let stopped = false
  const deliverNow = () => {
    round ??= deliverDueMessages({ transport, from, smtpUrl, now }).finally(() => {
      round = null
    })
    return round
  }
  const timer = setInterval(() => {
    if (stopped) return
    deliverNow().catch((error) =>
      console.warn(`Sending email failed; trying again shortly: ${scrubbed(error, smtpUrl)}`),
    )
  }, intervalMs)
  timer.unref()
  return {
    deliverNow,
    async stop() {
      stopped = true
      clearInterval(timer)
      await round?.catch(() => undefined)
      transport.close()
    },
  }
}

const state = ((globalThis as { __eventshoutMail?: { worker?: MailWorker } }).__eventshoutMail ??= {})

/** The server's worker, when SMTP_URL is set; returns its stop (nothing to stop without SMTP_URL). */
export function startMailWorker(): () => Promise<void> {
  const env = getEnv()
  if (!env.SMTP_URL) {
    console.info('SMTP_URL is not set: email is kept in the outbox (administrators read it at /admin/outbox)')
    return async () => {}
  }
  state.worker ??= createMailWorker({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM })
  return async () => {
    const worker = state.worker
    state.worker = undefined
    await worker?.stop()
  }
}
