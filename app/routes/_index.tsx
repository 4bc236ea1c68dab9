// `/` is the business sign-in screen, the same as `/login` (spec §2).
export { action, default, ErrorBoundary, loader, meta } from './login.tsx'
