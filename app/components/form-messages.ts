import type { FormReply } from './checked-form.tsx'

/** Every message of a refused form but those shown at the fields named in `shown`, as one line. */
export function otherMessages(reply: FormReply | null | undefined, shown: string[] = []) {
  return Object.entries(reply?.error ?? {})
    .filter(([name]) => !shown.includes(name))
    .flatMap(([, messages]) => messages ?? [])
    .join(' ')
}
