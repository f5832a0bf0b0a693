/** One line of a `MenuButton`'s menu. */
export type MenuEntry =
  | { kind: 'action'; label: string; onSelect: () => void }
  /** One of a set of choices: checked shows which is in force. */
  | { kind: 'radio'; label: string; checked: boolean; onSelect: () => void }
  | { kind: 'separator' }
