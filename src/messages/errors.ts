// The error catalogue: every Redfish error the service answers is built here,
// with its status fixed per message key and its arguments typed by the registry.
import { BASE_REGISTRY } from './registries/base.js';
import { VENDOR_REGISTRY } from './registries/vendor.js';
import { RedfishError, errorBody, messagesOf, registryId, type ExtendedInfo, type MessageArgs, type MessageKey } from './messages.js';

export const baseMessage = messagesOf(BASE_REGISTRY);
export const vendorMessage = messagesOf(VENDOR_REGISTRY);

type BaseKey = MessageKey<typeof BASE_REGISTRY>;
type VendorKey = MessageKey<typeof VENDOR_REGISTRY>;

/** HTTP status that goes with each message key when it is the reason a request failed. */
export const BASE_STATUS = {
  AccessDenied: 403,
  AccountForSessionNoLongerExists: 401,
  ActionNotSupported: 400,
  ActionParameterDuplicate: 400,
  ActionParameterMissing: 400,
  ActionParameterNotSupported: 400,
  ActionParameterUnknown: 400,
  ActionParameterValueConflict: 400,
  ActionParameterValueError: 400,
  ActionParameterValueFormatError: 400,
  ActionParameterValueNotInList: 400,
  ActionParameterValueTypeError: 400,
  CouldNotEstablishConnection: 502,
  CreateFailedMissingReqProperties: 400,
  CreateLimitReachedForResource: 400,
  EmptyJSON: 400,
  EventSubscriptionLimitExceeded: 400,
  GeneralError: 400,
  InsufficientPrivilege: 403,
  InternalError: 500,
  InvalidJSON: 400,
  InvalidObject: 400,
  InvalidURI: 400,
  MalformedJSON: 400,
  NetworkNameResolutionNotConfigured: 400,
  NetworkNameResolutionNotSupported: 400,
  NoOperation: 400,
  NoValidSession: 401,
  OperationFailed: 502,
  OperationTimeout: 504,
  PasswordChangeRequired: 403,
  PreconditionFailed: 412,
  PreconditionRequired: 428,
  PropertyDuplicate: 400,
  PropertyMissing: 400,
  PropertyNotWritable: 400,
  PropertyUnknown: 400,
  PropertyValueConflict: 400,
  PropertyValueError: 400,
  PropertyValueExternalConflict: 409,
  PropertyValueFormatError: 400,
  PropertyValueIncorrect: 400,
  PropertyValueNotInList: 400,
  PropertyValueOutOfRange: 400,
  PropertyValueResourceConflict: 409,
  PropertyValueTypeError: 400,
  QueryCombinationInvalid: 400,
  QueryNotSupported: 501,
  QueryNotSupportedOnOperation: 400,
  QueryNotSupportedOnResource: 400,
  QueryParameterOutOfRange: 400,
  QueryParameterValueError: 400,
  QueryParameterValueFormatError: 400,
  QueryParameterValueTypeError: 400,
  ResetRequired: 400,
  ResourceAlreadyExists: 409,
  ResourceAtUriInUnknownFormat: 400,
  ResourceAtUriUnauthorized: 401,
  ResourceCannotBeDeleted: 405,
  ResourceCreationConflict: 409,
  ResourceExhaustion: 503,
  ResourceInStandby: 503,
  ResourceInUse: 409,
  ResourceMissingAtURI: 404,
  ResourceNotFound: 404,
  ResourceTypeIncompatible: 400,
  RestrictedPrivilege: 403,
  RestrictedRole: 403,
  ServiceDisabled: 503,
  ServiceInUnknownState: 503,
  ServiceShuttingDown: 503,
  ServiceTemporarilyUnavailable: 503,
  SessionLimitExceeded: 503,
  SessionTerminated: 401,
  SourceDoesNotSupportProtocol: 400,
  StringValueTooLong: 400,
  UnrecognizedRequestBody: 400,
} as const satisfies Partial<Record<BaseKey, number>>;

export type BaseErrorKey = keyof typeof BASE_STATUS;

/** A Base registry failure: the status comes from BASE_STATUS. */
export function baseError<K extends BaseErrorKey>(key: K, ...args: MessageArgs<typeof BASE_REGISTRY, K>): RedfishError {
  return new RedfishError(BASE_STATUS[key], [baseMessage(key, ...args)]);
}

/** A vendor registry failure; the vendor keys have no single natural status, so it is given. */
export function vendorError<K extends VendorKey>(status: number, key: K, ...args: MessageArgs<typeof VENDOR_REGISTRY, K>): RedfishError {
  return new RedfishError(status, [vendorMessage(key, ...args)]);
}

/** The controller's file system is full (507 Insufficient Storage): `what` could not be written. */
export function storageFull(what = 'the changes of this request'): RedfishError {
  return vendorError(507, 'StorageFull', what);
}

/** Several messages at once; the status is that of the first. */
export function combinedError(errors: readonly RedfishError[]): RedfishError {
  const first = errors[0];
  if (!first) throw new Error('combinedError needs at least one error');
  return new RedfishError(
    first.status,
    errors.flatMap((e) => e.infos),
    first.headers,
  );
}

export const GENERAL_ERROR_ID = `${registryId(BASE_REGISTRY)}.GeneralError`;

/** A failure's body: its one message is the code, several are GeneralError. */
export function redfishErrorBody(infos: readonly ExtendedInfo[]): object {
  const only = infos.length === 1 ? infos[0] : undefined;
  return errorBody(infos, only?.MessageId ?? GENERAL_ERROR_ID);
}

/**
 * A success's body with messages (G8): the first message is the code, however many follow,
 * so a success is never coded as an error (iLO codes them all ExtendedInfo).
 */
export function messagesBody(first: ExtendedInfo, ...rest: readonly ExtendedInfo[]): object {
  return errorBody([first, ...rest], first.MessageId);
}

/** Body of a successful write (G8): an error object whose first message, and code, is Success. */
export function successBody(extra: readonly ExtendedInfo[] = []): object {
  return messagesBody(baseMessage('Success'), ...extra);
}

export { RedfishError, type ExtendedInfo };
