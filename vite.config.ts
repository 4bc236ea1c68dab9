import { vitePlugin as remix } from '@remix-run/dev'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import remixConfig from './remix.config.js'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  // The server bundle opens the database with a top-level await.
  build: { target: isSsrBuild ? 'node20' : 'es2022' },
  server: { port: 3000 },
  plugins: [tailwindcss(), remix(remixConfig)],
}))
