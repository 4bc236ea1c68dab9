import { expect, test } from 'vitest'
import { rotationOffset, slotIds } from '#app/models/calendar/sponsored-placement.ts'

test('each turn shows the next ads in id order, wrapping round; never more than the slots or the matches', () => {
  const matching = [3, 8, 11, 20, 31]
  const turns = [0, 1, 2, 3].map((turn) => slotIds(matching, { slots: 2, rotation: rotationOffset(turn, 2) }))
  expect(turns).toEqual([
    [3, 8],
    [11, 20],
    [31, 3],
    [8, 11],
  ])
  expect(slotIds([7], { slots: 2, rotation: 9 })).toEqual([7])
  expect(slotIds([], { slots: 2, rotation: 4 })).toEqual([])
  expect(slotIds(matching, { slots: 0, rotation: 4 })).toEqual([])
})

test('over a day of turns every matching ad is shown as often as any other, give or take one', () => {
  const matching = [1, 2, 3, 4, 5, 6, 7]
  const shown = new Map<number, number>()
  for (let turn = 0; turn < 288; turn++)
    for (const id of slotIds(matching, { slots: 2, rotation: rotationOffset(turn, 2) }))
      shown.set(id, (shown.get(id) ?? 0) + 1)
  const counts = [...shown.values()]
  expect(shown.size).toBe(matching.length)
  expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
})
