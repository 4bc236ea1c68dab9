import { createRequire } from 'node:module'
import { vitePlugin as remix } from '@remix-run/dev'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Rollup } from 'vite'
import remixConfig from './remix.config.js'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

/**
 * Every hydrated page loads the framework and what the root route imports, so the browser build puts all of that
 * in one chunk ('shell'): one file compresses better than a dozen small ones.
 */
function shellChunk(id: string, { getModuleInfo, getModuleIds }: Rollup.ManualChunkMeta) {
  if (!shellModules) {
    const ids = [...getModuleIds()]
    const starts = ids.filter((m) => m.endsWith('/app/root.tsx') || /\/entry\.client\.[jt]sx?$/.test(m))
    const reached = new Set<string>()
    const queue = starts.flatMap((m) => getModuleInfo(m)?.importedIds ?? [])
    while (queue.length > 0) {
      const next = queue.pop()!
      if (reached.has(next)) continue
      reached.add(next)
      queue.push(...(getModuleInfo(next)?.importedIds ?? []))
    }
    for (const start of starts) reached.delete(start)
    shellModules = reached
  }
  if (shellModules.has(id)) return 'shell'
  // The one form recipe's browser half: every form draws its fields with the hook's state, so one file serves both.
  if (/\/app\/components\/(checked-form|form-field)\.tsx$/.test(id)) return 'forms'
  return undefined
}
let shellModules: Set<string> | undefined

/** terser is a development dependency; a checkout whose packages predate it builds with the default minifier. */
function terserInstalled() {
  try {
    createRequire(import.meta.url).resolve('terser')
    return true
  } catch {
    return false
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild
    ? // The server bundle opens the database with a top-level await.
      { target: 'node20' }
    : {
        target: 'es2022',
        // A few KB smaller than the default minifier's output, on every hydrated page.
        minify: terserInstalled() ? 'terser' : 'esbuild',
        terserOptions: { compress: { passes: 2 }, module: true },
        rollupOptions: { output: { manualChunks: shellChunk } },
      },
  server: { port: 3000 },
  plugins: [tailwindcss(), remix(remixConfig)],
}))
