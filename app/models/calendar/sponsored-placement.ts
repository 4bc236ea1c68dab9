/**
 * Sponsored placement's shared rules. A sponsored ad's place in a slot is labelled with SPONSORED_LABEL (text, not
 * colour alone), and a click from there carries `?from=sponsored` so it is counted apart.
 *
 * How the Sponsored slots take turns: time is cut into turns of SPONSORED_TURN_MS, and each turn shows the next
 * `slots` of the matching sponsored ads (in id order, wrapping round). Over a day every matching ad is shown in as
 * many turns as any other, give or take one; within a turn every visitor sees the same page, so the shared page
 * cache may keep it until the turn ends.
 */
export const SPONSORED_TURN_MS = 5 * 60 * 1000

/** The turn `now` is in (a whole number that grows by one every SPONSORED_TURN_MS). */
export function sponsoredTurn(now: number) {
  return Math.floor(now / SPONSORED_TURN_MS)
}

/** Where the slots start in the matching ads' order at this turn: each turn moves on by the number of slots. */
export function rotationOffset(turn: number, slots: number) {
  return turn * slots
}

/** Where the slots stand at a turn: how many (the host's setting), and where the turn starts (`rotationOffset`). */
export interface SlotsWindow {
  slots: number
  rotation: number
}

/**
 * The ads in the slots at a turn, in slot order: of the matching ads in id order, `slots` of them from position
 * `rotation` (modulo their number, wrapping round).
 */
export function slotIds(matching: readonly number[], { slots, rotation }: SlotsWindow): number[] {
  const count = matching.length
  return Array.from({ length: Math.min(slots, count) }, (_, turn) => matching[(rotation + turn) % count]!)
}

/** Whole seconds until the turn of `now` ends (at least 1): how long a page with slots may be shared. */
export function secondsLeftInTurn(now: number) {
  return Math.max(1, Math.floor((SPONSORED_TURN_MS - (now % SPONSORED_TURN_MS)) / 1000))
}

/** The label of an ad in a Sponsored slot, wherever the slot is shown. */
export const SPONSORED_LABEL = 'Sponsored'

/** The marker a click from a Sponsored slot carries: `?from=sponsored`. */
export const FROM_PARAM = 'from'
export const FROM_SPONSORED_SLOT = 'sponsored'

/** Whether a click's query string says it came from a Sponsored slot. */
export function isFromSponsoredSlot(searchParams: URLSearchParams) {
  return searchParams.get(FROM_PARAM) === FROM_SPONSORED_SLOT
}
