import type { useCheckedForm } from '#app/components/checked-form.tsx'

export type { EventFormValues } from '#app/models/ads/event-schema.ts'

export type FieldErrors = Record<string, string[] | undefined>

/** One field's problem as the form shows it (from the server's answer or the browser's check of the same rules). */
export type CheckedField = Pick<
  ReturnType<ReturnType<typeof useCheckedForm>['field']>,
  'id' | 'errors' | 'errorId'
>
