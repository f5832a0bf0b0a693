// Where the arrow keys go in the picker's grid: the emoji are drawn in groups, each group in rows
// of COLUMNS, so ↑ and ↓ keep the column, crossing into the group above or below at its edge.

export const COLUMNS = 8

export type GridMove = 'left' | 'right' | 'up' | 'down'

/**
 * The index, in the emoji of all groups one after another, that a move from `index` lands on;
 * `index` itself at an edge of the whole grid. `sizes` are the groups' emoji counts.
 */
export function moveInGrid(sizes: readonly number[], index: number, move: GridMove): number {
  const total = sizes.reduce((sum, size) => sum + size, 0)
  if (total === 0) return 0
  if (move === 'left') return Math.max(0, index - 1)
  if (move === 'right') return Math.min(total - 1, index + 1)

  // Which group `index` is in, where that group starts, and the column.
  let group = 0
  let start = 0
  while (group < sizes.length - 1 && index >= start + (sizes[group] ?? 0)) start += sizes[group++] ?? 0
  const size = sizes[group] ?? 0
  const inGroup = index - start
  const column = inGroup % COLUMNS

  if (move === 'down') {
    if (inGroup + COLUMNS < size) return index + COLUMNS
    // A shorter last row below this one: its last emoji.
    if (Math.floor(inGroup / COLUMNS) < Math.floor((size - 1) / COLUMNS)) return start + size - 1
    if (group === sizes.length - 1) return index
    return start + size + Math.min(column, (sizes[group + 1] ?? 1) - 1)
  }
  if (inGroup - COLUMNS >= 0) return index - COLUMNS
  if (group === 0) return index
  const above = sizes[group - 1] ?? 0
  const lastRowStart = Math.floor((above - 1) / COLUMNS) * COLUMNS
  return start - above + Math.min(lastRowStart + column, above - 1)
}
