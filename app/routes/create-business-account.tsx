// `/create-business-account` is the same registration screen as `/create-account`.
export { action, default, ErrorBoundary, loader, meta } from './create-account.tsx'
