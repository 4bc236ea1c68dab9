import { followBusinessText } from '#app/models/subscriptions/subscription-rules.ts'
import type { FormReply } from './checked-form.tsx'
import { SubscriptionBoxForm } from './subscription-box-form.tsx'

/** "Email me new events from Blue Door Cafe": at most one email a day, after the address is confirmed. A plain form. */
export function FollowBusinessForm({
  businessID,
  businessName,
  reply,
}: {
  businessID: number
  businessName: string
  reply?: FormReply | null
}) {
  return (
    <SubscriptionBoxForm
      id="follow-business"
      heading={followBusinessText(businessName)}
      explanation="At most one email a day, when it has a new event. No account needed; you confirm by email first and can unsubscribe in one click."
      hidden={{ kind: 'business', businessID }}
      submitLabel="Email me"
      className="mt-8"
      reply={reply}
    />
  )
}
