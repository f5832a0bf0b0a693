// Puts the window back where the user left it, unless that place is no longer on any screen
// (a monitor was unplugged, the resolution changed): then the platform picks a place.
import { z } from 'zod'

export interface Rectangle {
  x: number
  y: number
  width: number
  height: number
}

export const DEFAULT_SIZE = { width: 1100, height: 760 }
export const MINIMUM_SIZE = { width: 640, height: 480 }

const boundsSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(MINIMUM_SIZE.width).max(100_000),
  height: z.number().int().min(MINIMUM_SIZE.height).max(100_000)
})

/** How much of the window's title bar must be on a display for it to count as reachable. */
const REACHABLE = { width: 100, height: 40 }

/**
 * The saved bounds if they are well formed and their top edge is visible on one of the displays'
 * work areas (so the user can grab the title bar), otherwise only the default size.
 */
export function restoreBounds(saved: unknown, workAreas: readonly Rectangle[]): Rectangle | typeof DEFAULT_SIZE {
  const parsed = boundsSchema.safeParse(saved)
  if (!parsed.success) return { ...DEFAULT_SIZE }
  const bounds = parsed.data
  const titleBar = { x: bounds.x, y: bounds.y, width: bounds.width, height: REACHABLE.height }
  const reachable = workAreas.some((area) => {
    const overlap = intersection(titleBar, area)
    return overlap.width >= Math.min(REACHABLE.width, bounds.width) && overlap.height >= REACHABLE.height / 2
  })
  return reachable ? bounds : { ...DEFAULT_SIZE }
}

function intersection(a: Rectangle, b: Rectangle): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return { width: Math.max(0, width), height: Math.max(0, height) }
}
