// What the domain and the simulator report when a request breaks one of their
// rules: the rule (a registry message key) and its arguments, with the
// property it is about. No HTTP: the protocol layer's one table gives each
// rule its status (protocol/errors.ts), and the dispatcher answers with it.
import { baseMessage, vendorMessage } from './errors.js';
import { toJsonPointer, type ExtendedInfo, type MessageArgs, type MessageKey } from './messages.js';
import type { BASE_REGISTRY } from './registries/base.js';
import type { VENDOR_REGISTRY } from './registries/vendor.js';

/** A broken rule: its messages, the first of which names the rule. */
export class Refusal extends Error {
  constructor(readonly infos: ExtendedInfo[]) {
    super(infos.map((i) => i.Message).join(' '));
    this.name = 'Refusal';
  }

  /** The registry key of the rule it reports: its first message's ("PropertyMissing"). */
  get rule(): string {
    const first = this.infos[0];
    return first ? ruleOf(first).key : '';
  }

  /** Tag the messages with the property they concern. */
  about(property: string): this {
    for (const i of this.infos) i.RelatedProperties = [toJsonPointer(property)];
    return this;
  }
}

/** A Base registry rule broken; keys and arguments are checked against the registry. */
export function baseRefusal<K extends MessageKey<typeof BASE_REGISTRY>>(key: K, ...args: MessageArgs<typeof BASE_REGISTRY, K>): Refusal {
  return new Refusal([baseMessage(key, ...args)]);
}

/** A vendor registry rule broken. */
export function vendorRefusal<K extends MessageKey<typeof VENDOR_REGISTRY>>(
  key: K,
  ...args: MessageArgs<typeof VENDOR_REGISTRY, K>
): Refusal {
  return new Refusal([vendorMessage(key, ...args)]);
}

/** Several broken rules reported at once; the first one's rule decides the answer. */
export function refusals(list: readonly Refusal[]): Refusal {
  if (!list[0]) throw new Error('refusals needs at least one');
  return new Refusal(list.flatMap((r) => r.infos));
}

/** The registry prefix and key of a message ("Base", "PropertyMissing"). */
export function ruleOf(info: ExtendedInfo): { prefix: string; key: string } {
  const parts = info.MessageId.split('.');
  return { prefix: parts[0] ?? '', key: parts[parts.length - 1] ?? '' };
}
