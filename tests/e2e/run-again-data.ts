/** The advertisers the end-to-end server starts with for "Run again", each with an ad that has ended (seeded). */
export const runAgainOwners = {
  withJs: {
    businessName: 'Encore Hall',
    businessEmail: 'encore-hall@example.com',
    password: 'encore-secret-1',
    adTitle: 'Encore Hall Friday Jazz',
  },
  withoutJs: {
    businessName: 'Reprise Tavern',
    businessEmail: 'reprise-tavern@example.com',
    password: 'reprise-secret-1',
    adTitle: 'Reprise Tavern Quiz Night',
  },
} as const
