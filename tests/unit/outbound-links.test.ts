import { describe, expect, test } from 'vitest'
import {
  adCampaign,
  adOutboundLinks,
  businessCampaign,
  creditedHref,
  isPaidPlacement,
  outboundRel,
} from '#app/models/ads/outbound-links.ts'

const credit = { source: 'events.example.org', campaign: '12-jazz-night' }
const UTM = 'utm_source=events.example.org&utm_medium=event_listing&utm_campaign=12-jazz-night'

describe('creditedHref', () => {
  test("adds the site's utm_source, utm_medium and utm_campaign", () => {
    expect(creditedHref('https://bluedoor.example/menu', credit)).toBe(`https://bluedoor.example/menu?${UTM}`)
    expect(creditedHref('https://bluedoor.example', credit)).toBe(`https://bluedoor.example/?${UTM}`)
    expect(creditedHref('https://bluedoor.example/?', credit)).toBe(`https://bluedoor.example/?${UTM}`)
    expect(creditedHref('http://bluedoor.example/a?b=1', credit)).toBe(`http://bluedoor.example/a?b=1&${UTM}`)
  })

  test('the fragment stays last', () => {
    expect(creditedHref('https://tickets.example/e/1?seat=a#buy', credit)).toBe(
      `https://tickets.example/e/1?seat=a&${UTM}#buy`,
    )
  })

  test("the advertiser's own utm_ parameters are kept, whatever their letter case; only the missing ones are added", () => {
    expect(creditedHref('https://x.example/?utm_source=flyer&utm_campaign=spring', credit)).toBe(
      'https://x.example/?utm_source=flyer&utm_campaign=spring&utm_medium=event_listing',
    )
    const all = 'https://x.example/?UTM_Source=a&utm_medium=b&utm_campaign=c'
    expect(creditedHref(all, credit)).toBe(all)
  })

  test('the rest of the link is left as written: no re-encoding of its own parameters', () => {
    const encoded = 'https://x.example/p%20q/?q=a%20b&r=%2F%26&s=a+b'
    expect(creditedHref(encoded, credit)).toBe(`${encoded}&${UTM}`)
    const parsed = new URL(creditedHref(encoded, credit))
    expect(parsed.searchParams.get('q')).toBe('a b')
    expect(parsed.searchParams.get('r')).toBe('/&')
    expect(parsed.pathname).toBe('/p%20q/')
  })

  test('the values are encoded', () => {
    const url = new URL(creditedHref('https://x.example/', { source: 'a&b', campaign: '1-x y' }))
    expect(url.searchParams.get('utm_source')).toBe('a&b')
    expect(url.searchParams.get('utm_campaign')).toBe('1-x y')
  })

  test('no credit (the setting off), or a link that is not http(s), is given back unchanged', () => {
    expect(creditedHref('https://x.example/a?b=1', null)).toBe('https://x.example/a?b=1')
    for (const hostile of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'mailto:a@b.example',
      'not a url',
    ])
      expect(creditedHref(hostile, credit)).toBe(hostile)
  })
})

describe('rel and campaign', () => {
  test('a paid ad is sponsored; a $0 ad or one without a payment is not', () => {
    expect(isPaidPlacement({ paymentStatus: 'paid', totalCost: 29 })).toBe(true)
    expect(isPaidPlacement({ paymentStatus: 'paid', totalCost: 0 })).toBe(false)
    expect(isPaidPlacement({ paymentStatus: 'paid', totalCost: 0, sponsoredCents: 500 })).toBe(true)
    expect(isPaidPlacement({ paymentStatus: 'pending', totalCost: 29 })).toBe(false)
    expect(outboundRel(true)).toBe('sponsored noopener')
    expect(outboundRel(false)).toBe('noopener')
  })

  test("the campaign is the ad's address segment; a business page's names the business", () => {
    expect(adCampaign({ eventID: 12, eventTitle: 'Jazz Night!' })).toBe('12-jazz-night')
    expect(businessCampaign({ businessID: 3, businessName: 'Blue Door Café' })).toBe(
      'business-3-blue-door-cafe',
    )
    const ad = { eventID: 12, eventTitle: 'Jazz Night', paymentStatus: 'paid', totalCost: 29 }
    expect(adOutboundLinks(ad, 'events.example.org')).toEqual({
      credit: { source: 'events.example.org', campaign: '12-jazz-night' },
      rel: 'sponsored noopener',
    })
    expect(adOutboundLinks(ad, null).credit).toBeNull()
  })
})
