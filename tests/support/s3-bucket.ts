import crypto from 'node:crypto'
import { beforeAll, inject } from 'vitest'
import { resetEnvCache } from '#app/services/platform/env.server.ts'
import { s3Environment } from './s3-server.ts'

/** In the `s3` test project: this file's media go to a bucket of its own on the run's S3-compatible server. */
beforeAll(async () => {
  const bucket = `media-${crypto.randomBytes(6).toString('hex')}`
  Object.assign(process.env, await s3Environment(inject('s3Endpoint'), bucket))
  resetEnvCache()
})
