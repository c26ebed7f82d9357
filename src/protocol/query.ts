// Parses the OData/Redfish query options of a request into a Query value, or a
// registry error. Pure: no request or response objects.
import { baseError, vendorError, type RedfishError } from './errors.js';

export type ExpandMode = 'all' | 'subordinate' | 'links';

export interface Query {
  /** Property paths, split on '/'; undefined when $select was not given. */
  select?: string[][];
  expand?: { mode: ExpandMode; levels: number };
  only: boolean;
  top?: number;
  skip?: number;
  /** The raw $filter expression, for routes that declare `filter: true` (they parse it themselves). */
  filter?: string;
  /** True when any option at all was given (some resources accept none). */
  any: boolean;
  /** Parameters that are not OData options, for the few routes that take their own (the AHS download's `days`). */
  other?: Readonly<Record<string, string>>;
}

export const MAX_EXPAND_LEVELS = 6;

const SELECT_SEGMENT = /^[A-Za-z0-9_#@.]+$/;
const EXPAND = /^([.*~])(?:\(\$levels=([^)]*)\))?$/;

export const EMPTY_QUERY: Query = { only: false, any: false };

export interface QueryOptions {
  /** The route evaluates $filter itself; elsewhere $filter is refused (501). */
  filter?: boolean;
}

export function parseQuery(search: string, opts: QueryOptions = {}): Query | RedfishError {
  if (!search) return EMPTY_QUERY;
  const params = new URLSearchParams(search);
  const seen = new Set<string>();
  const q: Query = { only: false, any: false };
  for (const [rawKey, value] of params) {
    const key = rawKey.trim();
    if (seen.has(key)) return vendorError('MalformedQuery', key, 'the option is given more than once');
    seen.add(key);
    switch (key) {
      case '$select': {
        const paths = value.split(',').map((p) =>
          p
            .trim()
            .split('/')
            .filter((s) => s !== ''),
        );
        if (!value.trim() || paths.some((p) => p.length === 0 || !p.every((s) => SELECT_SEGMENT.test(s)))) {
          return baseError('QueryParameterValueFormatError', value, key);
        }
        q.select = paths;
        break;
      }
      case '$expand': {
        const m = EXPAND.exec(value.trim());
        if (!m) return baseError('QueryParameterValueFormatError', value, key);
        let levels = 1;
        if (m[2] !== undefined) {
          if (!/^\d+$/.test(m[2])) return baseError('QueryParameterValueTypeError', m[2], '$levels');
          levels = Number(m[2]);
          if (levels < 1 || levels > MAX_EXPAND_LEVELS) {
            return baseError('QueryParameterOutOfRange', m[2], '$levels', `1-${MAX_EXPAND_LEVELS}`);
          }
        }
        const mode: ExpandMode = m[1] === '*' ? 'all' : m[1] === '.' ? 'subordinate' : 'links';
        q.expand = { mode, levels };
        break;
      }
      case 'only':
        if (value !== '') return baseError('QueryParameterValueFormatError', value, key);
        q.only = true;
        break;
      case '$top':
      case '$skip': {
        if (!/^\d+$/.test(value)) return baseError('QueryParameterValueTypeError', value, key);
        const n = Number(value);
        if (!Number.isSafeInteger(n)) return baseError('QueryParameterOutOfRange', value, key, `0-${Number.MAX_SAFE_INTEGER}`);
        if (key === '$top') q.top = n;
        else q.skip = n;
        break;
      }
      case '$filter':
        if (!opts.filter) return baseError('QueryNotSupported');
        if (!value.trim()) return baseError('QueryParameterValueFormatError', value, key);
        q.filter = value;
        break;
      case 'excerpt':
        // Not supported (ProtocolFeaturesSupported.ExcerptQuery is false).
        return baseError('QueryNotSupported');
      default:
        // Unknown '$' options are refused; other unknown parameters are ignored (DSP0266).
        if (key.startsWith('$')) return baseError('QueryNotSupported');
        if (key) q.other = { ...q.other, [key]: value };
        continue;
    }
    q.any = true;
  }
  if (q.only && (q.expand || q.top !== undefined || q.skip !== undefined)) return baseError('QueryCombinationInvalid');
  return q;
}
