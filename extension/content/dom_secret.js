// @ts-check
/**
 * Fields whose value is a secret: a password, a passphrase, a PIN or a one-time code. Their value
 * never leaves the page — not in the page map, a signature, an extraction, an error or a check: a
 * map says only whether one is filled. Known by what the page says the field IS, not by how it is
 * drawn nor by a word somewhere near it: its type, its `autocomplete`, or a name, id or label that
 * names the field itself as one ("Password", "Confirm password", `user_pass`, `pin_code`) — so a
 * password the page shows as text (a "show password" toggle) is one, and a number labelled
 * "Minimum password length" (`password_min_length`) or a "Password hint" is not.
 */
import { attr, idOf, tagOf } from "./dom_native.js";

/** What a filled secret field shows: that it holds something, never what or how long. */
export const SECRET_SHOWN = "••••••••";

const SECRET_AUTOCOMPLETE = /\b(current-password|new-password|one-time-code)\b/i;
/** Words of a name or id that mean a secret (`pass1`, `user_pass`, `newPassword`, `pin_code`). */
const SECRET_WORDS = new Set(["password", "passwd", "passphrase", "passcode", "pass", "pwd", "pw", "pin", "otp", "secret", "totp"]);
/** Long secret words that also end a run-together name (`userpassword`, `adminpasswd`). */
const SECRET_ENDINGS = /(password|passwd|passphrase|passcode)$/;
/** Words that may follow the secret word in a name or label and leave it the field's own: "Password (again)", `pin_code`, `password_confirmation`. */
const AFTER_SECRET = new Set(["confirm", "confirmation", "confirmed", "again", "repeat", "repeated", "retype", "verify", "verification", "check", "code", "field", "input", "new", "old", "current", "required", "optional", "twice"]);
/** A label that names the field as a secret, the secret words last: "Password", "Confirm new password", "Your PIN", "One-time code", "Security code (again)". */
const SECRET_LABEL = /(?:^|[^a-z0-9])(password|passphrase|passcode|pin|otp|(?:one[- ]time|security|verification|authentication|auth|login|sign[- ]in|2fa|mfa|sms|access) code|one[- ]time password)((?:[^a-z0-9]+[a-z]+)*)[^a-z0-9]*$/i;
/** Inputs whose value could be typed secret text (not a checkbox, a date or a file). */
const TEXT_TYPES = new Set(["", "text", "password", "search", "tel", "number", "email"]);

/** The words of a name or id: split at non-letters and at lower-to-upper case steps. @param {string} s */
function wordsOfName(s) {
  return s.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z]+/).filter(Boolean);
}

/** Whether only words that leave the secret word the field's own follow it. @param {string[]} rest */
const onlyAfter = (rest) => rest.every((w) => AFTER_SECRET.has(w));

/** Whether a name's or id's words name the field as a secret: a secret word, only modifiers after it. @param {string} s */
function secretName(s) {
  const words = wordsOfName(s);
  for (let i = words.length - 1; i >= 0; i--) {
    if (SECRET_WORDS.has(words[i]) || SECRET_ENDINGS.test(words[i])) return onlyAfter(words.slice(i + 1));
  }
  return false;
}

/** Whether a label names the field as a secret (its secret words last, modifiers aside). @param {string} label */
export function secretLabel(label) {
  const text = label.replace(/[*:]+/g, " ").replace(/\((?:required|optional|again)\)/gi, (m) => ` ${m.slice(1, -1)} `).trim();
  if (text.length > 60) return false; // a sentence about the field ("must be at least 8 characters"), not its name
  const m = SECRET_LABEL.exec(text);
  return !!m && onlyAfter(wordsOfName(m[2] || ""));
}

/**
 * Whether the element is a field holding a secret.
 * @param {Element} el @param {() => string} [label] the field's label (asked only when nothing else settles it)
 */
export function isSecretField(el, label) {
  if (tagOf(el) !== "input") return false;
  const type = (attr(el, "type") || "").toLowerCase();
  if (type === "password") return true;
  if (!TEXT_TYPES.has(type)) return false;
  if (SECRET_AUTOCOMPLETE.test(attr(el, "autocomplete") || "")) return true;
  for (const s of [attr(el, "name") || "", idOf(el) || ""]) if (secretName(s)) return true;
  return !!label && secretLabel(label());
}
