// The messages of both registries the service answers with, typed by the
// registry, and the bodies that carry them. Statuses are no concern of this
// layer: protocol/errors.ts holds them.
import { BASE_REGISTRY } from './registries/base.js';
import { VENDOR_REGISTRY } from './registries/vendor.js';
import { errorBody, messagesOf, registryId, type ExtendedInfo } from './messages.js';

export const baseMessage = messagesOf(BASE_REGISTRY);
export const vendorMessage = messagesOf(VENDOR_REGISTRY);

export const GENERAL_ERROR_ID = `${registryId(BASE_REGISTRY)}.GeneralError`;

/** A failure's body: its one message is the code, several are GeneralError. */
export function redfishErrorBody(infos: readonly ExtendedInfo[]): object {
  const only = infos.length === 1 ? infos[0] : undefined;
  return errorBody(infos, only?.MessageId ?? GENERAL_ERROR_ID);
}

/**
 * A success's body with messages: the first message is the code, however many follow,
 * so a success is never coded as an error (iLO codes them all ExtendedInfo).
 */
export function messagesBody(first: ExtendedInfo, ...rest: readonly ExtendedInfo[]): object {
  return errorBody([first, ...rest], first.MessageId);
}

/** Body of a successful write: an error object whose first message, and code, is Success. */
export function successBody(extra: readonly ExtendedInfo[] = []): object {
  return messagesBody(baseMessage('Success'), ...extra);
}

export type { ExtendedInfo };
