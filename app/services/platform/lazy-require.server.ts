import { createRequire } from 'node:module'

/**
 * A package loaded the first time it is needed rather than at start-up: the AWS SDK, Stripe's client, sharp,
 * nodemailer and pino-pretty cost 20–150 ms of a start each, and a server without a bucket, Stripe or SMTP never
 * needs them.
 */
export const lazyRequire = createRequire(import.meta.url)
