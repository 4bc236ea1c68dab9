/** The end-to-end server's port, and next to it the SMTP server it sends email to and the page the tests read it at. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 43817)
export const E2E_SMTP_PORT = E2E_PORT + 1
export const E2E_MAILBOX_PORT = E2E_PORT + 2
