// The request inspector (--enable-control): the log of answered requests, and the
// pipeline hook that fills it. What the inspector serves about itself is not kept
// (reading it would fill it).
import { Readable } from 'node:stream';
import { ActivityLog, DEFAULT_ACTIVITY_LIMITS } from '../domain/control/activity.js';
import type { BodySource, Outgoing } from '../protocol/exchange.js';
import type { PipelineHooks } from '../protocol/pipeline.js';
import type { Base } from './base.js';

const INSPECTOR = /^\/control\/activity(\/|\?|$)/i;
const TEXT = /json|text|xml/i;

export function buildActivity(b: Base): ActivityLog {
  return new ActivityLog(b.clock, { ...DEFAULT_ACTIVITY_LIMITS, entries: b.config.activitySize });
}

/** The pipeline's onRequest hook: each request's body as the pipeline reads it, and its answer, into the log. */
export function recordRequests(activity: ActivityLog): NonNullable<PipelineHooks['onRequest']> {
  return (req) => {
    if (INSPECTOR.test(req.url)) return undefined;
    const started = performance.now();
    const body = seenBody(req.body);
    req.body = body.source;
    return (out: Outgoing) => {
      const streamed = out.stream !== undefined || out.body instanceof Readable;
      const type = out.headers['Content-Type'] ?? '';
      activity.record({
        method: req.method,
        uri: req.url,
        user: req.user,
        status: out.status,
        durationMs: performance.now() - started,
        requestHeaders: req.headers,
        requestBody: body.text,
        requestStreamed: body.streamed,
        responseHeaders: out.headers,
        responseBody: !streamed && TEXT.test(type) ? (out.body as string | Buffer | undefined) : undefined,
        responseStreamed: streamed || undefined,
      });
    };
  };
}

/** A body source that remembers the text the pipeline read, or that it handed the body on as a stream. */
function seenBody(source: BodySource): { source: BodySource; text?: string; streamed?: boolean } {
  const seen: { source: BodySource; text?: string; streamed?: boolean } = {
    source: {
      present: source.present,
      text(limit) {
        const t = source.text(limit);
        if (t instanceof Promise) return t.then((v) => (seen.text = v));
        seen.text = t;
        return t;
      },
      stream() {
        seen.streamed = true;
        return source.stream();
      },
    },
  };
  return seen;
}
