/** The fields a calendar tile reads. */
export interface EventTileData {
  eventID: number
  eventTitle: string
  eventDescription: string
  category: readonly string[]
  stillPhotoPath: string
  businessName: string
  businessCity?: string
  /** The date the card shows (`nextEventDate`): the event's own date, else its next display date. */
  date: string | null
}
