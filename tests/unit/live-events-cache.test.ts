import { beforeEach, describe, expect, test, vi } from 'vitest'
import {
  cachedLiveEvents,
  invalidateLiveEvents,
  LIVE_EVENTS_CACHE_TTL_MS,
  logRefreshFailuresWith,
} from '#app/models/calendar/live-events-cache.server.ts'

const FRESH = LIVE_EVENTS_CACHE_TTL_MS * 0.5
const EXPIRED = LIVE_EVENTS_CACHE_TTL_MS * 1.5
const GONE = LIVE_EVENTS_CACHE_TTL_MS * 10

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

beforeEach(() => invalidateLiveEvents())

describe('cachedLiveEvents', () => {
  test('a fresh entry is served without loading again', async () => {
    const load = vi.fn(async () => 'first')
    expect(await cachedLiveEvents('k', load, 0)).toBe('first')
    expect(await cachedLiveEvents('k', load, FRESH)).toBe('first')
    expect(load).toHaveBeenCalledTimes(1)
  })

  test('concurrent callers share one load', async () => {
    let resolve!: (v: string) => void
    const load = vi.fn(() => new Promise<string>((r) => (resolve = r)))
    const a = cachedLiveEvents('k', load, 0)
    const b = cachedLiveEvents('k', load, 1)
    resolve('shared')
    expect(await Promise.all([a, b])).toEqual(['shared', 'shared'])
    expect(load).toHaveBeenCalledTimes(1)
  })

  test('an expired entry is served once more while a single refresh runs', async () => {
    let resolveRefresh!: (v: string) => void
    const load = vi
      .fn()
      .mockResolvedValueOnce('old')
      .mockImplementationOnce(() => new Promise((r) => (resolveRefresh = r)))
    await cachedLiveEvents('k', load, 0)
    expect(await cachedLiveEvents('k', load, EXPIRED)).toBe('old')
    expect(await cachedLiveEvents('k', load, EXPIRED + 1)).toBe('old')
    expect(load).toHaveBeenCalledTimes(2)
    resolveRefresh('new')
    await flush()
    expect(await cachedLiveEvents('k', load, EXPIRED + 2)).toBe('new')
    expect(load).toHaveBeenCalledTimes(2)
  })

  test('an entry far too old is loaded again before answering', async () => {
    const load = vi.fn().mockResolvedValueOnce('old').mockResolvedValueOnce('new')
    await cachedLiveEvents('k', load, 0)
    expect(await cachedLiveEvents('k', load, GONE)).toBe('new')
  })

  test('invalidation drops everything, including a refresh started before it', async () => {
    let resolveRefresh!: (v: string) => void
    const load = vi
      .fn()
      .mockResolvedValueOnce('old')
      .mockImplementationOnce(() => new Promise((r) => (resolveRefresh = r)))
      .mockResolvedValueOnce('after invalidation')
    await cachedLiveEvents('k', load, 0)
    expect(await cachedLiveEvents('k', load, EXPIRED)).toBe('old')
    invalidateLiveEvents()
    resolveRefresh('refreshed too late')
    await flush()
    expect(await cachedLiveEvents('k', load, EXPIRED + 1)).toBe('after invalidation')
  })

  test('a failed load is not kept', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('up')
    await expect(cachedLiveEvents('k', load, 0)).rejects.toThrow('down')
    expect(await cachedLiveEvents('k', load, 1)).toBe('up')
  })

  test('a failed refresh keeps serving the old value, and is logged', async () => {
    const logged: Array<[unknown, string]> = []
    logRefreshFailuresWith((error, message) => logged.push([error, message]))
    const load = vi.fn().mockResolvedValueOnce('old').mockRejectedValue(new Error('down'))
    await cachedLiveEvents('k', load, 0)
    expect(await cachedLiveEvents('k', load, EXPIRED)).toBe('old')
    await flush()
    expect(await cachedLiveEvents('k', load, EXPIRED + 1)).toBe('old')
    await flush()
    logRefreshFailuresWith(() => {})
    expect(logged.map(([error, message]) => [(error as Error).message, message])).toEqual([
      ['down', 'Refreshing the cached listing k failed'],
      ['down', 'Refreshing the cached listing k failed'],
    ])
  })

  test('keys are independent', async () => {
    expect(await cachedLiveEvents('a', async () => 1, 0)).toBe(1)
    expect(await cachedLiveEvents('b', async () => 2, 0)).toBe(2)
  })
})
