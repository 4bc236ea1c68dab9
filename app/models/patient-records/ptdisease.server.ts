/**
 * Patient disease records. Clinicians share the records (no owner column); every read served and every change
 * is written to the append-only `ptdisease_audit` table in the same transaction as the read or change, so a
 * record is never served or changed without its trail.
 */
import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import { db, type Transaction } from '#db/client.server.ts'
import { parseId } from '#app/models/platform/input-rules.ts'
import { ptdisease, ptdiseaseAudit, type PtDisease, type PtDiseaseAudit } from '#db/schema.ts'
import {
  buildPtdiseaseSchema,
  deriveComputedFields,
  INT4_MAX,
  PTDISEASE_PAGE_SIZE,
  PTDISEASE_SEARCH_MAX,
  recordToInput,
  type PtdiseaseInput,
} from '#app/models/patient-records/ptdisease-schema.ts'

export type { PtDisease, PtDiseaseAudit }

/** Who is reading or changing records, as the audit trail keeps it. */
export interface AuditActor {
  id: string
  email: string
}

export const PTDISEASE_AUDIT_ACTIONS = ['list', 'view', 'create', 'update', 'delete', 'history'] as const
export type PtdiseaseAuditAction = (typeof PTDISEASE_AUDIT_ACTIONS)[number]

/** Before and after of each field a change touched. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>

/**
 * A failed query, without the query's text and parameters: drivers put both in their messages, and those
 * would carry patient data into the server log.
 */
export class PtdiseaseStoreError extends Error {
  readonly code: string | undefined
  constructor(error: unknown) {
    const code = sqlState(error)
    super(`A patient record query failed${code ? ` (SQLSTATE ${code})` : ''}`)
    this.name = 'PtdiseaseStoreError'
    this.code = code
  }
}

function sqlState(error: unknown): string | undefined {
  let current = error
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

async function scrubbed<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof PtdiseaseStoreError) throw error
    throw new PtdiseaseStoreError(error)
  }
}

