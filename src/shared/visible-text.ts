// Text as a person sees it, for comparing what they type with a name on the screen. Pasted
// mixed-direction text carries marks nobody sees and nobody types (U+200E, U+200F, isolates,
// embeddings), and names may hold other invisible characters (zero-width spaces and joiners,
// variation selectors, soft hyphens): all are Unicode's default-ignorable code points, which a
// renderer draws as nothing. A person cannot tell apart two spellings of an accented letter
// (composed or not) nor one space from two, nor a space from a no-break space, either.

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu
const SPACES = /\s+/gu

/** The text without what cannot be seen, in one spelling of each letter, its spaces single and trimmed. */
export function visibleText(text: string): string {
  // Invisible characters go first: one between a letter and its accent would keep them apart.
  return text.replace(INVISIBLE, '').normalize('NFC').replace(SPACES, ' ').trim()
}

/** Whether a person sees the same text in both: what they typed, and what the screen shows. */
export function looksTheSame(typed: string, shown: string): boolean {
  return visibleText(typed) === visibleText(shown)
}
