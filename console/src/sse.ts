// The event stream (/redfish/v1/EventService/SSE/) read with fetch(): EventSource
// cannot send the X-Auth-Token header. Blocks end with a blank line; `id:` lines
// are kept for Last-Event-ID on reconnect, `data:` lines hold the Event JSON.
import { authHeaders, type Json } from './api.js';

export const SSE_URI = '/redfish/v1/EventService/SSE/';

export interface EventStreamHandlers {
  event(e: Json): void;
  /** Connected (true) or lost (false). */
  status(live: boolean): void;
}

/** Parse complete blocks out of a buffer; answers what is left over. */
export function parseBlocks(buffer: string, onBlock: (id: string | undefined, data: string) => void): string {
  let cut: number;
  let rest = buffer.replace(/\r\n/g, '\n');
  while ((cut = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('id:')) id = line.slice(3).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) onBlock(id, data.join('\n'));
  }
  return rest;
}

/**
 * Keep a stream open until stopped, reconnecting with a growing pause: the event service's, or
 * another such as the request inspector's; `after` is the id of the last event already seen.
 */
export function openEventStream(h: EventStreamHandlers, uri = SSE_URI, after?: string): { stop(): void } {
  const abort = new AbortController();
  let lastId = after;
  let pause = 1000;

  const run = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      try {
        const headers: Record<string, string> = { Accept: 'text/event-stream', ...authHeaders() };
        if (lastId) headers['Last-Event-ID'] = lastId;
        const res = await fetch(uri, { headers, signal: abort.signal });
        if (!res.ok || !res.body) throw new Error(`stream refused: ${res.status}`);
        h.status(true);
        pause = 1000;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer = parseBlocks(buffer + value, (id, data) => {
            if (id) lastId = id;
            try {
              h.event(JSON.parse(data) as Json);
            } catch {
              // A block that is not JSON is skipped.
            }
          });
        }
      } catch {
        // Lost or refused: the slow poll covers the gap until the stream is back.
      }
      if (abort.signal.aborted) return;
      h.status(false);
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(pause * 2, 30_000);
    }
  };
  void run();
  return { stop: () => abort.abort() };
}

/** The resources an event names (OriginOfCondition of each record). */
export function origins(e: Json): string[] {
  const records = (Array.isArray(e.Events) ? e.Events : []) as Json[];
  return records.map((r) => r.OriginOfCondition?.['@odata.id']).filter((u): u is string => typeof u === 'string');
}
