import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { startS3Server } from './s3-server.ts'
import { TMP_DIR } from './test-database.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    s3Endpoint: string
  }
}

/** One S3-compatible server for the run; each test file makes its own bucket on it (tests/support/s3-bucket.ts). */
export default async function setup(project: TestProject) {
  const server = await startS3Server(path.join(TMP_DIR, `s3rver-${process.pid}`))
  project.provide('s3Endpoint', server.endpoint)
  return () => server.close()
}
