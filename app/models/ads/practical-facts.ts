/**
 * An ad's practical facts: tickets and price, where it takes place, accessibility and age. Zod-free, so the event
 * form checks the same rules in the browser; the server's schema (event-schema.ts) runs `practicalFactProblems` too
 * and stores `factsFromFields`.
 */

const isOneOf = <T extends string>(choices: readonly T[], value: string): value is T =>
  (choices as readonly string[]).includes(value)

export const ATTENDANCE_MODES = ['in_person', 'online', 'mixed'] as const
export type AttendanceMode = (typeof ATTENDANCE_MODES)[number]
export const ATTENDANCE_LABELS: Record<AttendanceMode, string> = {
  in_person: 'In person',
  online: 'Online',
  mixed: 'In person and online',
}

export const ACCESSIBILITY_FEATURES = [
  'step_free',
  'accessible_restroom',
  'seating',
  'sign_language',
  'captions',
  'quiet_space',
  'accessible_parking',
] as const
export type AccessibilityFeature = (typeof ACCESSIBILITY_FEATURES)[number]
export const ACCESSIBILITY_LABELS: Record<AccessibilityFeature, string> = {
  step_free: 'Step-free access',
  accessible_restroom: 'Accessible restroom',
  seating: 'Seating available',
  sign_language: 'Sign-language interpretation',
  captions: 'Captions',
  quiet_space: 'Quiet space',
  accessible_parking: 'Accessible parking',
}

export const AGE_RANGES = ['all_ages', '18+', '21+'] as const
export type AgeRange = (typeof AGE_RANGES)[number]
export const AGE_LABELS: Record<AgeRange, string> = { all_ages: 'All ages', '18+': '18+', '21+': '21+' }

export const PRICE_TYPES = ['free', 'from'] as const
export type PriceType = '' | (typeof PRICE_TYPES)[number]

/** The highest "from" price: $100,000, in cents. */
export const MAX_PRICE_CENTS = 10_000_000
export const FACT_TEXT_MAX = {
  ticketUrl: 500,
  onlineUrl: 500,
  venueAddress: 250,
  venueCity: 100,
  venueState: 50,
  venueZip: 10,
  accessibilityNote: 500,
  accessibilityContact: 250,
} as const

/** The facts as stored: the columns of an ad and of its revision. */
export interface PracticalFacts {
  ticketUrl: string
  /** null: not said; 0: free; otherwise the lowest price, in cents. */
  priceCents: number | null
  attendanceMode: AttendanceMode
  /** Another address for the event; all empty = the business's address. */
  venueAddress: string
  venueCity: string
  venueState: string
  venueZip: string
  onlineUrl: string
  accessibilityFeatures: AccessibilityFeature[]
  accessibilityNote: string
  accessibilityContact: string
  ageRange: '' | AgeRange
}

/** The facts' columns, one list: what an edit, a revision and a copy of an ad carry. */
export const practicalFactColumns = [
  'ticketUrl',
  'priceCents',
  'attendanceMode',
  'venueAddress',
  'venueCity',
  'venueState',
  'venueZip',
  'onlineUrl',
  'accessibilityFeatures',
  'accessibilityNote',
  'accessibilityContact',
  'ageRange',
] as const satisfies ReadonlyArray<keyof PracticalFacts>

export const EMPTY_PRACTICAL_FACTS: PracticalFacts = {
  ticketUrl: '',
  priceCents: null,
  attendanceMode: 'in_person',
  venueAddress: '',
  venueCity: '',
  venueState: '',
  venueZip: '',
  onlineUrl: '',
  accessibilityFeatures: [],
  accessibilityNote: '',
  accessibilityContact: '',
  ageRange: '',
}

/** The facts as a row holds them (the database's types are wider: plain strings). */
export type StoredFacts = {
  [K in keyof PracticalFacts]: PracticalFacts[K] extends string[]
    ? string[]
    : PracticalFacts[K] extends string
      ? string
      : PracticalFacts[K]
}

