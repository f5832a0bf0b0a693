// Lines that mix the app's own words with what people wrote (a name, a poll's subject). What they
// wrote is drawn isolated from the words around it (GivenText.svelte puts it in a <bdi>), so that a
// right-to-left override left open in it cannot turn those words around.

/** A piece of such a line: the app's own words, or `{ given }`, something a person wrote. */
export type TextPart = string | { given: string }
