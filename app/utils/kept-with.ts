interface Kept<V> {
  key: string
  value: V
  /** The values of other keys, when there are any. */
  more?: Map<string, V>
}

/**
 * Values derived from an object, kept with it by a key while the object lives: the same object and key give back the
 * same value, made once. An object with one key (the usual case) costs no Map.
 */
export function keptWith<O extends object, V>() {
  const kept = new WeakMap<O, Kept<V>>()
  return (owner: O, key: string, make: () => V): V => {
    const entry = kept.get(owner)
    if (!entry) {
      const value = make()
      kept.set(owner, { key, value })
      return value
    }
    if (entry.key === key) return entry.value
    let value = entry.more?.get(key)
    if (value === undefined) {
      value = make()
      ;(entry.more ??= new Map()).set(key, value)
    }
    return value
  }
}
