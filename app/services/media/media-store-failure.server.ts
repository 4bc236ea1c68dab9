/**
 * A write to media storage that failed because of the storage itself — the disk full, the folder read-only, the
 * bucket unreachable — is told apart from an upload that is at fault: the advertiser is answered that the server
 * could not store the file (insufficient_storage, or unavailable for a bucket that does not answer), the operator gets a log line and a count
 * by cause. Anything else (a missing staged file, a bug) is left as it was thrown.
 */
import { Counter } from 'prom-client'
import { AppError } from '#app/utils/app-error.ts'
import { MEDIA_STORE_FAILED_CODE, MEDIA_STORE_FAILED_MESSAGE } from '#app/utils/media-types.ts'
import { registers } from '../platform/metrics.server.ts'
import { awsSdk } from './media-storage-s3.server.ts'

export type StoreFailureCause = 'no_space' | 'read_only' | 'unavailable' | 'other'

const STORE_FAILURE_CAUSES: StoreFailureCause[] = ['no_space', 'read_only', 'unavailable', 'other']

const storeFailures = new Counter({
  name: 'eventshout_media_store_failures_total',
  help: 'Media files the server could not write to its storage, by cause: no_space (ENOSPC, EDQUOT, a full bucket), read_only (EROFS, EACCES, EPERM), unavailable (the bucket refused or did not answer), other (EIO, ENOTDIR, EFBIG).',
  labelNames: ['cause'] as const,
  registers,
})
for (const cause of STORE_FAILURE_CAUSES) storeFailures.inc({ cause }, 0)

/** What the file system's refusals of a write mean. */
const FILE_SYSTEM_CAUSES: Partial<Record<string, StoreFailureCause>> = {
  ENOSPC: 'no_space',
  EDQUOT: 'no_space',
  EROFS: 'read_only',
  EACCES: 'read_only',
  EPERM: 'read_only',
  EIO: 'other',
  ENOTDIR: 'other',
  EFBIG: 'other',
}

/** What S3-compatible stores answer when they are full or over a quota (MinIO, Ceph). */
const BUCKET_FULL_ERRORS = new Set(['XMinioStorageFull', 'XMinioAdminBucketQuotaExceeded', 'QuotaExceeded'])
/** A key that is not there is no failure of the store. */
const BUCKET_MISSING_ERRORS = new Set(['NoSuchKey', 'NotFound'])

/** An error of the AWS SDK: the bucket's own answer, or a request that never got one (which the SDK also marks). */
function isBucketError(error: Error) {
  return '$metadata' in error || error.name === 'CredentialsProviderError'
}

function isFileSystemError(error: Error): error is NodeJS.ErrnoException {
  return typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error
}

function causeOf(error: unknown): StoreFailureCause | null {
  if (!(error instanceof Error) || error instanceof AppError) return null
  if (isBucketError(error)) {
    // Only a bucket's error has these marks, so the SDK is loaded by now.
    const { S3ServiceException } = awsSdk()
    if (error instanceof S3ServiceException && BUCKET_MISSING_ERRORS.has(error.name)) return null
    return error instanceof S3ServiceException && BUCKET_FULL_ERRORS.has(error.name)
      ? 'no_space'
      : 'unavailable'
  }
  if (isFileSystemError(error)) return FILE_SYSTEM_CAUSES[error.code!] ?? null
  return null
}

/**
 * The answer to a failed write when the storage is what failed (counted here, once per call), or null when
 * `error` is something else.
 */
export function storeFailure(error: unknown): AppError | null {
  const cause = causeOf(error)
  if (!cause) return null
  storeFailures.inc({ cause })
  return new AppError(
    MEDIA_STORE_FAILED_MESSAGE,
    cause === 'unavailable' ? 'unavailable' : 'insufficient_storage',
    {
      code: MEDIA_STORE_FAILED_CODE,
      cause: error,
      serverFault: { msg: 'Media storage failed', fields: { storeFailure: cause } },
    },
  )
}
