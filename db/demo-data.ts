/** The demo world the seed builds: two local businesses, staff, and a few weeks of events. */
import type { PracticalFacts } from '#app/models/ads/practical-facts.ts'
import type { ScheduleStatus } from '#app/models/ads/schedule-status.ts'

export const DEMO_BUSINESSES = [
  {
    businessName: 'Blue Door Cafe',
    businessEmail: 'demo@bluedoorcafe.example',
    password: 'bluedoor123',
    businessAddress: '214 Maple Avenue',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62704',
    businessPhone: '2175550148',
    businessContact: 'Maria Alvarez',
    businessWebsite: 'https://bluedoorcafe.example',
    facebookURL: 'https://facebook.com/bluedoorcafe',
    instagramURL: 'https://instagram.com/bluedoorcafe',
  },
  {
    businessName: 'Riverside Community Center',
    businessEmail: 'demo@riversidecc.example',
    password: 'riverside123',
    businessAddress: '90 River Road',
    businessCity: 'Springfield',
    businessState: 'IL',
    businessZip: '62701',
    businessPhone: '217-555-0199',
    businessContact: 'Dan Okafor',
    businessWebsite: 'https://riversidecc.example',
    youtubeURL: 'https://youtube.com/@riversidecc',
    xURL: 'https://x.com/riversidecc',
  },
] as const

/** The organisation whose events the host lists free (a community listing, no card): the library. */
export const DEMO_FREE_ORGANISATION = {
  businessName: 'Springfield Public Library',
  businessEmail: 'demo@springfieldlibrary.example',
  password: 'library123',
  businessAddress: '326 South 7th Street',
  businessCity: 'Springfield',
  businessState: 'IL',
  businessZip: '62701',
  businessPhone: '2175550120',
  businessContact: 'Priya Natarajan',
  businessWebsite: 'https://springfieldlibrary.example',
} as const

/** The category the demo host lists free, and the library's free listings in it. */
export const DEMO_FREE_CATEGORY = 'Family'
export const DEMO_FREE_LISTINGS = [
  {
    title: 'Saturday Story Time',
    description:
      'Picture books, songs and a craft for children aged 3 to 7 and their grown-ups. No sign-up needed.',
    startTime: '10:30',
    endTime: '11:15',
  },
  {
    title: 'Family Board Game Afternoon',
    description:
      'Our shelf of two hundred board games comes out for the afternoon. Librarians teach the rules.',
    startTime: '14:00',
    endTime: '17:00',
  },
  {
    title: 'Teen Robotics Club',
    description: 'Build and program a small robot over four weeks. Kits provided; ages 12 to 17.',
    startTime: '16:00',
    endTime: '17:30',
  },
] as const

export const DEMO_STAFF = [
  { email: 'admin@eventshout.example', fullName: 'Avery Admin', roles: ['admin'] as const },
  { email: 'clinician@eventshout.example', fullName: 'Dr. Casey Lin', roles: ['clinician'] as const },
]

