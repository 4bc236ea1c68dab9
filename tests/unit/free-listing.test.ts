import { describe, expect, test } from 'vitest'
import { MAX_DISPLAY_DATES } from '#app/constants.ts'
import {
  assertFreeListingFits,
  DEFAULT_FREE_ALLOWANCE,
  FREE_DATES_MESSAGE,
  FREE_NO_PHOTO_MESSAGE,
  FREE_NO_VIDEO_MESSAGE,
  FREE_TICK_MESSAGE,
  freeAllowanceOf,
  freeListingChanges,
  freeListingProblems,
  freeListingsFormValues,
  readFreeListingsForm,
  tooManyFreeDatesMessage,
} from '#app/models/payments/free-listing.ts'
import { DEFAULT_PRICE_LIST, readPriceListForm } from '#app/models/payments/price-list.ts'
import { AppError } from '#app/utils/app-error.ts'

const FREE = {
  Community: { maxDates: 7, photo: true, video: false },
  Library: { maxDates: 3, photo: false, video: true },
}

describe('freeAllowanceOf: an ad is free when every category it has is free', () => {
  test('one free category: its own allowance', () => {
    expect(freeAllowanceOf(['Community'], FREE)).toEqual({ maxDates: 7, photo: true, video: false })
  })

  test('several free categories: the fewest dates, and a photo or video only when all include it', () => {
    expect(freeAllowanceOf(['Community', 'Library'], FREE)).toEqual({
      maxDates: 3,
      photo: false,
      video: false,
    })
  })

  test('one category that is not free makes the ad paid', () => {
    expect(freeAllowanceOf(['Community', 'Music'], FREE)).toBeNull()
    expect(freeAllowanceOf(['Music'], FREE)).toBeNull()
  })

  test('an ad without categories is not free, nor is a name that only looks like a key', () => {
    expect(freeAllowanceOf([], FREE)).toBeNull()
    expect(freeAllowanceOf(['constructor'], FREE)).toBeNull()
    expect(freeAllowanceOf(['__proto__'], FREE)).toBeNull()
  })
})

describe('the free listing limits', () => {
  test('within the limits: no problems', () => {
    expect(freeListingProblems({ dates: 7, photo: true, video: false }, FREE.Community)).toEqual({})
  })

  test('too many dates, a photo, a video: each at its field', () => {
    expect(
      freeListingProblems(
        { dates: 4, photo: true, video: true },
        { maxDates: 3, photo: false, video: false },
      ),
    ).toEqual({
      showAdDates: [tooManyFreeDatesMessage(3)],
      image: [FREE_NO_PHOTO_MESSAGE],
      video: [FREE_NO_VIDEO_MESSAGE],
    })
    expect(tooManyFreeDatesMessage(1)).toContain('at most 1 display date.')
  })

  test('assertFreeListingFits throws an invalid AppError with the field errors', () => {
    let thrown: unknown
    try {
      assertFreeListingFits({ dates: 8, photo: false, video: false }, DEFAULT_FREE_ALLOWANCE)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(AppError)
    expect((thrown as AppError).kind).toBe('invalid')
    expect((thrown as AppError).fieldErrors).toEqual({ showAdDates: [tooManyFreeDatesMessage(7)] })
  })
})

describe('the administrators form', () => {
  test('a ticked category with its dates, photo and video; an unticked one is not free', () => {
    const read = readFreeListingsForm({
      free3: 'on',
      freeDates3: '5',
      freePhoto3: 'on',
      freeDates4: '7',
      freePhoto4: 'on',
    })
    expect(read).toEqual({
      freeListings: [{ categoryID: 3, maxDates: 5, photo: true, video: false }],
      problems: {},
    })
  })

  test.each([
    ['none', ''],
    ['zero', '0'],
    ['negative', '-1'],
    ['too many', String(MAX_DISPLAY_DATES + 1)],
    ['huge', '99999999999'],
    ['a fraction', '2.5'],
  ])('a date count that is %s is refused at its field', (_, value) => {
    expect(readFreeListingsForm({ free3: 'on', freeDates3: value }).problems).toEqual({
      freeDates3: FREE_DATES_MESSAGE,
    })
  })

  test('a tampered box value is refused', () => {
    expect(readFreeListingsForm({ free3: 'yes', freeDates3: '7' }).problems).toEqual({
      free3: FREE_TICK_MESSAGE,
    })
  })

  test('the price list form reads the free rows with the prices; the defaults start with nothing free', () => {
    expect(DEFAULT_PRICE_LIST.freeListings).toEqual([])
    const read = readPriceListForm({
      upToDays1: '21',
      price1: '29',
      sponsoredPerDay: '5',
      sponsoredSlots: '2',
      free2: 'on',
      freeDates2: '7',
      freeVideo2: 'on',
    })
    expect(read.list?.freeListings).toEqual([{ categoryID: 2, maxDates: 7, photo: false, video: true }])
  })

  test('the form values: a free category as saved, the others with the defaults (7 dates, photo, no video)', () => {
    expect(
      freeListingsFormValues([{ categoryID: 1, maxDates: 2, photo: false, video: true }], [1, 2]),
    ).toEqual({
      free1: 'on',
      freeDates1: '2',
      freeVideo1: 'on',
      freeDates2: '7',
      freePhoto2: 'on',
    })
  })

  test('the history says what changed in words', () => {
    const name = (id: number) => (id === 1 ? 'Community' : 'Library')
    expect(
      freeListingChanges(
        [{ categoryID: 1, maxDates: 7, photo: true, video: false }],
        [
          { categoryID: 1, maxDates: 5, photo: true, video: false },
          { categoryID: 2, maxDates: 3, photo: false, video: false },
        ],
        name,
      ),
    ).toEqual([
      'Free listing in Community: up to 7 dates, photo, no video → up to 5 dates, photo, no video',
      'Free listing in Library: up to 3 dates, no photo, no video',
    ])
    expect(
      freeListingChanges([{ categoryID: 2, maxDates: 3, photo: false, video: false }], [], name),
    ).toEqual(['Free listing in Library: no longer free'])
  })
})
