// Where a location attachment links to: a map page centred on its coordinates, opened in the
// user's browser through the app's external-link path.

/** A map page for the coordinates, or null when they are not a place on Earth. */
export function mapPageUrl(lat: string, lng: string): string | null {
  const latitude = Number(lat.trim())
  const longitude = Number(lng.trim())
  if (lat.trim() === '' || lng.trim() === '' || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return null
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`
}
