import { useNavigate } from '@remix-run/react'
import { useState } from 'react'
import { toast } from '#app/components/toaster.tsx'
import { DELAY_TO_CHECKOUT_MS } from '#app/constants.ts'
import { freeListingSentPath } from '#app/models/payments/free-listing.ts'
import {
  APPROVE_FAILED_MESSAGE,
  approvalBody,
  approvalFailureMessage,
  uploadApproval,
} from './approval-upload.ts'
import type { EventFormValues } from './values.ts'

const isSuccess = (status: number) => status >= 200 && status < 300

/**
 * "Approve Your Ad" with JavaScript: the ad and its files go to /api/approve-event with upload progress; then to
 * payment, or (an edit after payment) to the ad's page. `onFieldErrors` gets the server's problems per field.
 */
export function useApproval({
  businessName,
  eventID,
  cost,
  onFieldErrors,
}: {
  businessName: string
  /** The saved ad being edited. */
  eventID?: number
  cost: string
  onFieldErrors: (errors: Record<string, string[]>) => void
}) {
  const navigate = useNavigate()
  const [progress, setProgress] = useState<number | null>(null)

  async function approve(values: EventFormValues, files: { photo?: File; video?: File }) {
    const body = approvalBody({ values, businessName, cost, eventID, ...files })
    setProgress(0)
    try {
      const answer = await uploadApproval(body, setProgress)
      const saved = isSuccess(answer.status) ? answer.json?.eventID : undefined
      if (saved && answer.json?.resubmitted) {
        toast({ title: 'Sent for review', description: answer.json.message })
        navigate(`/event/${saved}`)
        return
      }
      if (saved && answer.json?.free) {
        navigate(freeListingSentPath(saved))
        return
      }
      if (saved) {
        toast({ title: 'Success!', description: 'Your ad has been saved. Taking you to payment...' })
        setTimeout(() => navigate('/checkout'), DELAY_TO_CHECKOUT_MS)
        return
      }
      toast({ title: 'Error', description: approvalFailureMessage(answer), variant: 'destructive' })
      if (answer.status < 500 && answer.json?.errors) onFieldErrors(answer.json.errors)
    } catch {
      toast({ title: 'Error', description: APPROVE_FAILED_MESSAGE, variant: 'destructive' })
    } finally {
      setProgress(null)
    }
  }

  return { progress, approve }
}
