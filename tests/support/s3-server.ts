/** A real S3-compatible server (s3rver) on loopback, for the media tests and the upload benchmark. */
import fs from 'node:fs'
import S3rver from 's3rver'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'

/** s3rver's own credentials: the SDK reads them from the environment like any others. */
export const S3_TEST_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' }

export async function startS3Server(directory: string) {
  fs.mkdirSync(directory, { recursive: true })
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true })
  const { port } = await server.run()
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => server.close(),
  }
}

/** The environment that points the app at `bucket` on that server (created here). */
export async function s3Environment(endpoint: string, bucket: string) {
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  })
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  client.destroy()
  return {
    ...S3_TEST_CREDENTIALS,
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
  }
}
