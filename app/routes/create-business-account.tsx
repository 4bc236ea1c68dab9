// `/create-business-account` is the same registration screen as `/create-account` (spec §2).
export { action, default, ErrorBoundary, loader, meta } from './create-account.tsx'
