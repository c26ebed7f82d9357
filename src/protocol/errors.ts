// The one table of HTTP statuses. Every rule a request can break (a registry
// message key) is answered with the status given here, whoever finds it broken:
// the domain and the simulator report a `Refusal` (messages/refusal.ts), which
// the dispatcher answers with `answerOf`; the protocol and api layers, which
// decide HTTP matters themselves, build `RedfishError`s with the same statuses
// (`baseError`, `vendorError`), and state the rare other status where they do.
import { baseMessage, vendorMessage } from '../messages/errors.js';
import type { ExtendedInfo, MessageArgs, MessageKey } from '../messages/messages.js';
import { Refusal, ruleOf } from '../messages/refusal.js';
import { BASE_REGISTRY } from '../messages/registries/base.js';
import { VENDOR_REGISTRY } from '../messages/registries/vendor.js';

type BaseKey = MessageKey<typeof BASE_REGISTRY>;
type VendorKey = MessageKey<typeof VENDOR_REGISTRY>;

/** HTTP status that goes with each Base message key when it is the reason a request failed. */
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

/** The same for the vendor registry's keys. */
export const VENDOR_STATUS = {
  BiosPasswordNotSettable: 400,
  CertificateInvalid: 400,
  CertificateKeyMismatch: 400,
  CertificateLoginUnavailable: 401,
  CertificateSigningRequestMissing: 400,
  ComponentLocked: 409,
  ComponentNameAmbiguous: 400,
  ComponentNotFlashable: 400,
  ComponentNotFound: 404,
  ComponentSignatureInvalid: 400,
  ComponentSignatureMissing: 400,
  ControlActionRejected: 409,
  ControllerBackupInvalid: 400,
  DriveInUse: 409,
  ExpandLimitExceeded: 400,
  FeatureRequiresLicense: 403,
  FirmwareFlashFailed: 500,
  FirmwareImageInvalid: 400,
  FirmwareUpgradePathBlocked: 400,
  HttpRequestInvalid: 400,
  HttpRequestTimeout: 408,
  ImageDownloadFailed: 502,
  ImageNotApplicable: 400,
  InstallSetRecoveryItemNotAllowed: 400,
  InvalidOperationForSystemState: 400,
  JsonNestingTooDeep: 400,
  LastAdministrator: 409,
  LicenseKeyExpired: 400,
  LicenseKeyInvalid: 400,
  MalformedQuery: 400,
  MethodNotAllowed: 405,
  ODataVersionNotSupported: 412,
  PasswordTooShort: 400,
  RepositoryInsufficientSpace: 413,
  RequestBodyTooLarge: 413,
  SecureBootDatabaseLimit: 400,
  SecureBootDatabaseReadOnly: 400,
  SecureBootEntryExists: 400,
  SecureBootPlatformKeyRequired: 400,
  SecureBootSignaturesNotAccepted: 400,
  SimpleUpdateImageNotSupported: 400,
  SimpleUpdatePackageNotSupported: 400,
  StorageFull: 507,
  TaskInterrupted: 500,
  UnsupportedMediaType: 415,
  UpdateFailed: 500,
  UpdateServiceBusy: 503,
  UpdateTaskFailed: 409,
  UpdateTaskNotCancelable: 409,
  UploadMissingFile: 400,
  UploadParameterNotAllowed: 400,
  UploadSectionOutOfOrder: 400,
} as const satisfies Partial<Record<VendorKey, number>>;

/** Seconds a client waits before asking again, for the rules that say when (Retry-After). */
const RETRY_AFTER_SECONDS: { readonly [K in VendorErrorKey]?: number } = {
  UpdateServiceBusy: 30,
};

export type BaseErrorKey = keyof typeof BASE_STATUS;
export type VendorErrorKey = keyof typeof VENDOR_STATUS;

/** A refusal answered: its status, and headers that go with it. */
export class RedfishError extends Refusal {
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    infos: ExtendedInfo[],
    headers: Record<string, string> = {},
  ) {
    super(infos);
    this.name = 'RedfishError';
    this.headers = headers;
  }

  /** The same messages answered with another status than the table's: an HTTP matter the caller decides and says why. */
  withStatus(status: number): RedfishError {
    return new RedfishError(status, this.infos, this.headers);
  }
}

/** The status of a message when it is the reason a request failed; undefined for one the table lacks. */
export function statusOf(info: ExtendedInfo): number | undefined {
  const { prefix, key } = ruleOf(info);
  if (prefix === BASE_REGISTRY.prefix) return (BASE_STATUS as Partial<Record<string, number>>)[key];
  if (prefix === VENDOR_REGISTRY.prefix) return (VENDOR_STATUS as Partial<Record<string, number>>)[key];
  return undefined;
}

/**
 * The answer to a refusal: its first message's status from the table, and its
 * headers. A RedfishError is answered already; a rule the table lacks is a fault
 * of the service (undefined), which test/protocol/errors.test.ts rules out.
 */
export function answerOf(r: Refusal): RedfishError | undefined {
  if (r instanceof RedfishError) return r;
  const first = r.infos[0];
  const status = first && statusOf(first);
  if (!first || status === undefined) return undefined;
  const { prefix, key } = ruleOf(first);
  const wait = prefix === VENDOR_REGISTRY.prefix ? RETRY_AFTER_SECONDS[key as VendorErrorKey] : undefined;
  return new RedfishError(status, r.infos, wait === undefined ? {} : { 'Retry-After': String(wait) });
}

function answered(r: Refusal): RedfishError {
  const e = answerOf(r);
  if (!e) throw new Error(`no status for ${r.infos[0]?.MessageId}`);
  return e;
}

/** A Base registry failure, with its status from the table. */
export function baseError<K extends BaseErrorKey>(key: K, ...args: MessageArgs<typeof BASE_REGISTRY, K>): RedfishError {
  return answered(new Refusal([baseMessage(key, ...args)]));
}

/** A vendor registry failure, with its status (and headers) from the table. */
export function vendorError<K extends VendorErrorKey>(key: K, ...args: MessageArgs<typeof VENDOR_REGISTRY, K>): RedfishError {
  return answered(new Refusal([vendorMessage(key, ...args)]));
}

/** The controller's file system is full (507 Insufficient Storage): `what` could not be written. */
export function storageFull(what = 'the changes of this request'): RedfishError {
  return vendorError('StorageFull', what);
}

/** Several messages at once; the status and headers are those of the first. */
export function combinedError(errors: readonly RedfishError[]): RedfishError {
  const first = errors[0];
  if (!first) throw new Error('combinedError needs at least one error');
  return new RedfishError(
    first.status,
    errors.flatMap((e) => e.infos),
    first.headers,
  );
}

/** 503 ServiceTemporarilyUnavailable with the Retry-After its message names (a busy, booting or faulted service). */
export function retryLater(seconds: number): RedfishError {
  return new RedfishError(503, baseError('ServiceTemporarilyUnavailable', String(seconds)).infos, { 'Retry-After': String(seconds) });
}
