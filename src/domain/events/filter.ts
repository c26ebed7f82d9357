// The $filter of an SSE stream (DSP0266 "Server-sent events"): comparisons of
// RegistryPrefix, MessageId, EventType, OriginResource and EventFormatType with
// eq/ne, combined with and/or/not and parentheses. Parsed once per stream.
import { sameMessage, type LoggedEvent } from './format.js';

export const SSE_FILTER_PROPERTIES = ['EventFormatType', 'EventType', 'MessageId', 'OriginResource', 'RegistryPrefix'] as const;
type FilterProperty = (typeof SSE_FILTER_PROPERTIES)[number];

export type EventPredicate = (e: LoggedEvent) => boolean;

export class FilterSyntaxError extends Error {}

type Token = { kind: 'word'; text: string } | { kind: 'string'; text: string } | { kind: 'paren'; text: '(' | ')' };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      out.push({ kind: 'paren', text: c });
      i++;
    } else if (c === "'") {
      let text = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new FilterSyntaxError('unterminated string');
        if (src[i] === "'") {
          if (src[i + 1] === "'") {
            text += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        text += src[i++];
      }
      out.push({ kind: 'string', text });
    } else {
      const m = /^[A-Za-z0-9_.]+/.exec(src.slice(i));
      if (!m) throw new FilterSyntaxError(`unexpected '${c}'`);
      out.push({ kind: 'word', text: m[0] });
      i += m[0].length;
    }
  }
  return out;
}

function valueOf(p: FilterProperty, e: LoggedEvent): string | undefined {
  switch (p) {
    case 'EventFormatType':
      return e.kind;
    case 'EventType':
      return e.eventType;
    case 'MessageId':
      return e.messageId;
    case 'OriginResource':
      return e.origin;
    case 'RegistryPrefix':
      return e.prefix;
  }
}

function equals(p: FilterProperty, actual: string | undefined, wanted: string): boolean {
  if (actual === undefined) return false;
  if (p === 'MessageId') return actual === wanted || sameMessage(wanted, actual);
  if (p === 'OriginResource') return actual.replace(/\/+$/, '') === wanted.replace(/\/+$/, '');
  return actual === wanted;
}

/** Deepest nesting of parentheses and `not` a filter may have: the parser and the predicate recurse. */
export const MAX_FILTER_DEPTH = 32;
/** Most comparisons in one filter: each adds a frame to the predicate's evaluation. */
export const MAX_FILTER_TERMS = 256;

/** Parse a $filter into a predicate; throws FilterSyntaxError with the reason. */
export function parseEventFilter(src: string): EventPredicate {
  const tokens = tokenize(src);
  let pos = 0;
  let depth = 0;
  let terms = 0;
  const deeper = () => {
    if (++depth > MAX_FILTER_DEPTH) throw new FilterSyntaxError(`nested deeper than ${MAX_FILTER_DEPTH} levels`);
  };
  const peekWord = (w: string) => {
    const t = tokens[pos];
    return t?.kind === 'word' && t.text.toLowerCase() === w;
  };

  const expr = (): EventPredicate => {
    let left = conj();
    while (peekWord('or')) {
      pos++;
      const l = left;
      const r = conj();
      left = (e) => l(e) || r(e);
    }
    return left;
  };
  const conj = (): EventPredicate => {
    let left = unary();
    while (peekWord('and')) {
      pos++;
      const l = left;
      const r = unary();
      left = (e) => l(e) && r(e);
    }
    return left;
  };
  const unary = (): EventPredicate => {
    if (peekWord('not')) {
      pos++;
      deeper();
      const inner = unary();
      depth--;
      return (e) => !inner(e);
    }
    const t = tokens[pos];
    if (t?.kind === 'paren' && t.text === '(') {
      pos++;
      deeper();
      const inner = expr();
      depth--;
      const close = tokens[pos++];
      if (close?.kind !== 'paren' || close.text !== ')') throw new FilterSyntaxError("missing ')'");
      return inner;
    }
    if (++terms > MAX_FILTER_TERMS) throw new FilterSyntaxError(`more than ${MAX_FILTER_TERMS} comparisons`);
    return comparison();
  };
  const comparison = (): EventPredicate => {
    const prop = tokens[pos++];
    if (prop?.kind !== 'word') throw new FilterSyntaxError('expected a property name');
    const name = SSE_FILTER_PROPERTIES.find((p) => p === prop.text);
    if (!name) throw new FilterSyntaxError(`unsupported property ${prop.text}`);
    const op = tokens[pos++];
    const opText = op?.kind === 'word' ? op.text.toLowerCase() : '';
    if (opText !== 'eq' && opText !== 'ne') throw new FilterSyntaxError(`expected eq or ne after ${name}`);
    const lit = tokens[pos++];
    if (lit?.kind !== 'string') throw new FilterSyntaxError(`expected a quoted value after ${name} ${opText}`);
    const wanted = lit.text;
    return opText === 'eq' ? (e) => equals(name, valueOf(name, e), wanted) : (e) => !equals(name, valueOf(name, e), wanted);
  };

  if (!tokens.length) throw new FilterSyntaxError('empty filter');
  const predicate = expr();
  if (pos !== tokens.length) throw new FilterSyntaxError('unexpected text after the expression');
  return predicate;
}
