export interface EventFormValues {
  eventTitle: string
  eventDescription: string
  eventCategory: string[]
  showAdDates: string[]
  eventDate: string
  contactPerson: string
  contactPhone: string
  contactEmail: string
}

export type FieldErrors = Record<string, string[] | undefined>
