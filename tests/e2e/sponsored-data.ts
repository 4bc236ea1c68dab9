/** The sponsored ad the e2e database holds (tests/e2e/seed-sponsored.ts): live, advertised today and tomorrow. */
export const SPONSORED_AD_TITLE = 'Sponsored Lantern Fair'
export const SPONSORED_OWNER = { businessName: 'Lantern Fair Society', businessEmail: 'lanterns@example.com' }