async function audit(
  tx: Transaction,
  actor: AuditActor,
  action: PtdiseaseAuditAction,
  ptdiseaseID: number | null,
  changes: unknown = null,
) {
  await tx.insert(ptdiseaseAudit).values({
    userId: actor.id,
    userEmail: actor.email,
    action,
    ptdiseaseID,
    changes: changes as never,
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Search and list

/** Trimmed, bounded search text; empty means "no search". */
export function normaliseSearch(raw: string | null | undefined): string {
  return (raw ?? '').trim().slice(0, PTDISEASE_SEARCH_MAX)
}

function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** ILIKE on the trigram-indexed text columns; the patient number by exact match when the search is a number. */
function searchCondition(search: string): SQL | undefined {
  if (!search) return undefined
  const pattern = `%${escapeLike(search)}%`
  const conditions: SQL[] = [
    ilike(ptdisease.mrn, pattern),
    ilike(ptdisease.disease, pattern),
    ilike(ptdisease.diseasecode, pattern),
    ilike(ptdisease.organsystem, pattern),
  ]
  if (/^\d{1,10}$/.test(search) && Number(search) <= INT4_MAX) {
    conditions.push(eq(ptdisease.patientnumber, Number(search)))
  }
  return or(...conditions)
}

export interface PtdiseasePage {
  records: PtDisease[]
  total: number
  page: number
  pageCount: number
  pageSize: number
}

/** One page of records, newest first; a page past the end shows the last page. Audited as a `list`. */
export function listPtdiseases(
  {
    search = '',
    page = 1,
    pageSize = PTDISEASE_PAGE_SIZE,
  }: { search?: string; page?: number; pageSize?: number },
  actor: AuditActor,
): Promise<PtdiseasePage> {
  const term = normaliseSearch(search)
  return scrubbed(() =>
    db.transaction(async (tx) => {
      const where = searchCondition(term)
      const [{ total } = { total: 0 }] = await tx.select({ total: count() }).from(ptdisease).where(where)
      const pageCount = Math.max(1, Math.ceil(total / pageSize))
      const current = Math.min(Math.max(1, Math.trunc(page) || 1), pageCount)
      const records = await tx
        .select()
        .from(ptdisease)
        .where(where)
        .orderBy(desc(ptdisease.ptdiseaseID))
        .limit(pageSize)
        .offset((current - 1) * pageSize)
      await audit(tx, actor, 'list', null, {
        search: term || null,
        page: current,
        ids: records.map((r) => r.ptdiseaseID),
      })
      return { records, total, page: current, pageCount, pageSize }
    }),
  )
}

/** One record (audited as a `view`), or null. */
export function getPtdisease(id: number, actor: AuditActor): Promise<PtDisease | null> {
  return scrubbed(() =>
    db.transaction(async (tx) => {
      const [record] = await tx.select().from(ptdisease).where(eq(ptdisease.ptdiseaseID, id))
      if (!record) return null
      await audit(tx, actor, 'view', id)
      return record
    }),
  )
}

// ---------------------------------------------------------------------------------------------------------------
// Changes

type Row = Omit<PtDisease, 'ptdiseaseID' | 'created_at'>

function toRow(input: PtdiseaseInput): Row {
  return { ...input, ...deriveComputedFields(input) }
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || value === false

/** The fields that differ between two versions; a missing side counts as empty. */
function diff(before: Partial<Row> | null, after: Partial<Row> | null): FieldChanges {
  const changes: FieldChanges = {}
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]) as Set<keyof Row>
  for (const key of keys) {
    const from = before ? (before[key] ?? null) : null
    const to = after ? (after[key] ?? null) : null
    if (from === to) continue
    if (!before && isEmpty(to)) continue
    if (!after && isEmpty(from)) continue
    changes[key] = { from, to }
  }
  return changes
}

function editable(record: PtDisease): Row {
  const { ptdiseaseID: _id, created_at: _created, ...row } = record
  return row
}

export function createPtdisease(input: PtdiseaseInput, actor: AuditActor): Promise<PtDisease> {
  return scrubbed(() =>
    db.transaction(async (tx) => {
      const row = toRow(input)
      const [record] = await tx.insert(ptdisease).values(row).returning()
      await audit(tx, actor, 'create', record!.ptdiseaseID, diff(null, editable(record!)))
      return record!
    }),
  )
}

async function applyUpdate(tx: Transaction, before: PtDisease, input: PtdiseaseInput, actor: AuditActor) {
  const changes = diff(editable(before), toRow(input))
  let record = before
  if (Object.keys(changes).length > 0) {
    const values = Object.fromEntries(Object.entries(changes).map(([key, change]) => [key, change.to]))
    ;[record] = (await tx
      .update(ptdisease)
      .set(values as Partial<Row>)
      .where(eq(ptdisease.ptdiseaseID, before.ptdiseaseID))
      .returning()) as [PtDisease]
  }
  await audit(tx, actor, 'update', before.ptdiseaseID, changes)
  return record
}

function lockRecord(tx: Transaction, id: number) {
  return tx.select().from(ptdisease).where(eq(ptdisease.ptdiseaseID, id)).for('update')
}

/** Replaces the editable fields and re-derives the computed ones; null when there is no such record. */
export function updatePtdisease(
  id: number,
  input: PtdiseaseInput,
  actor: AuditActor,
): Promise<PtDisease | null> {
  return scrubbed(() =>
    db.transaction(async (tx) => {
      const [before] = await lockRecord(tx, id)
      return before ? applyUpdate(tx, before, input, actor) : null
    }),
  )
}

export type PatchResult =
  | { status: 'updated'; record: PtDisease }
  | { status: 'invalid'; error: z.ZodError }
  | { status: 'not-found' }

/**
 * A partial update: the fields given replace the stored ones and the merged record is validated as a whole,
 * so rules across fields (last reviewed not before date entered) hold between old and new values. `today` is the
 * platform's, for "date of birth in the future".
 */
export function patchPtdisease(
  id: number,
  patch: Record<string, unknown>,
  actor: AuditActor,
  { today }: { today: string },
): Promise<PatchResult> {
  return scrubbed(() =>
    db.transaction(async (tx): Promise<PatchResult> => {
      const [before] = await lockRecord(tx, id)
      if (!before) return { status: 'not-found' }
      const parsed = buildPtdiseaseSchema(() => today).safeParse({ ...recordToInput(before), ...patch })
      if (!parsed.success) return { status: 'invalid', error: parsed.error }
      return { status: 'updated', record: await applyUpdate(tx, before, parsed.data, actor) }
    }),
  )
}

/** Deletes for good; the audit entry keeps what the record held. False when there is no such record. */
export function deletePtdisease(id: number, actor: AuditActor): Promise<boolean> {
  return scrubbed(() =>
    db.transaction(async (tx) => {
      const [deleted] = await tx.delete(ptdisease).where(eq(ptdisease.ptdiseaseID, id)).returning()
      if (!deleted) return false
      await audit(tx, actor, 'delete', id, diff(editable(deleted), null))
      return true
    }),
  )
}

// ---------------------------------------------------------------------------------------------------------------
// History

export interface PtdiseaseHistory {
  /** Null once the record has been deleted (its trail stays). */
  record: PtDisease | null
  entries: PtDiseaseAudit[]
}

/** A record's trail, oldest first (audited as `history`); null when neither the record nor a trail exists. */
export function getPtdiseaseHistory(id: number, actor: AuditActor): Promise<PtdiseaseHistory | null> {
  return scrubbed(() =>
    db.transaction(async (tx) => {
      const [record] = await tx.select().from(ptdisease).where(eq(ptdisease.ptdiseaseID, id))
      const entries = await tx
        .select()
        .from(ptdiseaseAudit)
        .where(eq(ptdiseaseAudit.ptdiseaseID, id))
        .orderBy(asc(ptdiseaseAudit.occurredAt), asc(ptdiseaseAudit.id))
      if (!record && entries.length === 0) return null
      await audit(tx, actor, 'history', id)
      return { record: record ?? null, entries }
    }),
  )
}

/** Audit entries of one action, newest first (tests and reports). */
export function listAuditEntries(filter: { ptdiseaseID?: number; action?: PtdiseaseAuditAction } = {}) {
  const conditions: SQL[] = []
  if (filter.ptdiseaseID !== undefined) conditions.push(eq(ptdiseaseAudit.ptdiseaseID, filter.ptdiseaseID))
  if (filter.action) conditions.push(eq(ptdiseaseAudit.action, filter.action))
  return scrubbed(() =>
    db
      .select()
      .from(ptdiseaseAudit)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(ptdiseaseAudit.id)),
  )
}

/** Ids in URLs: a positive int4, anything else is "no such record". */
export function parsePtdiseaseId(raw: string | undefined): number | null {
  return parseId(raw)
}
