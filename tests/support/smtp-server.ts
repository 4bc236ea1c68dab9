import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { createMailTransport, deliverDueMessages } from '#app/services/mail/mail.server.ts'
import { SMTP_PASSWORD, SMTP_USER } from './smtp-credentials.ts'

export { SMTP_PASSWORD, SMTP_USER }

export interface ReceivedMail {
  to: string[]
  from: string
  subject: string
  text: string
  html: string
  messageId: string
  /** The message's headers as sent (unfolded), by lower-case name. */
  headers: Record<string, string>
}

/**
 * A real SMTP server on loopback (smtp-server) that asks for a login and keeps what it receives. `stop()` and
 * `start()` again on the same port stand for an outage of the mail server.
 */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = []
  private server: SMTPServer | null = null
  port = 0

  get url() {
    return `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${this.port}`
  }

  async start() {
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD)
          callback(null, { user: auth.username })
        else callback(new Error('Invalid username or password'))
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail: ParsedMail) => {
            this.received.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              from: typeof session.envelope.mailFrom === 'object' ? session.envelope.mailFrom.address : '',
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              messageId: mail.messageId ?? '',
              headers: Object.fromEntries(
                mail.headerLines.map(({ key, line }) => [
                  key,
                  line
                    .slice(line.indexOf(':') + 1)
                    .replace(/\r?\n\s+/g, ' ')
                    .trim(),
                ]),
              ),
            })
            callback()
          })
          .catch((error: Error) => callback(error))
      },
    })
    server.on('error', () => {})
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.port, '127.0.0.1', () => resolve())
    })
    this.port = (server.server.address() as AddressInfo).port
    this.server = server
  }

  async stop() {
    const server = this.server
    this.server = null
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  /** The messages received for `address`. */
  to(address: string) {
    return this.received.filter((mail) => mail.to.includes(address))
  }

  /** Sends every message due in the outbox to this server, as the mail worker does; what was delivered. */
  async deliverOutbox() {
    const transport = createMailTransport(this.url)
    try {
      return await deliverDueMessages({ transport, from: 'EventShout <no-reply@eventshout.example>' })
    } finally {
      transport.close()
    }
  }
}
