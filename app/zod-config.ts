import { config } from 'zod/v4/core'

// zod compiles object schemas with `new Function` when it may. The CSP forbids eval, so in the browser zod's probe
// for it would be reported as a violation on every page with a form; the interpreted parser is what runs there anyway.
// Every module that builds schemas in the browser imports this first (pages without forms load no zod at all).
if (typeof document !== 'undefined') config({ jitless: true })
