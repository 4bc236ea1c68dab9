import crypto from 'node:crypto'
import { promisify } from 'node:util'
import { AppError } from './app-error.ts'

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>

// N=2^15, r=8, p=1: about 50 ms and 32 MiB per hash on this hardware, the OWASP baseline for scrypt.
const PARAMS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const KEY_LENGTH = 64

/**
 * Hashes run on Node's small thread pool (4 threads), which file reads share: unbounded, a flood of sign-ins takes
 * every thread and media stalls for seconds. At most this many hashes run at once, and this many more may wait.
 */
export const HASHES_IN_FLIGHT = 2
export const HASH_QUEUE_LENGTH = 8
/** What a client is told to wait when the queue is full: a hash takes about 50 ms. */
export const HASHING_BUSY_RETRY_AFTER_SECONDS = 1

/** Too many sign-ins or registrations at once: a 503 with Retry-After. */
export function hashingBusyError() {
  return new AppError('Too many sign-ins at once. Please try again in a moment.', 'unavailable', {
    retryAfterSeconds: HASHING_BUSY_RETRY_AFTER_SECONDS,
  })
}

const gate = { running: 0, waiting: [] as Array<() => void> }

async function withHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (gate.running >= HASHES_IN_FLIGHT) {
    if (gate.waiting.length >= HASH_QUEUE_LENGTH) throw hashingBusyError()
    await new Promise<void>((resolve) => gate.waiting.push(resolve))
  } else {
    gate.running++
  }
  try {
    return await work()
  } finally {
    // The slot passes straight to the next in line, so `running` only drops when nobody waits.
    const next = gate.waiting.shift()
    if (next) next()
    else gate.running--
  }
}

/** `scrypt$N$r$p$salt$hash`, base64url parts: the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  const key = await withHashingSlot(() => scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, PARAMS))
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  )
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await withHashingSlot(() =>
    scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: PARAMS.maxmem,
    }),
  )
  return crypto.timingSafeEqual(key, expected)
}

/** Compared against when an email is unknown, so a miss takes as long as a wrong password. */
let dummyHash: Promise<string> | undefined
export function dummyPasswordHash() {
  dummyHash ??= hashPassword(crypto.randomBytes(12).toString('hex'))
  return dummyHash
}
