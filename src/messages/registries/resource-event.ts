// DMTF's Resource Event message registry 1.4 (ResourceEvent.1.4.3, DSP8011) expressed as data.
import type { RegistryDef } from '../registry-types.js';

export const RESOURCE_EVENT_REGISTRY = {
  prefix: 'ResourceEvent',
  version: '1.4.3',
  name: 'Resource Event Message Registry',
  description: 'This registry defines the messages to use for resource events.',
  owningEntity: 'DMTF',
  language: 'en',
  messages: {
    AggregationSourceDiscovered: {
      description: 'Indicates that a new aggregation source was discovered.',
      message: "An aggregation source of connection method '%1' located at '%2' was discovered.",
      severity: 'OK',
      paramTypes: ['string', 'string'],
      resolution: 'The aggregation source is available to the service and can be identified using the identified connection method.',
    },
    LicenseAdded: {
      description: 'Indicates that a license was added.',
      message: "A license for '%1' was added.  The following message was returned: '%2'.",
      severity: 'OK',
      paramTypes: ['string', 'string'],
      resolution: 'See vendor specific instructions for specific actions.',
    },
    LicenseChanged: {
      description: 'Indicates that a license has changed.',
      message: "A license for '%1' has changed.  The following message was returned: '%2'.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'See vendor specific instructions for specific actions.',
    },
    LicenseExpired: {
      description: 'Indicates that a license has expired.',
      message: "A license for '%1' has expired.  The following message was returned: '%2'.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'See vendor specific instructions for specific actions.',
    },
    PropertyValueModifiedByClient: {
      description: 'Indicates that the value of a property was modified by a client.',
      message: "The property %1 was assigned the value '%2' due to modification by a client.",
      severity: 'OK',
      paramTypes: ['string', 'string'],
      resolution: 'No resolution is required.',
    },
    ResourceChanged: {
      description:
        'Indicates that one or more resource properties have changed.  This is not used whenever there is another event message for that specific change, such as when only the state has changed.',
      message: 'One or more resource properties have changed.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'None.',
    },
    ResourceCreated: {
      description: 'Indicates that all conditions of a successful creation operation were met.',
      message: 'The resource was created successfully.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'None.',
    },
    ResourceErrorThresholdCleared: {
      description:
        'Indicates that a specified resource property has cleared its error threshold.  Examples of this are drive I/O errors or network link errors.',
      message: 'The resource property %1 has cleared the error threshold of value %2.',
      severity: 'OK',
      paramTypes: ['string', 'number'],
      resolution: 'None.',
    },
    ResourceErrorThresholdExceeded: {
      description:
        'Indicates that a specified resource property has exceeded its error threshold.  Examples of this are drive I/O errors or network link errors.',
      message: 'The resource property %1 has exceeded error threshold of value %2.',
      severity: 'Critical',
      paramTypes: ['string', 'number'],
      resolution: 'None.',
    },
    ResourceErrorsCorrected: {
      description:
        'Indicates that a specified resource property has corrected errors.  Examples of this are drive I/O errors or network link errors.',
      message: "The resource property %1 has corrected errors of type '%2'.",
      severity: 'OK',
      paramTypes: ['string', 'string'],
      resolution: 'None.',
    },
    ResourceErrorsDetected: {
      description:
        'Indicates that a specified resource property has detected errors.  Examples of this are drive I/O errors or network link errors.',
      message: "The resource property %1 has detected errors of type '%2'.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Resolution is dependent upon error type.',
    },
    ResourcePaused: {
      description: 'Indicates that the power state of a resource has changed to paused.',
      message: "The resource '%1' was paused.",
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    ResourcePoweredOff: {
      description: 'Indicates that the power state of a resource has changed to powered off.',
      message: "The resource '%1' has powered off.",
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    ResourcePoweredOn: {
      description: 'Indicates that the power state of a resource has changed to powered on.',
      message: "The resource '%1' has powered on.",
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    ResourcePoweringOff: {
      description: 'Indicates that the power state of a resource has changed to powering off.',
      message: "The resource '%1' is powering off.",
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    ResourcePoweringOn: {
      description: 'Indicates that the power state of a resource has changed to powering on.',
      message: "The resource '%1' is powering on.",
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    ResourceRemoved: {
      description: 'Indicates that all conditions of a successful remove operation were met.',
      message: 'The resource was removed successfully.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'None.',
    },
    ResourceSelfTestCompleted: {
      description: 'Indicates that a self-test has completed.',
      message: 'A self-test has completed.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'None.',
    },
    ResourceSelfTestFailed: {
      description: 'Indicates that a self-test has failed.  Suggested resolution may be provided as OEM data.',
      message: "A self-test has failed.  The following message was returned: '%1'.",
      severity: 'Critical',
      paramTypes: ['string'],
      resolution: 'See vendor specific instructions for specific actions.',
    },
    ResourceStateChanged: {
      description: 'Indicates that the state of a resource has changed.',
      message: "The state of resource '%1' has changed to %2.",
      severity: 'OK',
      paramTypes: ['string', 'string'],
      resolution: 'None.',
    },
    ResourceStatusChangedCritical: {
      description: 'Indicates that the health of a resource has changed to Critical.',
      message: "The health of resource '%1' has changed to %2.",
      severity: 'Critical',
      paramTypes: ['string', 'string'],
      resolution: 'None.',
    },
    ResourceStatusChangedOK: {
      description: 'Indicates that the health of a resource has changed to OK.',
      message: "The health of resource '%1' has changed to %2.",
      severity: 'OK',
      paramTypes: ['string', 'string'],
      resolution: 'None.',
    },
    ResourceStatusChangedWarning: {
      description: 'Indicates that the health of a resource has changed to Warning.',
      message: "The health of resource '%1' has changed to %2.",
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'None.',
    },
    ResourceVersionIncompatible: {
      description:
        'Indicates that an incompatible version of software was detected.  Examples of this are after a component or system-level software update.',
      message: "An incompatible version of software '%1' was detected.",
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Compare the version of the resource with the compatible version of the software.',
    },
    ResourceWarningThresholdCleared: {
      description:
        'Indicates that a specified resource property has cleared its warning threshold.  Examples of this are drive I/O errors or network link errors.  Suggested resolution may be provided as OEM data.',
      message: 'The resource property %1 has cleared the warning threshold of value %2.',
      severity: 'OK',
      paramTypes: ['string', 'number'],
      resolution: 'None.',
    },
    ResourceWarningThresholdExceeded: {
      description:
        'Indicates that a specified resource property has exceeded its warning threshold.  Examples of this are drive I/O errors or network link errors.  Suggested resolution may be provided as OEM data.',
      message: 'The resource property %1 has exceeded its warning threshold of value %2.',
      severity: 'Warning',
      paramTypes: ['string', 'number'],
      resolution: 'None.',
    },
    TestMessage: {
      description: 'A test message used to validate event delivery mechanisms.',
      message: 'Test message.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'None.',
    },
    URIForResourceChanged: {
      description:
        'Indicates that the URI for a resource has changed.  Examples of this are physical component replacement or redistribution.',
      message: 'The URI for the resource has changed.',
      severity: 'OK',
      paramTypes: [],
      resolution: 'None.',
    },
  },
} as const satisfies RegistryDef;
