import { describe, expect, it } from 'vitest'
import { refuseStrayFileDrops } from './file-drop'

/** A drag event as a browser sends it; jsdom has no DragEvent, so the data transfer is attached by hand. */
function drag(type: 'dragover' | 'drop', types: string[]): Event & { dataTransfer: { types: string[]; dropEffect: string } } {
  const event = new Event(type, { bubbles: true, cancelable: true })
  return Object.assign(event, { dataTransfer: { types, dropEffect: 'copy' } })
}

describe('refuseStrayFileDrops', () => {
  const target = new EventTarget() as unknown as Window
  refuseStrayFileDrops(target)

  it('refuses a file dragged or dropped where nothing took it', () => {
    for (const type of ['dragover', 'drop'] as const) {
      const event = drag(type, ['Files'])
      target.dispatchEvent(event)
      expect(event.defaultPrevented).toBe(true)
      expect(event.dataTransfer.dropEffect).toBe('none')
    }
  })

  it('leaves a file drag alone that an element already took', () => {
    const event = drag('dragover', ['Files'])
    event.preventDefault()
    target.dispatchEvent(event)
    expect(event.dataTransfer.dropEffect).toBe('copy')
  })

  it('lets dragged text through, so it can still be dropped into the composer', () => {
    const event = drag('drop', ['text/plain'])
    target.dispatchEvent(event)
    expect(event.defaultPrevented).toBe(false)
  })
})
