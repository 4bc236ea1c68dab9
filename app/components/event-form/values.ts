export type { EventFormValues } from '#app/models/event-schema.ts'

export type FieldErrors = Record<string, string[] | undefined>
