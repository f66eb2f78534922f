// @ts-check
/**
 * Page text made safe to show the model (shared_schema/page_text.py, whose rules these are: a test
 * holds them equal to the generated schema's, which the content script does not load): format
 * characters dropped, look-alikes of quotes and square brackets taken as what they look like, the
 * fence and other delimiters turned into «, and a bracket that would open an element of the map
 * (`[e12`) into a parenthesis — page text can neither close the fence nor read as a line of the map.
 */

/** Characters NFKC folds onto '"', '[' and ']'. @type {Record<string, string>} */
export const LOOKALIKES = { "\uff02": '"', "\uff3b": "[", "\ufe47": "[", "\uff3d": "]", "\ufe48": "]" };
export const DELIMITERS = '"{3,}|<<<|>>>';
export const ELEMENT_BRACKET = "\\[(?=\\*?(?:f\\d+)?e\\d+\\b)";

const FOLD = new RegExp(`[${Object.keys(LOOKALIKES).join("")}]`, "g");
const FORMAT = /\p{Cf}/gu;
const DELIM = new RegExp(DELIMITERS, "g");
const BRACKET = new RegExp(ELEMENT_BRACKET, "g");
/** Any character one of the rules acts on. */
const SUSPECT = new RegExp(`["<>\\[${Object.keys(LOOKALIKES).join("")}]|\\p{Cf}`, "u");

/**
 * The page's words as they may be shown: no fence, no line of the map's, nothing invisible (line
 * breaks are the caller's business).
 * @param {string} s
 */
export function neutral(s) {
  if (!SUSPECT.test(s)) return s; // (most words hold nothing to make safe: one test, not four passes)
  return s.replace(FOLD, (c) => LOOKALIKES[c]).replace(FORMAT, "").replace(DELIM, "«").replace(BRACKET, "(");
}

/**
 * One piece of a line the map joins with its own (a text node beside a control in a sentence): as
 * neutral, and a bracket left open at its end — which the next piece could complete into an
 * element's id — made a parenthesis too.
 * @param {string} s
 */
export function neutralPart(s) { return neutral(s).replace(/\[(?=\*?(?:f\d*)?$)/, "("); }

/** A line joined from pieces: quotes that meet across pieces make no fence either. @param {string} s */
export function noDelimiters(s) { return s.replace(DELIM, "«"); }
