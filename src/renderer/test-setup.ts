import '@testing-library/jest-dom/vitest'

// jsdom has <dialog> without its methods. Enough of them for components to open and close one;
// the modal part (inert page, focus kept inside, Escape) is the browser's and is not acted out.
if (typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement): void {
    this.setAttribute('open', '')
  }
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement): void {
    if (!this.hasAttribute('open')) return
    this.removeAttribute('open')
    this.dispatchEvent(new Event('close'))
  }
}
