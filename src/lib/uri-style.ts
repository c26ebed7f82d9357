// URI spelling of the DMTF dialect: Redfish URIs without a trailing slash.
// Works on serialized JSON, so one pass rewrites a whole body (links, action
// targets, message arguments) and memoized bodies are rewritten once.

// A JSON string that is a Redfish URI whose path ends in '/', maybe followed by a query or a
// fragment ("…/Thermal/#/Fans/0", "…/Entries/?$skip=50"); no quote or escape inside it.
const SLASHED_URI = /"(\/redfish\/v1(?:\/[^"\\?#]*)?)\/([?#][^"\\]*)?"/g;

/** JSON text with every Redfish URI string's trailing slash removed ("/redfish/v1/" becomes "/redfish/v1"). */
export function unslashJson(json: string): string {
  return json.includes('/redfish/v1') ? json.replace(SLASHED_URI, '"$1$2"') : json;
}

/** One URI without its path's trailing slash (header values such as Location). */
export function unslashUri(uri: string): string {
  return /^\/redfish\/v1(\/[^?#]*)?\/([?#].*)?$/.test(uri) ? uri.replace(/\/([?#].*)?$/, '$1') : uri;
}
