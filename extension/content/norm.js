// @ts-check
/**
 * Text as compared and shown: runs of white space (and of the zero-width spaces editors keep an
 * empty line open with) made one space, trimmed. Anything that is not a
 * string (a page's odd property where a string was expected) reads as no words, never an error.
 * @param {unknown} s
 */
export function norm(s) { return typeof s === "string" ? s.replace(/[\s\u200b\u2060]+/g, " ").trim() : ""; }
