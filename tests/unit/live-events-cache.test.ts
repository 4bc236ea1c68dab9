import { beforeEach, describe, expect, test, vi } from 'vitest'
import {
  cachedLiveEvents,
  cachedLiveEventsByIds,
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

describe('cachedLiveEventsByIds', () => {
  /** A load that answers each id it is asked with a new object, except the ids in `missing`, and records each call. */
  function loader(missing: number[] = []) {
    const calls: number[][] = []
    const load = async (ids: number[]) => {
      calls.push(ids)
      return new Map(ids.filter((id) => !missing.includes(id)).map((id) => [id, { id }]))
    }
    return { load, calls }
  }

  test('only the ids not held are loaded, together, and a held id gives back the same object', async () => {
    const { load, calls } = loader()
    const first = await cachedLiveEventsByIds('card', [1, 2, 3], load, 0)
    const second = await cachedLiveEventsByIds('card', [3, 4, 1], load, FRESH)
    expect(calls).toEqual([[1, 2, 3], [4]])
    expect(second.get(1)).toBe(first.get(1))
    expect(second.get(3)).toBe(first.get(3))
    expect([...second.keys()].sort()).toEqual([1, 3, 4])
    expect(await cachedLiveEventsByIds('card', [1, 3], load, FRESH)).toEqual(
      new Map([
        [1, { id: 1 }],
        [3, { id: 3 }],
      ]),
    )
    expect(calls).toHaveLength(2)
  })

  test('an id held past its freshness is loaded again', async () => {
    const { load, calls } = loader()
    const first = await cachedLiveEventsByIds('card', [1], load, 0)
    const again = await cachedLiveEventsByIds('card', [1], load, EXPIRED)
    expect(calls).toEqual([[1], [1]])
    expect(again.get(1)).not.toBe(first.get(1))
  })

  test('a change to the listings forgets every id, and what was loading meanwhile is not kept', async () => {
    const { load, calls } = loader()
    await cachedLiveEventsByIds('card', [1], load, 0)
    invalidateLiveEvents()
    await cachedLiveEventsByIds('card', [1], load, 1)
    expect(calls).toEqual([[1], [1]])

    const slow = async (ids: number[]) => {
      const loaded = await load(ids)
      invalidateLiveEvents()
      return loaded
    }
    expect((await cachedLiveEventsByIds('card', [2], slow, 2)).get(2)).toEqual({ id: 2 })
    await cachedLiveEventsByIds('card', [2], load, 3)
    expect(calls).toEqual([[1], [1], [2], [2]])
  })

  test('an id the load does not answer is left out and asked again next time; kinds are apart', async () => {
    const { load, calls } = loader([9])
    expect([...(await cachedLiveEventsByIds('card', [9, 1], load, 0)).keys()]).toEqual([1])
    await cachedLiveEventsByIds('card', [9, 1], load, 1)
    await cachedLiveEventsByIds('other', [1], load, 1)
    expect(calls).toEqual([[9, 1], [9], [1]])
  })
})
