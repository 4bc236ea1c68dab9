/** The fields a calendar tile reads. */
export interface EventTileData {
  eventID: number
  eventTitle: string
  eventDescription: string
  category: readonly string[]
  stillPhotoPath: string
  businessName: string
  businessCity?: string
  nextShowDate: string | null
}