/**
 * Exactly the facts of a row that has them (an ad, a revision, a listing row), values outside the lists dropped. A
 * fact missing (a draft kept in a session from before the facts, a card's row that reads only some) reads as not said.
 */
export function practicalFactsOf(given: Partial<StoredFacts>): PracticalFacts {
  const text = (value: string | undefined) => value ?? ''
  const mode = text(given.attendanceMode)
  const age = text(given.ageRange)
  return {
    ticketUrl: text(given.ticketUrl),
    priceCents: given.priceCents ?? null,
    attendanceMode: isOneOf(ATTENDANCE_MODES, mode) ? mode : 'in_person',
    venueAddress: text(given.venueAddress),
    venueCity: text(given.venueCity),
    venueState: text(given.venueState),
    venueZip: text(given.venueZip),
    onlineUrl: text(given.onlineUrl),
    accessibilityFeatures: ACCESSIBILITY_FEATURES.filter((a) =>
      (given.accessibilityFeatures ?? []).includes(a),
    ),
    accessibilityNote: text(given.accessibilityNote),
    accessibilityContact: text(given.accessibilityContact),
    ageRange: isOneOf(AGE_RANGES, age) ? age : '',
  }
}

/** The facts as the form posts them: the price as a choice and an amount in dollars. */
export interface PracticalFactFields {
  ticketUrl: string
  priceType: string
  priceFrom: string
  attendanceMode: string
  venueAddress: string
  venueCity: string
  venueState: string
  venueZip: string
  onlineUrl: string
  accessibilityFeatures: string[]
  accessibilityNote: string
  accessibilityContact: string
  ageRange: string
}

export const FACT_FIELD_NAMES = [
  'ticketUrl',
  'priceType',
  'priceFrom',
  'attendanceMode',
  'venueAddress',
  'venueCity',
  'venueState',
  'venueZip',
  'onlineUrl',
  'accessibilityNote',
  'accessibilityContact',
  'ageRange',
] as const satisfies ReadonlyArray<Exclude<keyof PracticalFactFields, 'accessibilityFeatures'>>

/** The form's fields for stored facts. */
export function factFieldsOf(facts: PracticalFacts): PracticalFactFields {
  const { priceCents, ...rest } = facts
  return {
    ...rest,
    accessibilityFeatures: [...facts.accessibilityFeatures],
    priceType: priceCents === null ? '' : priceCents === 0 ? 'free' : 'from',
    priceFrom: priceCents ? (priceCents / 100).toFixed(priceCents % 100 === 0 ? 0 : 2) : '',
  }
}

export const TICKET_URL_MESSAGE = 'The ticket link must be a full https:// address'
export const ONLINE_URL_MESSAGE = 'The link to join must be a full https:// address'
export const ONLINE_URL_REQUIRED_MESSAGE = 'Give the https:// link to join the event online'
export const PRICE_MESSAGE = 'Enter the lowest price in dollars, e.g. 12 or 12.50'
export const NEGATIVE_PRICE_MESSAGE = 'The price cannot be negative'
export const PRICE_MAX_MESSAGE = 'The price can be at most $100,000'
export const PRICE_REQUIRED_MESSAGE = 'Enter the price tickets start from'
export const PRICE_TYPE_MESSAGE = 'Choose Free or From $'
export const ATTENDANCE_MESSAGE = 'Choose in person, online, or both'
export const ACCESSIBILITY_MESSAGE = 'Choose among the accessibility facts offered'
export const AGE_MESSAGE = 'Choose all ages, 18+ or 21+'
export const VENUE_ADDRESS_REQUIRED_MESSAGE = 'Enter the street address of the other place'
export const VENUE_ZIP_MESSAGE = 'Enter the ZIP code of the other place (5 digits)'

/** An https:// address a visitor may follow; `javascript:`, `http:` and bare words are not. */
export function isHttpsUrl(value: string) {
  // Most ads have no such link: an empty or bare value is answered without the thrown parse error, which costs a
  // rendered event page ~10 µs a link.
  if (!/^https:\/\//i.test(value) || /\s/.test(value)) return false
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password
  } catch {
    return false
  }
}

