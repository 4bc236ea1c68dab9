import { afterEach, describe, expect, test, vi } from 'vitest'
import { TOAST_REMOVE_DELAY_MS } from '#app/constants.ts'
import { currentToasts, reduceToasts, toast } from '#app/components/toaster.tsx'

describe('reduceToasts', () => {
  const a = { id: 'a', title: 'A', open: true }
  const b = { id: 'b', title: 'B', open: true }

  test('keeps at most one toast, the newest', () => {
    expect(reduceToasts(reduceToasts([], { type: 'add', toast: a }), { type: 'add', toast: b })).toEqual([b])
  })

  test('update changes fields of the matching toast', () => {
    expect(reduceToasts([a], { type: 'update', toast: { id: 'a', title: 'A2' } })[0]?.title).toBe('A2')
  })

  test('dismiss marks closed; remove takes it away', () => {
    const dismissed = reduceToasts([a], { type: 'dismiss', id: 'a' })
    expect(dismissed).toEqual([{ ...a, open: false }])
    expect(reduceToasts(dismissed, { type: 'remove', id: 'a' })).toEqual([])
  })
})

describe('toast()', () => {
  afterEach(() => vi.useRealTimers())

  test('a dismissed toast stays closed for 2000 ms, then is removed', () => {
    vi.useFakeTimers()
    const t = toast({ title: 'Hello' })
    expect(currentToasts()).toEqual([expect.objectContaining({ id: t.id, open: true, variant: 'default' })])
    t.dismiss()
    expect(currentToasts()[0]?.open).toBe(false)
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1)
    expect(currentToasts()).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(currentToasts()).toHaveLength(0)
  })
})
