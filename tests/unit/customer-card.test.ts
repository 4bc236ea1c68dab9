import { describe, expect, test } from 'vitest'
import { customerCardData, type CardBusiness } from '#app/models/ads/customer-card.ts'

const business: CardBusiness = {
  businessName: 'Blue Door Cafe',
  businessAddress: '1 Main St',
  businessCity: 'Springfield',
  businessState: 'IL',
  businessZip: '62701',
  businessPhone: '2175550148',
  businessEmail: 'hello@bluedoor.example',
  businessContact: 'Ana',
  businessWebsite: 'https://bluedoor.example',
  facebookURL: 'https://facebook.com/bluedoor',
  instagramURL: '',
  linkedin: '',
  youtubeURL: '',
  xURL: 'https://x.com/bluedoor',
  tiktokURL: '',
}

describe('customerCardData', () => {
  test('keeps the business links and nothing but the card fields', () => {
    const saved = {
      ...business,
      eventID: 7,
      payment_intent_id: 'pi_secret',
      eventTitle: 'Jazz',
      eventDescription: 'Live.',
    }
    const card = customerCardData(saved, saved)
    expect(card).toMatchObject({
      businessWebsite: 'https://bluedoor.example',
      xURL: 'https://x.com/bluedoor',
    })
    expect(card).not.toHaveProperty('eventID')
    expect(card).not.toHaveProperty('payment_intent_id')
  })

  test("an ad without its own contact shows the business's, as it is saved", () => {
    const card = customerCardData(business, {
      eventTitle: 'Jazz',
      eventDescription: 'Live.',
      contactPerson: '',
    })
    expect(card).toMatchObject({
      contactPerson: 'Ana',
      contactPhone: '2175550148',
      contactEmail: 'hello@bluedoor.example',
      stillPhotoPath: '',
      videoPath: '',
    })
    expect(
      customerCardData(business, { eventTitle: 'J', eventDescription: 'L', contactPerson: 'Bo' })
        .contactPerson,
    ).toBe('Bo')
  })
})