/** The price in cents for an amount in dollars ("12", "12.5", "12.50"), or its problem. */
export function priceCentsOf(value: string): number | string {
  const trimmed = value.trim()
  if (trimmed.startsWith('-')) return NEGATIVE_PRICE_MESSAGE
  const match = /^\$?(\d{1,9})(?:\.(\d{1,2}))?$/.exec(trimmed.replaceAll(',', ''))
  if (!match) return PRICE_MESSAGE
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
  return cents > MAX_PRICE_CENTS ? PRICE_MAX_MESSAGE : cents
}

function urlProblem(value: string, max: number, message: string) {
  const trimmed = value.trim()
  if (trimmed === '') return undefined
  return trimmed.length > max || !isHttpsUrl(trimmed) ? message : undefined
}

const hasOtherAddress = (f: PracticalFactFields) =>
  [f.venueAddress, f.venueCity, f.venueState, f.venueZip].some((v) => v.trim() !== '')

/** Every fact field's first problem (only the fields with one), as both the browser and the server name it. */
export function practicalFactProblems(f: PracticalFactFields): Record<string, string> {
  const problems: Record<string, string | undefined> = {}
  problems.ticketUrl = urlProblem(f.ticketUrl, FACT_TEXT_MAX.ticketUrl, TICKET_URL_MESSAGE)
  if (f.priceType !== '' && !isOneOf(PRICE_TYPES, f.priceType)) problems.priceType = PRICE_TYPE_MESSAGE
  if (f.priceType === 'from') {
    const price = f.priceFrom.trim() === '' ? PRICE_REQUIRED_MESSAGE : priceCentsOf(f.priceFrom)
    if (typeof price === 'string') problems.priceFrom = price
    else if (price === 0) problems.priceFrom = PRICE_REQUIRED_MESSAGE
  }
  const mode = f.attendanceMode || 'in_person'
  if (!isOneOf(ATTENDANCE_MODES, mode)) problems.attendanceMode = ATTENDANCE_MESSAGE
  if (mode !== 'in_person') {
    problems.onlineUrl =
      f.onlineUrl.trim() === ''
        ? ONLINE_URL_REQUIRED_MESSAGE
        : urlProblem(f.onlineUrl, FACT_TEXT_MAX.onlineUrl, ONLINE_URL_MESSAGE)
  }
  if (mode !== 'online' && hasOtherAddress(f)) {
    if (f.venueAddress.trim() === '') problems.venueAddress = VENUE_ADDRESS_REQUIRED_MESSAGE
    if (!/^\d{5}(?:[-\s]?\d{4})?$/.test(f.venueZip.trim())) problems.venueZip = VENUE_ZIP_MESSAGE
  }
  for (const name of [
    'venueAddress',
    'venueCity',
    'venueState',
    'accessibilityNote',
    'accessibilityContact',
  ] as const) {
    if (f[name].trim().length > FACT_TEXT_MAX[name])
      problems[name] ??= `At most ${FACT_TEXT_MAX[name]} characters`
  }
  if (f.accessibilityFeatures.some((feature) => !isOneOf(ACCESSIBILITY_FEATURES, feature)))
    problems.accessibilityFeatures = ACCESSIBILITY_MESSAGE
  if (f.ageRange !== '' && !isOneOf(AGE_RANGES, f.ageRange)) problems.ageRange = AGE_MESSAGE
  return Object.fromEntries(
    Object.entries(problems).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}

/**
 * The facts the fields say, once `practicalFactProblems` found none (a field it would refuse is left empty, so the
 * preview can show what is already right). An online-only event has no address; one in person has no link to join.
 */
export function factsFromFields(f: PracticalFactFields): PracticalFacts {
  const mode = isOneOf(ATTENDANCE_MODES, f.attendanceMode) ? f.attendanceMode : 'in_person'
  const price = f.priceType === 'from' ? priceCentsOf(f.priceFrom) : null
  const inPerson = mode !== 'online'
  const url = (value: string) => (isHttpsUrl(value.trim()) ? value.trim() : '')
  return {
    ticketUrl: url(f.ticketUrl),
    priceCents: f.priceType === 'free' ? 0 : typeof price === 'number' && price > 0 ? price : null,
    attendanceMode: mode,
    venueAddress: inPerson ? f.venueAddress.trim() : '',
    venueCity: inPerson ? f.venueCity.trim() : '',
    venueState: inPerson ? f.venueState.trim() : '',
    venueZip: inPerson ? f.venueZip.trim() : '',
    onlineUrl: mode === 'in_person' ? '' : url(f.onlineUrl),
    accessibilityFeatures: ACCESSIBILITY_FEATURES.filter((a) => f.accessibilityFeatures.includes(a)),
    accessibilityNote: f.accessibilityNote.trim(),
    accessibilityContact: f.accessibilityContact.trim(),
    ageRange: isOneOf(AGE_RANGES, f.ageRange) ? f.ageRange : '',
  }
}

/** "Free", "From $12.50", or '' when not said. */
export function priceLabel(priceCents: number | null) {
  if (priceCents === null) return ''
  if (priceCents === 0) return 'Free'
  const dollars = priceCents / 100
  return `From $${dollars.toLocaleString('en-US', { minimumFractionDigits: priceCents % 100 ? 2 : 0 })}`
}

/** The other address on one line, or '' for the business's address. */
export function venueLine(
  facts: Pick<PracticalFacts, 'venueAddress' | 'venueCity' | 'venueState' | 'venueZip'>,
) {
  const cityLine = [facts.venueCity, [facts.venueState, facts.venueZip].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ')
  return [facts.venueAddress, cityLine].filter(Boolean).join(', ')
}

/** The facts as lines of plain text (iCal and RSS descriptions): what the card shows, the link to join included. */
export function practicalFactLines(facts: PracticalFacts): string[] {
  const place = venueLine(facts)
  const access = facts.accessibilityFeatures.map((feature) => ACCESSIBILITY_LABELS[feature])
  return [
    [priceLabel(facts.priceCents), facts.ticketUrl ? `Tickets: ${facts.ticketUrl}` : '']
      .filter(Boolean)
      .join(' · '),
    facts.attendanceMode !== 'in_person' || place
      ? `Where: ${[ATTENDANCE_LABELS[facts.attendanceMode], place].filter(Boolean).join(' · ')}`
      : '',
    facts.onlineUrl ? `Join online: ${facts.onlineUrl}` : '',
    access.length > 0 || facts.accessibilityNote
      ? `Accessibility: ${[access.join(', '), facts.accessibilityNote].filter(Boolean).join(' · ')}`
      : '',
    facts.accessibilityContact ? `Access questions: ${facts.accessibilityContact}` : '',
    facts.ageRange ? `Age: ${AGE_LABELS[facts.ageRange]}` : '',
  ].filter(Boolean)
}

/** Each fact as a reviewer reads it, labelled (the other address as one line), for the diff of an edit. */
export function practicalFactTexts(facts: PracticalFacts) {
  return [
    ['ticketUrl', 'Ticket link', facts.ticketUrl],
    ['priceCents', 'Price', priceLabel(facts.priceCents)],
    ['attendanceMode', 'Where', ATTENDANCE_LABELS[facts.attendanceMode]],
    ['venueAddress', 'Other address', venueLine(facts)],
    ['onlineUrl', 'Link to join', facts.onlineUrl],
    [
      'accessibilityFeatures',
      'Accessibility',
      facts.accessibilityFeatures.map((feature) => ACCESSIBILITY_LABELS[feature]).join(', '),
    ],
    ['accessibilityNote', 'Accessibility note', facts.accessibilityNote],
    ['accessibilityContact', 'Contact for access questions', facts.accessibilityContact],
    ['ageRange', 'Age', facts.ageRange ? AGE_LABELS[facts.ageRange] : ''],
  ] as const satisfies ReadonlyArray<readonly [keyof PracticalFacts, string, string]>
}

export type PracticalFactField = ReturnType<typeof practicalFactTexts>[number][0]
