// Text from clients that must become UTF-8 bytes (certificate subjects, file
// names): JSON lets a string carry a lone UTF-16 surrogate ("\ud800"), which
// has no UTF-8 form. String.prototype.isWellFormed is newer than the ES2023 lib.

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** True when the string is valid Unicode: no lone UTF-16 surrogates. */
export function isWellFormedUnicode(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** The string with every lone surrogate replaced by U+FFFD, fit to be shown back in a message. */
export function toWellFormedUnicode(text: string): string {
  return text.replace(/\p{Surrogate}/gu, '\ufffd');
}
