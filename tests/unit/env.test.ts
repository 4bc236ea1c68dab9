import { describe, expect, test } from 'vitest'
import { DEFAULT_REGISTRATIONS_PER_ADDRESS_PER_HOUR } from '#app/constants.ts'
import { EnvError, parseEnv, productionWarnings } from '#app/services/platform/env.server.ts'

/** The least a production start needs. */
const PRODUCTION: Record<string, string> = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'x'.repeat(40),
  ALLOW_NO_IDENTITY_PROVIDER: 'true',
  PUBLIC_URL: 'https://events.example',
}

describe('parseEnv', () => {
  test('defaults suit a local machine', () => {
    const env = parseEnv({ NODE_ENV: 'development' })
    expect(env.DATA_DIR).toBe('./data')
    expect(env.APP_TIME_ZONE).toBe('America/New_York')
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.stripeEnabled).toBe(false)
    expect(env.isProduction).toBe(false)
    expect(env.sessionSecrets.length).toBe(1)
  })

  test('SESSION_SECRET may list several secrets for rotation', () => {
    expect(parseEnv({ SESSION_SECRET: 'new-secret, old-secret' }).sessionSecrets).toEqual([
      'new-secret',
      'old-secret',
    ])
  })

  test('a bad value is refused with a message naming the variable', () => {
    expect(() => parseEnv({ APP_TIME_ZONE: 'Mars/Olympus' })).toThrow(
      /APP_TIME_ZONE must be an IANA time zone/,
    )
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must start with postgres/)
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(EnvError)
  })

  test('Stripe keys come as a set', () => {
    expect(() => parseEnv({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/Set all three of STRIPE_SECRET_KEY/)
    const env = parseEnv({
      STRIPE_SECRET_KEY: 'sk',
      STRIPE_PUBLISHABLE_KEY: 'pk',
      STRIPE_WEBHOOK_SECRET: 'wh',
    })
    expect(env.stripeEnabled).toBe(true)
  })

  test('production needs a strong session secret and an identity provider or an explicit opt-out', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required in production/)
    expect(() => parseEnv({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) })).toThrow(
      /Production needs an identity provider/,
    )
    const env = parseEnv(PRODUCTION)
    expect(env.isProduction).toBe(true)
  })

  test('production needs PUBLIC_URL, the absolute https:// address of the site', () => {
    const { PUBLIC_URL: _unset, ...withoutPublicUrl } = PRODUCTION
    expect(() => parseEnv(withoutPublicUrl)).toThrow(
      'PUBLIC_URL: PUBLIC_URL is required in production: the absolute https:// address of the site (links in emails and feeds use it)',
    )
    expect(() => parseEnv({ ...withoutPublicUrl, APP_ENV: 'production', NODE_ENV: 'test' })).toThrow(
      /PUBLIC_URL is required in production/,
    )
    expect(() => parseEnv({ ...PRODUCTION, PUBLIC_URL: 'events.example' })).toThrow(/PUBLIC_URL/)
    for (const bad of ['http://events.example', 'ftp://events.example']) {
      expect(() => parseEnv({ ...PRODUCTION, PUBLIC_URL: bad }), bad).toThrow(
        /PUBLIC_URL is required in production: the absolute https:\/\/ address/,
      )
    }
    expect(parseEnv({ ...PRODUCTION, PUBLIC_URL: 'https://events.example' }).PUBLIC_URL).toBe(
      'https://events.example',
    )
    // Outside production it stays optional, and http:// is fine (a local machine).
    expect(parseEnv({ NODE_ENV: 'development' }).PUBLIC_URL).toBeUndefined()
    expect(parseEnv({ PUBLIC_URL: 'http://localhost:3000' }).PUBLIC_URL).toBe('http://localhost:3000')
  })

  test('the demo data seeded by the server (npm start) is refused with production rules', () => {
    expect(() => parseEnv({ ...PRODUCTION, SEED_DEMO_DATA: 'true' })).toThrow(
      'SEED_DEMO_DATA: SEED_DEMO_DATA is for the local demo (npm start): unset it with production rules',
    )
    expect(parseEnv({ ...PRODUCTION, SEED_DEMO_DATA: 'false' }).SEED_DEMO_DATA).toBe('false')
    expect(parseEnv({ APP_ENV: 'development', SEED_DEMO_DATA: 'true' }).SEED_DEMO_DATA).toBe('true')
    expect(() => parseEnv({ SEED_DEMO_DATA: 'yes' })).toThrow(/SEED_DEMO_DATA/)
  })

  test('production warns at start of what it runs without, each warning naming its variable', () => {
    const bare = productionWarnings(parseEnv(PRODUCTION))
    expect(bare.map((w) => w.variable)).toEqual(['SMTP_URL', 'TRUST_PROXY', 'STRIPE_SECRET_KEY'])
    for (const { variable, message } of bare) expect(message, variable).toContain(variable)
    expect(bare[0]!.message).toContain('/admin/outbox')

    const complete = parseEnv({
      ...PRODUCTION,
      SMTP_URL: 'smtp://mailer:secret@mail.events.example:587',
      MAIL_FROM: 'Events <no-reply@events.example>',
      TRUST_PROXY: 'loopback',
      STRIPE_SECRET_KEY: 'sk',
      STRIPE_PUBLISHABLE_KEY: 'pk',
      STRIPE_WEBHOOK_SECRET: 'wh',
    })
    expect(productionWarnings(complete)).toEqual([])
    // Email sent as the placeholder sender of the examples is refused or marked as spam by most receivers.
    const defaultSender = parseEnv({ ...PRODUCTION, SMTP_URL: complete.SMTP_URL!, TRUST_PROXY: '1' })
    expect(productionWarnings(defaultSender).map((w) => w.variable)).toEqual([
      'MAIL_FROM',
      'STRIPE_SECRET_KEY',
    ])
    // Outside production nothing is missing.
    expect(productionWarnings(parseEnv({ NODE_ENV: 'development' }))).toEqual([])
  })

  test('APP_ENV overrides NODE_ENV for the rules that apply', () => {
    expect(parseEnv({ NODE_ENV: 'production', APP_ENV: 'development' }).isProduction).toBe(false)
  })

  test('TRUST_PROXY takes a number of hops or a list of addresses, subnets and names; anything else is refused', () => {
    expect(parseEnv({}).TRUST_PROXY).toBeUndefined()
    expect(parseEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1)
    expect(parseEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8' }).TRUST_PROXY).toBe(
      'loopback, 10.0.0.0/8, fd00::/8',
    )
    for (const bad of ['yes', '10.0.0.0/33', '300.1.1.1', 'loopback/8', '10.0.0.1/8/1']) {
      expect(() => parseEnv({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be a number of hops/)
    }
  })

  test('REGISTRATIONS_PER_ADDRESS_PER_HOUR defaults to the product limit and takes a positive whole number', () => {
    expect(parseEnv({}).REGISTRATIONS_PER_ADDRESS_PER_HOUR).toBe(DEFAULT_REGISTRATIONS_PER_ADDRESS_PER_HOUR)
    expect(parseEnv({ REGISTRATIONS_PER_ADDRESS_PER_HOUR: '500' }).REGISTRATIONS_PER_ADDRESS_PER_HOUR).toBe(
      500,
    )
    for (const bad of ['0', '-1', '2.5', 'many']) {
      expect(() => parseEnv({ REGISTRATIONS_PER_ADDRESS_PER_HOUR: bad }), bad).toThrow(
        /REGISTRATIONS_PER_ADDRESS_PER_HOUR/,
      )
    }
  })

  test('the S3 settings without S3_BUCKET are refused, since media would silently stay on the disk', () => {
    expect(() => parseEnv({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /S3_BUCKET: S3_ENDPOINT set without S3_BUCKET/,
    )
    expect(() => parseEnv({ S3_REGION: 'eu-west-1', S3_FORCE_PATH_STYLE: 'true' })).toThrow(
      /S3_REGION, S3_FORCE_PATH_STYLE set without S3_BUCKET/,
    )
    expect(() => parseEnv({ S3_REGION: ' ' })).not.toThrow()
    const env = parseEnv({
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
    })
    expect(env.S3_ENDPOINT).toBe('http://127.0.0.1:9000')
  })

  test('VIEW_COUNTING is on unless set to off; anything else is refused', () => {
    expect(parseEnv({}).VIEW_COUNTING).toBe('on')
    expect(parseEnv({ VIEW_COUNTING: 'off' }).VIEW_COUNTING).toBe('off')
    expect(() => parseEnv({ VIEW_COUNTING: 'no' })).toThrow(/VIEW_COUNTING must be on or off/)
  })

  test('AD_LINK_UTM is on unless set to off; anything else is refused', () => {
    expect(parseEnv({}).AD_LINK_UTM).toBe('on')
    expect(parseEnv({ AD_LINK_UTM: 'off' }).AD_LINK_UTM).toBe('off')
    expect(() => parseEnv({ AD_LINK_UTM: 'false' })).toThrow(/AD_LINK_UTM must be on or off/)
  })

  test('LOG_LEVEL defaults to info and takes a pino level; LOG_FORMAT is json or pretty', () => {
    expect(parseEnv({}).LOG_LEVEL).toBe('info')
    expect(parseEnv({ LOG_LEVEL: '' }).LOG_LEVEL).toBe('info')
    expect(parseEnv({ LOG_LEVEL: 'debug' }).LOG_LEVEL).toBe('debug')
    expect(() => parseEnv({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL must be one of fatal, error/)
    expect(parseEnv({}).LOG_FORMAT).toBeUndefined()
    expect(parseEnv({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty')
    expect(() => parseEnv({ LOG_FORMAT: 'text' })).toThrow(/LOG_FORMAT must be json or pretty/)
  })

  test('METRICS_TOKEN is unset (no /metrics) or at least 16 characters without spaces', () => {
    expect(parseEnv({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined()
    expect(parseEnv({ METRICS_TOKEN: 'a'.repeat(16) }).METRICS_TOKEN).toBe('a'.repeat(16))
    expect(() => parseEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16/)
    expect(() => parseEnv({ METRICS_TOKEN: 'sixteen chars or more' })).toThrow(/without spaces/)
  })
})
