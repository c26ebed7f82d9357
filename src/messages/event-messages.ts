// Typed builders for the event registries the service emits from.
import { messagesOf } from './messages.js';
import { RESOURCE_EVENT_REGISTRY } from './registries/resource-event.js';
import { STORAGE_DEVICE_REGISTRY } from './registries/storage-device.js';
import { TASK_EVENT_REGISTRY } from './registries/task-event.js';
import { VENDOR_RESOURCE_EVENT_REGISTRY } from './registries/vendor-resource-event.js';

export const resourceEvent = messagesOf(RESOURCE_EVENT_REGISTRY);
export const storageDeviceEvent = messagesOf(STORAGE_DEVICE_REGISTRY);
export const taskEvent = messagesOf(TASK_EVENT_REGISTRY);
export const vendorResourceEvent = messagesOf(VENDOR_RESOURCE_EVENT_REGISTRY);
