/**
 * The mail server of the end-to-end runs: a real SMTP server (tests/support/smtp-server.ts) that the app's mail worker
 * sends to, as it would to a provider, and a small HTTP page where the tests read what arrived for an address
 * (GET /messages?to=…). Mail lives in this process's memory only.
 */
import http from 'node:http'
import { TestSmtpServer } from '#tests/support/smtp-server.ts'
import { E2E_MAILBOX_PORT, E2E_SMTP_PORT } from './mailbox-ports.ts'

const smtp = new TestSmtpServer()
smtp.port = E2E_SMTP_PORT
await smtp.start()

const mailbox = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1')
  if (request.method !== 'GET' || url.pathname !== '/messages') {
    response.writeHead(404).end()
    return
  }
  const to = url.searchParams.get('to')
  response.writeHead(200, { 'Content-Type': 'application/json' })
  response.end(JSON.stringify(to === null ? [] : smtp.to(to)))
})
await new Promise<void>((resolve) => mailbox.listen(E2E_MAILBOX_PORT, '127.0.0.1', resolve))

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    mailbox.close()
    void smtp.stop().then(() => process.exit(0))
  })
}
