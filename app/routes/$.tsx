import { data } from '@remix-run/node'
import type { MetaFunction } from '@remix-run/node'
import { NotFoundScreen } from '#app/components/error-boundary.tsx'

export const meta: MetaFunction = () => [{ title: 'Page Not Found' }]

export const handle = { hydrate: false }

export function loader() {
  return data(null, { status: 404 })
}

export function action() {
  return data({ message: 'Not found' }, { status: 404 })
}

export default function NotFound() {
  return <NotFoundScreen />
}
