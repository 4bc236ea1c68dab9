// `/` is the business sign-in screen, the same as `/login`.
export { action, default, ErrorBoundary, loader, meta } from './login.tsx'
