/** What checkout tells the advertiser, shared by the page, its island and the server. */
export const PAYMENT_TEXT = {
  settingUp: 'Setting up payment...',
  setupFailedHeading: 'Unable to setup payment',
  returnToEvents: 'Return to Events',
  testModeLabel: 'Test mode — no real charge',
  unavailable: 'Payments are not available right now. Please try again later.',
  noEventData: { title: 'No Event Data', description: 'No event data found. Redirecting to create event.' },
  invalidEventData: {
    title: 'Invalid Event Data',
    description: 'Unable to process event data. Please try again.',
  },
  setupFailed: { title: 'Payment Setup Failed', description: 'Unable to setup payment. Please try again.' },
  success: { title: 'Payment Successful', description: 'Your ad will go live after administrator approval.' },
  failed: {
    title: 'Payment Failed',
    description: 'Payment could not be processed. You can try again or return to edit your event.',
  },
  error: { title: 'Payment Error', description: 'An unexpected error occurred.' },
  eventCreationFailed: {
    title: 'Payment Successful, Event Creation Failed',
    description: 'Payment processed but event creation failed. Please contact support.',
  },
  alreadyPaid: { title: 'Already paid', description: 'This ad has already been paid for.' },
} as const

/** The completion call's `code` when the charge went through but the event could not be marked paid. */
export const EVENT_CREATION_FAILED_CODE = 'event_creation_failed'
