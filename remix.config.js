/** Remix options, read by vite.config.ts (the one place they live). */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
}
