// A place a message carries (a location attachment): a name and its coordinates, which the service
// keeps as strings of decimal degrees. Checked by the same rules where it is typed (the Share
// location dialog) and where main takes it from the page.

/** Longer than any place name; what is longer is refused rather than cut. */
export const MAX_PLACE_NAME = 200

export interface PlaceFields {
  name: string
  latitude: string
  longitude: string
}

export type PlaceField = keyof PlaceFields

/** A number in decimal degrees as typed: digits with an optional sign and decimal point, nothing else. */
const DECIMAL_DEGREES = /^[+-]?(\d+(\.\d*)?|\.\d+)$/

/** The degrees written, when they are a number within ±limit; null otherwise. */
export function degreesOf(text: string, limit: number): number | null {
  const trimmed = text.trim()
  if (!DECIMAL_DEGREES.test(trimmed)) return null
  const degrees = Number(trimmed)
  return Math.abs(degrees) <= limit ? degrees : null
}

/** What is wrong with each field, in the person's words; empty when the place can be sent. A name may be left out. */
export function placeProblems(place: PlaceFields): Partial<Record<PlaceField, string>> {
  const problems: Partial<Record<PlaceField, string>> = {}
  if (place.name.trim().length > MAX_PLACE_NAME) problems.name = `Shorten the name to ${MAX_PLACE_NAME} characters or fewer.`
  const latitude = coordinateProblem(place.latitude, 90, 'Latitude', 'north', 'south')
  if (latitude !== null) problems.latitude = latitude
  const longitude = coordinateProblem(place.longitude, 180, 'Longitude', 'east', 'west')
  if (longitude !== null) problems.longitude = longitude
  return problems
}

function coordinateProblem(text: string, limit: number, what: string, positive: string, negative: string): string | null {
  const trimmed = text.trim()
  if (trimmed === '') return `Enter the ${what.toLowerCase()}.`
  if (!DECIMAL_DEGREES.test(trimmed)) {
    return `${what} is a number of degrees, such as ${limit === 90 ? '48.8584' : '-2.2945'}, with a point for decimals and a minus sign for ${negative}.`
  }
  if (degreesOf(trimmed, limit) === null) return `${what} is between -${limit} (${negative}) and ${limit} (${positive}) degrees.`
  return null
}

/** The place as a message carries it, once placeProblems finds nothing: degrees written plainly ("+48.50" is "48.5"). */
export function locationOf(place: PlaceFields): { type: 'location'; lat: string; lng: string; name: string } {
  return {
    type: 'location',
    lat: String(Number(place.latitude.trim())),
    lng: String(Number(place.longitude.trim())),
    name: place.name.trim()
  }
}
