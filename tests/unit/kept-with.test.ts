import { describe, expect, test, vi } from 'vitest'
import { keptWith } from '#app/utils/kept-with.ts'

describe('keptWith', () => {
  test('the same object and key give back the value made the first time; other keys and objects make their own', () => {
    const kept = keptWith<object, { made: string }>()
    const make = vi.fn((made: string) => ({ made }))
    const [a, b] = [{}, {}]
    const first = kept(a, 'x', () => make('a x'))
    expect(kept(a, 'x', () => make('again'))).toBe(first)
    const second = kept(a, 'y', () => make('a y'))
    const third = kept(a, 'z', () => make('a z'))
    expect([second.made, third.made]).toEqual(['a y', 'a z'])
    expect(kept(a, 'y', () => make('again'))).toBe(second)
    expect(kept(a, 'x', () => make('again'))).toBe(first)
    expect(kept(b, 'x', () => make('b x')).made).toBe('b x')
    expect(make.mock.calls.map(([made]) => made)).toEqual(['a x', 'a y', 'a z', 'b x'])
  })
})
