/** Addresses with a comment, a name, brackets, quotes or a list: no email field takes them. */
export const HOSTILE_EMAILS = [
  'box@example.com(7)',
  'box(5)@example.com',
  'x3<box@example.com>',
  '<script>@x.co',
  'Box Owner <box@example.com>',
  '"box"@example.com',
  'box@example.com, other@example.com',
]
