// The vendor's own message registry (prefix "Vendor"). Areas add the keys they
// emit here, alphabetically; MessageIds read Vendor.1.0.<Key>.
import type { RegistryDef } from '../registry-types.js';

export const VENDOR_REGISTRY = {
  prefix: 'Vendor',
  version: '1.0.0',
  name: 'Vendor Message Registry',
  description: 'Messages of the management controller that the standard registries do not cover.',
  owningEntity: 'Vendor',
  language: 'en',
  messages: {
    ControllerResetRequired: {
      description: 'The change is stored and takes effect after a reset of the management controller.',
      message: 'The change is stored and takes effect after the management controller is reset.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Reset the management controller (Manager.Reset) to apply the change.',
    },
    FeatureRequiresLicense: {
      description: 'The feature needs a license tier that is not installed.',
      message: 'The feature %1 requires a %2 license or higher; the installed tier is %3.',
      severity: 'Warning',
      paramTypes: ['string', 'string', 'string'],
      resolution: 'Install a license key of the required tier through the LicenseService.',
    },
    MalformedQuery: {
      description: 'A query option appears more than once or cannot be parsed.',
      message: 'The query option %1 is malformed: %2',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Correct the query string and resubmit the request.',
    },
    MethodNotAllowed: {
      description: 'The HTTP method is not allowed on the resource; the Allow header lists the methods that are.',
      message: 'The method %1 is not allowed on the resource at %2.',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Use one of the methods listed in the Allow response header.',
    },
    ODataVersionNotSupported: {
      description: 'The OData-Version request header names a version the service does not implement.',
      message: 'The OData-Version %1 is not supported; the service implements OData 4.0.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Send OData-Version: 4.0, or omit the header.',
    },
    RequestBodyTooLarge: {
      description: 'The request body is larger than the service accepts for this resource.',
      message: 'The request body exceeds the limit of %1 bytes.',
      severity: 'Warning',
      paramTypes: ['number'],
      resolution: 'Send a smaller request body.',
    },
    SessionLimitReached: {
      description: 'The number of simultaneous sessions and Basic-authenticated connections reached the configured limit.',
      message: 'The limit of %1 simultaneous sessions and connections has been reached.',
      severity: 'Critical',
      paramTypes: ['number'],
      resolution: 'Log out an existing session or wait for one to expire, then retry.',
    },
    SystemResetRequired: {
      description: 'The pending settings are stored and are applied at the next reset of the server.',
      message: 'One or more properties were changed and will not take effect until the system is reset.',
      severity: 'Warning',
      paramTypes: [],
      resolution: 'Reset the system (ComputerSystem.Reset) to apply the pending settings.',
    },
    UnsupportedMediaType: {
      description: 'The Content-Type of the request is not one the resource accepts.',
      message: 'The media type %1 is not supported for this request; use %2.',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Resubmit the request with a supported Content-Type header.',
    },
  },
} as const satisfies RegistryDef;
