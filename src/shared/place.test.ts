import { describe, expect, it } from 'vitest'
import { degreesOf, locationOf, MAX_PLACE_NAME, placeProblems } from './place'

describe('placeProblems', () => {
  it('finds nothing wrong with a place on Earth, named or not', () => {
    expect(placeProblems({ name: 'Eiffel Tower', latitude: '48.8584', longitude: '2.2945' })).toEqual({})
    expect(placeProblems({ name: '', latitude: ' -90 ', longitude: '180' })).toEqual({})
    expect(placeProblems({ name: '', latitude: '+0.5', longitude: '-.25' })).toEqual({})
  })

  it('says which coordinate is missing, not a number, or off the Earth, in words', () => {
    expect(placeProblems({ name: 'x', latitude: '', longitude: ' ' })).toEqual({ latitude: 'Enter the latitude.', longitude: 'Enter the longitude.' })
    expect(placeProblems({ name: 'x', latitude: '91', longitude: '-180.5' })).toEqual({
      latitude: 'Latitude is between -90 (south) and 90 (north) degrees.',
      longitude: 'Longitude is between -180 (west) and 180 (east) degrees.'
    })
    for (const written of ['48,85', '48°51′', 'north', '1e2', 'Infinity', '0x10', '4 8']) {
      expect(placeProblems({ name: '', latitude: written, longitude: '0' }).latitude, written).toMatch(/^Latitude is a number of degrees/)
    }
  })

  it('refuses a name longer than the limit', () => {
    expect(placeProblems({ name: 'a'.repeat(MAX_PLACE_NAME + 1), latitude: '0', longitude: '0' }).name).toBe(`Shorten the name to ${MAX_PLACE_NAME} characters or fewer.`)
  })
})

describe('degreesOf and locationOf', () => {
  it('reads degrees within the limit only', () => {
    expect(degreesOf(' 45.5 ', 90)).toBe(45.5)
    expect(degreesOf('90.0001', 90)).toBeNull()
    expect(degreesOf('', 90)).toBeNull()
  })

  it('writes the degrees plainly and the name trimmed', () => {
    expect(locationOf({ name: '  Trailhead ', latitude: '+48.50', longitude: '-002.29450' })).toEqual({ type: 'location', lat: '48.5', lng: '-2.2945', name: 'Trailhead' })
  })
})
