// @ts-check
/**
 * Text as compared and shown: runs of white space made one space, trimmed. Anything that is not a
 * string (a page's odd property where a string was expected) reads as no words, never an error.
 * @param {unknown} s
 */
export function norm(s) { return typeof s === "string" ? s.replace(/\s+/g, " ").trim() : ""; }
