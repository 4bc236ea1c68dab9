import type { FormReply } from './checked-form.tsx'
import { SubscriptionBoxForm } from './subscription-box-form.tsx'

/** "Remind me": one email the day before the event, after the address is confirmed. A plain form. */
export function RemindMeForm({ eventID, reply }: { eventID: number; reply?: FormReply | null }) {
  return (
    <SubscriptionBoxForm
      id="remind-me"
      heading="Remind me"
      explanation="One email the day before the event. You confirm by email first."
      hidden={{ kind: 'reminder', eventID }}
      submitLabel="Remind me"
      className="mt-6"
      reply={reply}
    />
  )
}
