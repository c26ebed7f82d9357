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

/** Characters that render as nothing (zero-width spaces and joiners, soft hyphens...). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * A name as compared for sameness (Unicode NFKC_Casefold, closely): compatibility forms become their
 * plain letters (full-width `ａ` is `a`), case is folded (`ß` is `ss`) and invisible characters go,
 * so `ATKADMIN`, `ａｔｋａｄｍｉｎ` and `atk\u200badmin` are all the name `atkadmin`.
 */
export function nameKey(name: string): string {
  return name.normalize('NFKC').replace(INVISIBLE, '').toUpperCase().toLowerCase().normalize('NFKC');
}
