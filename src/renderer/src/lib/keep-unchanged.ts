// Main restates whole lists (the conversation list on every message), parsed afresh from JSON each
// time. Handing back the objects already shown where nothing in them changed lets keyed `{#each}`
// blocks skip those rows, so one conversation's new preview redraws one entry, not a hundred.

/** `next`, with each entry replaced by its equal (same key, same data) from `previous` if there is one. */
export function keepUnchanged<T>(previous: readonly T[], next: T[], keyOf: (item: T) => string): T[] {
  if (previous.length === 0) return next
  const before = new Map(previous.map((item) => [keyOf(item), item]))
  return next.map((item) => {
    const old = before.get(keyOf(item))
    return old !== undefined && sameData(old, item) ? old : item
  })
}

/** Deep equality of JSON-shaped data: what came over the bridge has no dates, maps or cycles. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameData(item, b[index]))
  const aKeys = Object.keys(a)
  const bRecord = b as Record<string, unknown>
  if (aKeys.length !== Object.keys(bRecord).length) return false
  const aRecord = a as Record<string, unknown>
  return aKeys.every((key) => Object.hasOwn(bRecord, key) && sameData(aRecord[key], bRecord[key]))
}
