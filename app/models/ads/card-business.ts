/**
 * A business as the customer card shows it: its public details and which of them are web addresses. Apart from the
 * card's ad part (customer-card.ts), so the registration page's rules load without the practical facts.
 */

/** A business's public details as the card shows them; `businessPublicColumns` of the events model select these. */
export interface CardBusiness {
  businessName: string
  businessAddress: string
  businessCity: string
  businessState: string
  businessZip: string
  businessPhone: string
  businessEmail: string
  businessContact: string
  businessWebsite: string
  facebookURL: string
  instagramURL: string
  linkedin: string
  youtubeURL: string
  xURL: string
  tiktokURL: string
}

/** Fields that hold a web address; each gets `https://` when typed without a scheme. */
export const URL_FIELDS = [
  'businessWebsite',
  'facebookURL',
  'instagramURL',
  'linkedin',
  'youtubeURL',
  'xURL',
  'tiktokURL',
] as const satisfies ReadonlyArray<keyof CardBusiness>

export const CARD_BUSINESS_FIELDS = [
  'businessName',
  'businessAddress',
  'businessCity',
  'businessState',
  'businessZip',
  'businessPhone',
  'businessEmail',
  'businessContact',
  ...URL_FIELDS,
] as const satisfies ReadonlyArray<keyof CardBusiness>
