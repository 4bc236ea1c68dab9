import net from 'node:net'
import { z } from 'zod'
import { DEFAULT_REGISTRATIONS_PER_ADDRESS_PER_HOUR } from '#app/constants.ts'

function isTimeZone(value: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return true
  } catch {
    return false
  }
}

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

function isTrustProxy(value: string) {
  if (/^\d+$/.test(value)) return true
  return value.split(',').every((entry) => {
    const [address, bits, ...rest] = entry.trim().split('/')
    if (!address || rest.length) return false
    if (bits === undefined && TRUST_PROXY_NAMES.has(address)) return true
    const version = net.isIP(address)
    return (
      version !== 0 &&
      (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128)))
    )
  })
}

const optional = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

function isHttpsUrl(value: string | undefined) {
  try {
    return value !== undefined && new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}

const DEFAULT_MAIL_FROM = 'EventShout <no-reply@eventshout.example>'

/** "a@b.c" or "Name <a@b.c>"; no line breaks (a header value). */
function isMailFrom(value: string) {
  return /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/.test(value)
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me'

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /**
     * Which rules apply (defaults to NODE_ENV). `remix-serve` always sets NODE_ENV=production, so the local demo
     * (`npm start`) and the end-to-end tests say APP_ENV=development to get the development sign-in and the test
     * payment provider; a deployment leaves it unset and gets the strict production rules.
     */
    APP_ENV: optional.pipe(z.enum(['development', 'production', 'test']).optional()),
    DATABASE_URL: optional.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
        .optional(),
    ),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    PORT: optional.pipe(z.coerce.number<string | undefined>().int().min(1).max(65535).optional()),
    HOST: optional,
    /**
     * Which proxies in front of the server may tell the client's address through X-Forwarded-For: unset (none; the
     * socket's address is the client's), a number of hops, or a comma-separated list of addresses, subnets and the
     * names loopback, linklocal, uniquelocal.
     */
    TRUST_PROXY: optional.pipe(
      z
        .string()
        .refine(
          isTrustProxy,
          'TRUST_PROXY must be a number of hops or a list of addresses, subnets or loopback',
        )
        .transform((v): number | string => (/^\d+$/.test(v) ? Number(v) : v))
        .optional(),
    ),
    SESSION_SECRET: optional,
    /** Accounts one address may register per hour (429 beyond). */
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: optional.pipe(
      z.coerce
        .number<string | undefined>()
        .int()
        .min(1)
        .max(100_000)
        .default(DEFAULT_REGISTRATIONS_PER_ADDRESS_PER_HOUR),
    ),
    /** Subscriptions ("Email me these events", "Remind me") one address may ask for per hour (429 beyond). */
    SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR: optional.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(100_000).default(10),
    ),
    /** Free listings one business may send per day, and one address (429 beyond). */
    FREE_LISTINGS_PER_BUSINESS_PER_DAY: optional.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(100_000).default(5),
    ),
    /** Links one business may have read for "Fill from a link" per hour (429 beyond): each is an outbound fetch. */
    LINK_FILLS_PER_BUSINESS_PER_HOUR: optional.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(100_000).default(30),
    ),
    FREE_LISTINGS_PER_ADDRESS_PER_DAY: optional.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(100_000).default(10),
    ),
    /** Confirmation emails one email address may be sent per day. */
    CONFIRMATIONS_PER_EMAIL_PER_DAY: optional.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(100).default(3),
    ),
    /** The weekday (0 = Sunday … 6 = Saturday) and hour (0–23, platform time zone) of the weekly digest. */
    DIGEST_DAY: optional.pipe(
      z.coerce
        .number<string | undefined>()
        .int('DIGEST_DAY must be 0 (Sunday) to 6 (Saturday)')
        .min(0)
        .max(6)
        .default(4),
    ),
    DIGEST_HOUR: optional.pipe(
      z.coerce.number<string | undefined>().int('DIGEST_HOUR must be 0 to 23').min(0).max(23).default(8),
    ),
    /** Moderation: visitors whose open reports hide an ad pending a decision. */
    REPORTS_TO_HIDE: optional.pipe(z.coerce.number<string | undefined>().int().min(1).max(1000).default(3)),
    /** Moderation: approved ads (and no rejection, takedown or upheld report in 90 days) that make a business trusted. */
    TRUSTED_AFTER_APPROVALS: optional.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(1000).default(3),
    ),
    /** Moderation: the percentage of a trusted business's auto-approved ads and edits also listed for a check. */
    TRUSTED_SAMPLE_PERCENT: optional.pipe(
      z.coerce.number<string | undefined>().int().min(0).max(100).default(10),
    ),
    /** How long a shutdown waits for the requests in flight before it cuts them (SIGTERM, SIGINT). */
    SHUTDOWN_TIMEOUT_MS: optional.pipe(
      z.coerce
        .number<string | undefined>()
        .int()
        .min(0)
        .max(10 * 60_000)
        .default(25_000),
    ),
    APP_TIME_ZONE: z
      .string()
      .trim()
      .default('America/New_York')
      .refine(isTimeZone, 'APP_TIME_ZONE must be an IANA time zone such as America/New_York'),
    PUBLIC_URL: optional.pipe(z.url('PUBLIC_URL must be an absolute URL').optional()),
    STRIPE_SECRET_KEY: optional,
    STRIPE_PUBLISHABLE_KEY: optional,
    STRIPE_WEBHOOK_SECRET: optional,
    /** Points stripe-node at another API host (a local fake in tests), e.g. http://127.0.0.1:12111 */
    STRIPE_API_BASE: optional.pipe(z.url().optional()),
    OIDC_ISSUER: optional.pipe(z.url('OIDC_ISSUER must be an absolute URL').optional()),
    OIDC_CLIENT_ID: optional,
    OIDC_CLIENT_SECRET: optional,
    /**
     * Media in an S3-compatible bucket (shared by several servers) instead of `${DATA_DIR}/media`. Credentials come
     * from the AWS SDK's standard variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
     * AWS_PROFILE) or the machine's role.
     */
    S3_BUCKET: optional.pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'S3_BUCKET must be a bucket name (3–63 of a-z 0-9 . -)')
        .optional(),
    ),
    /** The store's address for anything but AWS (R2, MinIO, Ceph), e.g. http://127.0.0.1:9000 */
    S3_ENDPOINT: optional.pipe(z.url('S3_ENDPOINT must be an absolute URL').optional()),
    S3_REGION: optional,
    /** `true` for stores that want the bucket in the path (MinIO, Ceph) rather than in the host name. */
    S3_FORCE_PATH_STYLE: optional.pipe(z.enum(['true', 'false']).optional()),
    /** Email over SMTP, e.g. smtp://user:pass@host:587 or smtps://user:pass@host:465; unset = email stays in the outbox. */
    SMTP_URL: optional.pipe(
      z
        .string()
        .refine((v) => {
          try {
            return ['smtp:', 'smtps:'].includes(new URL(v).protocol) && Boolean(new URL(v).hostname)
          } catch {
            return false
          }
        }, 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…')
        .optional(),
    ),
    /** The sender of every email: an address, or a name and an address ("EventShout <no-reply@example.com>"). */
    MAIL_FROM: z
      .string()
      .trim()
      .default(DEFAULT_MAIL_FROM)
      .refine(
        isMailFrom,
        'MAIL_FROM must be an email address, optionally with a name: Name <address@example.com>',
      ),
    /** `off` stops counting ad views (the daily figures then show clicks and bounces only). */
    VIEW_COUNTING: z.enum(['on', 'off'], 'VIEW_COUNTING must be on or off').default('on'),
    /** `off` leaves the advertisers' links as they gave them, without the site's utm_source, utm_medium, utm_campaign. */
    AD_LINK_UTM: z.enum(['on', 'off'], 'AD_LINK_UTM must be on or off').default('on'),
    /**
     * The least severe log lines written: fatal, error, warn, info (the default: a line per request), debug (the
     * client build's files too), trace; silent writes none.
     */
    LOG_LEVEL: optional.pipe(
      z.enum(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`).default('info'),
    ),
    /** `json` (one object a line) or `pretty` (for a person); unset: pretty on a terminal, JSON otherwise. */
    LOG_FORMAT: optional.pipe(z.enum(['json', 'pretty'], 'LOG_FORMAT must be json or pretty').optional()),
    /**
     * The bearer token a scraper sends for GET /metrics (at least 16 characters); unset, /metrics answers 404.
     */
    METRICS_TOKEN: optional.pipe(
      z
        .string()
        .regex(/^[\x21-\x7e]{16,}$/, 'METRICS_TOKEN must be at least 16 characters, without spaces')
        .optional(),
    ),
    /**
     * IndexNow (both or neither): the search engine's address that takes the pings (such as
     * https://api.indexnow.org/indexnow), and the site's key (8–128 of a-z A-Z 0-9 -), served at /indexnow-key.txt.
     */
    INDEXNOW_ENDPOINT: optional.pipe(
      z
        .url({ protocol: /^https?$/, error: 'INDEXNOW_ENDPOINT must be an http:// or https:// address' })
        .optional(),
    ),
    INDEXNOW_KEY: optional.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9-]{8,128}$/, 'INDEXNOW_KEY must be 8 to 128 of the letters a-z, A-Z, digits and -')
        .optional(),
    ),
    /**
     * `npm start` sets it: the server fills an empty database with the demo data once it is open (so the database
     * is opened once, by the server). Refused with production rules.
     */
    SEED_DEMO_DATA: optional.pipe(z.enum(['true', 'false']).optional()),
    /** Production only: run without an identity provider (business email sign-in only). */
    ALLOW_NO_IDENTITY_PROVIDER: optional.pipe(z.enum(['true', 'false']).optional()),
    /**
     * Tests only: host names (comma-separated) "Fill from a link" may fetch from whatever their port and address, so
     * a test can serve pages on loopback. Never set by default; refused with production rules.
     */
    LINK_FETCH_ALLOW_HOSTS: optional.pipe(
      z
        .string()
        .regex(
          /^[\w.:[\]-]+(?:\s*,\s*[\w.:[\]-]+)*$/,
          'LINK_FETCH_ALLOW_HOSTS must be host names, comma-separated',
        )
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    const stripe = [env.STRIPE_SECRET_KEY, env.STRIPE_PUBLISHABLE_KEY, env.STRIPE_WEBHOOK_SECRET]
    if (stripe.some(Boolean) && !stripe.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message:
          'Set all three of STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, or none',
      })
    }
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET]
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'Set all three of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none',
      })
    }
    if (Boolean(env.INDEXNOW_ENDPOINT) !== Boolean(env.INDEXNOW_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.INDEXNOW_ENDPOINT ? 'INDEXNOW_KEY' : 'INDEXNOW_ENDPOINT'],
        message: 'Set both INDEXNOW_ENDPOINT and INDEXNOW_KEY to ping IndexNow, or neither',
      })
    }
    const s3Settings = (['S3_ENDPOINT', 'S3_REGION', 'S3_FORCE_PATH_STYLE'] as const).filter(
      (name) => env[name],
    )
    if (s3Settings.length && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: `${s3Settings.join(', ')} set without S3_BUCKET: set S3_BUCKET to store media in that bucket, or unset ${s3Settings.length > 1 ? 'them' : 'it'} to keep media in DATA_DIR`,
      })
    }
    if ((env.APP_ENV ?? env.NODE_ENV) === 'production') {
      if (env.SEED_DEMO_DATA === 'true') {
        ctx.addIssue({
          code: 'custom',
          path: ['SEED_DEMO_DATA'],
          message: 'SEED_DEMO_DATA is for the local demo (npm start): unset it with production rules',
        })
      }
      if (env.LINK_FETCH_ALLOW_HOSTS) {
        ctx.addIssue({
          code: 'custom',
          path: ['LINK_FETCH_ALLOW_HOSTS'],
          message:
            'LINK_FETCH_ALLOW_HOSTS lets "Fill from a link" read private addresses and is for tests only: unset it with production rules',
        })
      }
      if (!env.SESSION_SECRET || env.SESSION_SECRET.length < 32) {
        ctx.addIssue({
          code: 'custom',
          path: ['SESSION_SECRET'],
          message: 'SESSION_SECRET is required in production (at least 32 characters)',
        })
      }
      // Every absolute link the server writes comes from it: without it a link would come from the Host a client sent.
      if (!isHttpsUrl(env.PUBLIC_URL)) {
        ctx.addIssue({
          code: 'custom',
          path: ['PUBLIC_URL'],
          message:
            'PUBLIC_URL is required in production: the absolute https:// address of the site (links in emails and feeds use it)',
        })
      }
      if (!env.OIDC_ISSUER && env.ALLOW_NO_IDENTITY_PROVIDER !== 'true') {
        ctx.addIssue({
          code: 'custom',
          path: ['OIDC_ISSUER'],
          message:
            'Production needs an identity provider (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET) or ALLOW_NO_IDENTITY_PROVIDER=true',
        })
      }
    }
  })
  .transform((env) => ({
    ...env,
    sessionSecrets: (env.SESSION_SECRET ?? DEV_SESSION_SECRET)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    stripeEnabled: Boolean(env.STRIPE_SECRET_KEY),
    oidcEnabled: Boolean(env.OIDC_ISSUER),
    isProduction: (env.APP_ENV ?? env.NODE_ENV) === 'production',
    linkFetchAllowHosts: (env.LINK_FETCH_ALLOW_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean),
  }))

export type Env = z.infer<typeof envSchema>

export interface ConfigurationWarning {
  variable: string
  message: string
}

/**
 * What a production start runs without that still works, but not as a deployment usually wants: each is written to
 * the log at start-up (a setting production cannot do without refuses the start instead, in the schema above).
 */
export function productionWarnings(env: Env): ConfigurationWarning[] {
  if (!env.isProduction) return []
  const warnings: ConfigurationWarning[] = []
  if (!env.SMTP_URL) {
    warnings.push({
      variable: 'SMTP_URL',
      message:
        'SMTP_URL is unset: no email is sent; every message waits in the outbox, where administrators read it at /admin/outbox',
    })
  } else if (env.MAIL_FROM === DEFAULT_MAIL_FROM) {
    warnings.push({
      variable: 'MAIL_FROM',
      message: `MAIL_FROM is unset: email is sent as ${DEFAULT_MAIL_FROM}, an example domain most mail servers refuse or mark as spam; set an address of your own domain`,
    })
  }
  if (env.TRUST_PROXY === undefined) {
    warnings.push({
      variable: 'TRUST_PROXY',
      message:
        'TRUST_PROXY is unset: the client is whoever opened the connection, so behind a proxy (the one in front of PUBLIC_URL) every visitor shares its address in the sign-in, registration and subscription limits',
    })
  }
  if (!env.stripeEnabled) {
    warnings.push({
      variable: 'STRIPE_SECRET_KEY',
      message:
        'STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are unset: payments are not available, so no new ad can be paid for and go live',
    })
  }
  return warnings
}

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.') || 'env'}: ${i.message}`)
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  return result.data
}

let cached: Env | undefined

/** The validated environment; a bad value stops the process with a clear message. */
export function getEnv(): Env {
  if (cached) return cached
  try {
    cached = parseEnv(process.env)
  } catch (error) {
    if (error instanceof EnvError && process.env.NODE_ENV !== 'test' && !process.env.VITEST) {
      // The logger is configured from this environment, so the refusal to start is written to stderr as it is.
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
  return cached
}

/** Tests change the environment between cases. */
export function resetEnvCache() {
  cached = undefined
}
