/**
 * The end-to-end database: the demo data, then each journey's own rows. One process runs every script in turn (each
 * opens the database, writes and closes it at the top level, so an import finishes its work).
 */
await import('../../scripts/seed.ts')
await import('./seed-ad-analytics.ts')
await import('./seed-run-again.ts')
await import('./seed-schedule.ts')
await import('./seed-sponsored.ts')
await import('./seed-category-prices.ts')

export {}
