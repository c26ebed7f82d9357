// The vendor's resource-event registry (iLO's "iLOResourceEvents" style): events
// about the controller's own resources that DMTF's ResourceEvent does not name.
import type { RegistryDef } from '../registry-types.js';

export const VENDOR_RESOURCE_EVENT_REGISTRY = {
  prefix: 'VendorResourceEvents',
  version: '1.0.0',
  name: 'Vendor Resource Event Message Registry',
  description: 'Events about user accounts, sessions, event subscriptions, firmware and sensors of the management controller.',
  owningEntity: 'Vendor',
  language: 'en',
  messages: {
    AccountCreated: {
      description: 'A user account was created.',
      message: 'The user account %1 was created.',
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    AccountLocked: {
      description: 'A user account was locked after repeated failed logins.',
      message: 'The user account %1 was locked.',
      severity: 'Warning',
      paramTypes: ['string'],
      resolution: 'Wait for the lockout to end or have an administrator unlock the account.',
    },
    AccountModified: {
      description: 'The role, privileges, password or state of a user account changed.',
      message: 'The user account %1 was modified.',
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    AccountRemoved: {
      description: 'A user account was deleted.',
      message: 'The user account %1 was removed.',
      severity: 'OK',
      paramTypes: ['string'],
      resolution: 'None.',
    },
    EventSubscriptionSuspended: {
      description: 'Deliveries to an event subscription failed after every retry and the subscription was suspended; its events are kept.',
      message: 'The event subscription %1 was suspended after deliveries to %2 failed.',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution:
        'Make the listener reachable, then resume the subscription (EventDestination.ResumeSubscription or PATCH Status/State to Enabled).',
    },
    EventSubscriptionTerminated: {
      description: 'Deliveries to an event subscription failed after every retry and the subscription was removed.',
      message: 'The event subscription %1 was removed after deliveries to %2 failed.',
      severity: 'Warning',
      paramTypes: ['string', 'string'],
      resolution: 'Make the listener reachable and subscribe again.',
    },
    FirmwareFlashed: {
      description: 'A firmware image was written to a device.',
      message: 'The firmware of %1 was updated to version %2.',
      severity: 'OK',
      paramTypes: ['string', 'string'],
      resolution: 'None.',
    },
    SessionEnded: {
      description: 'A login session ended: logout, inactivity time-out, account change or controller reset.',
      message: 'The session of user %1 ended (%2).',
      severity: 'OK',
      paramTypes: ['string', 'string'],
      resolution: 'None.',
    },
    TemperatureThresholdExceeded: {
      description: 'A temperature reading crossed a user threshold.',
      message: 'The temperature sensor %1 reads %2 Celsius, above its %3 threshold.',
      severity: 'Warning',
      paramTypes: ['string', 'number', 'string'],
      resolution: 'Check the cooling of the server.',
    },
  },
} as const satisfies RegistryDef;