export const DEMO_EVENT_IDEAS: ReadonlyArray<{
  title: string
  description: string
  categories: string[]
  /** Some ads say their practical facts (the first copy of the idea only). */
  facts?: Partial<PracticalFacts>
  /** Its times of day (hh:mm, every copy of the idea); none = all day. An end before the start is after midnight. */
  startTime?: string
  endTime?: string
  /** The first copy is off as advertised: cancelled, postponed or sold out, with its note to visitors. */
  schedule?: { status: ScheduleStatus; note: string }
  /** The first copy was made sponsored at checkout: it takes its turn in the calendar's Sponsored slots. */
  sponsored?: boolean
}> = [
  {
    title: 'Friday Night Jazz Trio',
    description:
      'Live jazz standards from the Maple Street Trio. Free entry, half-price house wine until 8 pm.',
    categories: ['Concert', 'Nightlife'],
    facts: { priceCents: 0, accessibilityFeatures: ['step_free', 'seating'], ageRange: 'all_ages' },
    startTime: '19:30',
    endTime: '22:30',
    sponsored: true,
  },
  {
    title: 'Pancake Breakfast Fundraiser',
    description:
      'All-you-can-eat pancakes to raise money for the youth soccer league. Kids under 6 eat free.',
    categories: ['Fundraiser', 'Family', 'Food & Drink'],
    startTime: '07:30',
    endTime: '11:00',
  },
  {
    title: 'Grand Opening: Patio Season',
    description: 'Our new riverside patio opens with a ribbon cutting, free lemonade and a local DJ.',
    categories: ['Grand Opening', 'Food & Drink'],
    startTime: '17:00',
    endTime: '20:00',
    schedule: { status: 'postponed', note: 'The patio needs another week of work. New date to follow.' },
  },
  {
    title: 'Taco Tuesday Special',
    description: 'Three street tacos and a drink for $9 all day. Vegetarian options available.',
    categories: ['Special', 'Food & Drink'],
  },
  {
    title: 'Community Garden Workday',
    description: 'Bring gloves and help us plant the spring beds. Tools, coffee and donuts provided.',
    categories: ['Community'],
    startTime: '09:00',
    endTime: '12:00',
    schedule: { status: 'cancelled', note: 'The beds are flooded after the storm. See you next season.' },
  },
  {
    title: 'Open Mic Poetry Night',
    description: 'Sign up at the door for a five-minute slot. All ages welcome, supportive crowd guaranteed.',
    categories: ['Arts', 'Nightlife'],
    startTime: '21:00',
    endTime: '00:30',
  },
  {
    title: 'Youth Basketball Clinic',
    description: 'Coaches from the high school team teach fundamentals to players aged 8 to 14.',
    categories: ['Sports', 'Family'],
    startTime: '10:00',
  },
  {
    title: 'Watercolor for Beginners',
    description: 'A two-hour class with all materials included. Leave with a framed landscape of your own.',
    categories: ['Arts'],
    facts: { priceCents: 4500, ticketUrl: 'https://tickets.example.com/watercolor' },
    startTime: '18:30',
    endTime: '20:30',
    schedule: { status: 'sold_out', note: 'Every easel is taken. Ask at the counter about the next class.' },
  },
  {
    title: 'Family Movie on the Lawn',
    description: 'Bring a blanket for a family classic under the stars. Popcorn sold by the scouts.',
    categories: ['Family', 'Community'],
    startTime: '20:15',
  },
  {
    title: 'Craft Beer Tasting',
    description: 'Sample six seasonal brews from local breweries with cheese pairings. Must be 21 or older.',
    categories: ['Food & Drink', 'Nightlife'],
    facts: { priceCents: 2500, ageRange: '21+' },
    startTime: '18:00',
    endTime: '21:00',
  },
  {
    title: 'Charity 5K Fun Run',
    description: 'Walk or run along the river trail to support the food pantry. Medals for every finisher.',
    categories: ['Sports', 'Fundraiser'],
    startTime: '08:00',
  },
  {
    title: 'Bluegrass Brunch',
    description: 'Banjos, biscuits and gravy every Sunday morning. Reservations recommended.',
    categories: ['Concert', 'Food & Drink'],
    startTime: '10:00',
    endTime: '13:00',
  },
  {
    title: 'Senior Tech Help Desk',
    description: 'Volunteers help with phones, tablets and email. Free, no appointment needed.',
    categories: ['Community'],
    facts: {
      priceCents: 0,
      attendanceMode: 'mixed',
      onlineUrl: 'https://meet.example.com/tech-help',
      accessibilityFeatures: ['step_free', 'accessible_restroom', 'quiet_space'],
    },
  },
  {
    title: 'Trivia Night Championship',
    description: 'Teams of up to six compete for the season trophy and a $100 gift card.',
    categories: ['Nightlife', 'Special'],
    startTime: '19:00',
    endTime: '21:30',
  },
  {
    title: 'Holiday Craft Fair',
    description: 'Forty local makers selling candles, pottery, knitwear and gifts. Free admission.',
    categories: ['Arts', 'Community', 'Family'],
  },
]

export const DEMO_ZIPS = ['62701', '62702', '62703', '62704', '62707']
