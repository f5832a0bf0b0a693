// The one test for "a link we may hand to a web browser": http and https only, never file:,
// javascript:, data: or a custom scheme that would start another program.

export function isWebUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}
