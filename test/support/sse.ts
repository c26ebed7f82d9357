// A small SSE client for tests: opens /redfish/v1/EventService/SSE/ on a
// connection of its own, with a session token or Basic credentials, and
// records the events and the end of the stream.
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { basic, type TestService } from './service.js';

export const SSE_URI = '/redfish/v1/EventService/SSE/';

export class SseStream {
  readonly events: any[] = [];
  ended = false;
  /** The whole body of a refusal (not a stream). */
  text = '';
  private buffer = '';

  private constructor(
    readonly res: IncomingMessage,
    private readonly destroy: () => void,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (res.statusCode !== 200) {
        this.text += chunk;
        return;
      }
      this.buffer += chunk;
      let cut: number;
      while ((cut = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, cut);
        this.buffer = this.buffer.slice(cut + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6));
        if (data.length) this.events.push(JSON.parse(data.join('\n')));
      }
    });
    res.on('end', () => (this.ended = true));
    res.on('close', () => (this.ended = true));
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  /** The parsed error body of a refused stream, once it has been read. */
  body(): any {
    return this.text ? JSON.parse(this.text) : undefined;
  }

  close(): void {
    this.destroy();
  }

  /** Open a stream (the event service's, or another) with a session token or Basic credentials, each on a new connection. */
  static open(
    svc: Pick<TestService, 'url'>,
    auth: { token: string } | { user: string; password: string },
    uri = SSE_URI,
    extraHeaders: Record<string, string> = {},
  ): Promise<SseStream> {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...extraHeaders };
    if ('token' in auth) headers['x-auth-token'] = auth.token;
    else headers.authorization = basic(auth.user, auth.password);
    return new Promise((resolve, reject) => {
      const req = httpsRequest(new URL(`${svc.url}${uri}`), { rejectUnauthorized: false, agent: false, headers }, (res) =>
        resolve(new SseStream(res, () => req.destroy())),
      );
      req.on('error', reject);
      req.end();
    });
  }
}
