import { expect } from '@playwright/test'
import type { ReceivedMail } from '#tests/support/smtp-server.ts'
import { E2E_MAILBOX_PORT } from './mailbox-ports.ts'

/** The server's mail worker sends every 5 s: a message may take a round or two to arrive. */
const ARRIVAL_TIMEOUT_MS = 30_000

/** What the end-to-end mail server received for `address`, oldest first. */
async function mailTo(address: string): Promise<ReceivedMail[]> {
  const response = await fetch(
    `http://127.0.0.1:${E2E_MAILBOX_PORT}/messages?to=${encodeURIComponent(address)}`,
  )
  expect(response.status).toBe(200)
  return (await response.json()) as ReceivedMail[]
}

/**
 * The link to `path` (with its `?token=`) in the newest email received for `address`, once it has arrived; as a path
 * and query, so the test opens it on the server under test.
 */
export async function linkInMail(address: string, path: string) {
  const pattern = new RegExp(`https?://[^\\s"<>]+${path}\\?token=[^\\s"<>]+`)
  let link: string | undefined
  await expect
    .poll(
      async () => {
        link = (await mailTo(address)).findLast((mail) => pattern.test(mail.text))?.text.match(pattern)?.[0]
        return link
      },
      { message: `an email to ${address} with a ${path} link`, timeout: ARRIVAL_TIMEOUT_MS },
    )
    .toBeTruthy()
  const url = new URL(link!)
  return url.pathname + url.search
}
