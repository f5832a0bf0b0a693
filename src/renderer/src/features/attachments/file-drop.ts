// Files dragged from the desktop onto an element go to `onFiles`, rather than the window
// navigating away to show them.
import type { Attachment } from 'svelte/attachments'

function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer?.types.includes('Files') ?? false
}

export function acceptDroppedFiles(onFiles: (files: File[]) => void): Attachment<HTMLElement> {
  return (element) => {
    const over = (event: DragEvent): void => {
      if (!carriesFiles(event)) return
      event.preventDefault()
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy'
    }
    const drop = (event: DragEvent): void => {
      if (!carriesFiles(event)) return
      event.preventDefault()
      onFiles([...(event.dataTransfer?.files ?? [])])
    }
    element.addEventListener('dragover', over)
    element.addEventListener('drop', drop)
    return () => {
      element.removeEventListener('dragover', over)
      element.removeEventListener('drop', drop)
    }
  }
}

/**
 * Anywhere no element took a file drag, the page refuses it (the "no" cursor), so a browser tab
 * never replaces the app with a file dropped beside the conversation.
 */
export function refuseStrayFileDrops(target: Window): void {
  const refuse = (event: DragEvent): void => {
    if (!carriesFiles(event) || event.defaultPrevented) return
    event.preventDefault()
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'none'
  }
  target.addEventListener('dragover', refuse)
  target.addEventListener('drop', refuse)
}
