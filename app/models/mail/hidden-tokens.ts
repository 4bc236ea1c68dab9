/**
 * The keys in the emails' links, taken out of what administrators read of the outbox. A subscriber's links (confirm,
 * manage, unsubscribe) act for whoever opens them, by the `token` parameter alone: shown with its token, a message
 * would let its reader confirm or end someone else's subscription.
 */

export const HIDDEN_TOKEN = '[hidden]'

/**
 * A `token` parameter up to where its value ends: after `?` or `&`, `&amp;` in HTML, or their percent-encoded forms
 * inside another link's parameter. The value ends where an address does (space, quote, bracket, the next parameter),
 * so more rather than less is hidden.
 */
const TOKEN_PARAMETER = /((?:[?&;]|%3F|%26)token(?:=|%3D))[^\s"'<>&#]+/gi

/** `text` (a message's text, HTML, header or error) with every link's token replaced by "[hidden]". */
export function withTokensHidden(text: string) {
  return text.replace(TOKEN_PARAMETER, `$1${HIDDEN_TOKEN}`)
}
