import { useEffect, useState } from 'react'

/** The price of `days` display dates in dollars ("29.00"), asked of /api/charges as the choice changes. */
export function useAdCost(days: number) {
  const [cost, setCost] = useState('0.00')
  useEffect(() => {
    if (days === 0) {
      setCost('0.00')
      return
    }
    const controller = new AbortController()
    fetch(`/api/charges/${days}`, { signal: controller.signal, credentials: 'include' })
      .then((res) =>
        res.ok
          ? (res.json() as Promise<{ chargeAmount: number }>)
          : Promise.reject(new Error(String(res.status))),
      )
      .then((body) => setCost(Number(body.chargeAmount).toFixed(2)))
      .catch((error: unknown) => {
        if ((error as Error).name !== 'AbortError') setCost('0.00')
      })
    return () => controller.abort()
  }, [days])
  return cost
}
