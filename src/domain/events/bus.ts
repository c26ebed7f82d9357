// In-process event bus. Every area publishes what happens (power changes,
// settings applied, resources created...) here; the event service delivers it.
import type { Logger } from 'pino';
import type { ExtendedInfo } from '../../messages/messages.js';
import type { Clock } from '../../platform/clock.js';

export type EventType = 'Alert' | 'ResourceAdded' | 'ResourceRemoved' | 'ResourceUpdated' | 'StatusChange' | 'Other';

export interface ServiceEvent {
  /** Monotonic within this process; the event service assigns durable ids. */
  seq: number;
  timestamp: number;
  eventType: EventType;
  message: ExtendedInfo;
  /** URI of the resource the event is about. */
  origin?: string;
}

export type EventListener = (event: ServiceEvent) => void;

export class EventBus {
  private seq = 0;
  private readonly listeners: EventListener[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  publish(message: ExtendedInfo, origin?: string, eventType: EventType = 'Alert'): ServiceEvent {
    const event: ServiceEvent = { seq: ++this.seq, timestamp: this.clock.now(), eventType, message, origin };
    for (const fn of this.listeners) {
      try {
        fn(event);
      } catch (err) {
        // A failing listener must not break the publisher or the other listeners.
        this.log.error({ err, messageId: message.MessageId, origin }, 'event listener failed');
      }
    }
    return event;
  }

  subscribe(fn: EventListener): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}
