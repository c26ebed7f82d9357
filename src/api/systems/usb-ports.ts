// The system's USB port connectors (Systems/{SystemId}/USBPorts/, iLO's HpeUSBPort): one
// member per port the profile's USB controller enumerates, numbered in profile order. Both
// lanes of a USB 3 connector are ports of their own (USB 2 and USB 3 speed), sharing the
// connector's location and instance number. Every port is on the controller's root hub.
import { Priv } from '../../lib/privileges.js';
import { USB_LOCATIONS, USB_SPEEDS, type UsbPortSpec } from '../../platform/hardware/profile.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { collectionOf, commonProps, defineType, ro, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export type UsbPortDeps = Pick<Services, 'uris' | 'hardware'>;

const UsbPortType = defineType({
  name: oemType('USBPort'),
  version: '2.0.0',
  owner: OEM,
  description: 'A USB port of the system: where its connector is, its speed, and the USB controller and port number it is on.',
  properties: {
    ...commonProps,
    InstanceNumber: ro(t.integer()),
    Location: ro(t.enum(USB_LOCATIONS)),
    SpeedCapability: ro(t.enum(USB_SPEEDS)),
    SharedCapability: ro(t.enum(['UnsharedManagement', 'SharedManagementPhysicalSwitch', 'SharedManagementPortAutomaticControl'])),
    PCIBusNumber: ro(t.integer()),
    PCIDeviceNumber: ro(t.integer()),
    PCIFunctionNumber: ro(t.integer()),
    ParentHubInstance: ro(t.integer()),
    UEFIDevicePath: ro(t.string()),
  },
});

type NumberedPort = UsbPortSpec & { id: string };

const hex = (n: number): string => `0x${n.toString(16).toUpperCase()}`;

function handlers(d: UsbPortDeps) {
  const { controller, ports: specs } = d.hardware.usb;
  const ports: NumberedPort[] = specs.map((p, i) => ({ ...p, id: String(i + 1) }));
  const store: MemberStore<NumberedPort, object> = { list: () => ports, get: (id) => ports.find((p) => p.id === id), id: (p) => p.id };
  const portBody = (p: NumberedPort) => ({
    Id: p.id,
    Name: 'USB Port Connector',
    Description: 'USB Port Connector Information',
    InstanceNumber: p.instance,
    Location: p.location,
    SpeedCapability: p.speed,
    // No port of the profiles is shared with the controller's management USB.
    SharedCapability: 'UnsharedManagement',
    PCIBusNumber: controller.bus,
    PCIDeviceNumber: controller.device,
    PCIFunctionNumber: controller.function,
    ParentHubInstance: 0,
    UEFIDevicePath: `PciRoot(${hex(controller.bus)})/Pci(${hex(controller.device)},${hex(controller.function)})/USB(${hex(p.port)},0x0)`,
  });
  return { store, portBody };
}

export function registerUsbPortRoutes(routes: RouteTable, d: UsbPortDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/USBPorts/',
    member: '/redfish/v1/Systems/{SystemId}/USBPorts/{UsbPortId}/',
    type: UsbPortType,
    collectionType: { ...collectionOf(UsbPortType), name: oemType('USBPortsCollection') },
    name: 'USB Port Connectors',
    extra: () => ({ Description: 'USB Port Connectors View' }),
    store: h.store,
    show: h.portBody,
    privileges: { read: Priv.login },
  });
}

/** The system's vendor link to its USB ports. */
export function usbPortsLink(uris: Services['uris']) {
  return { USBPorts: { '@odata.id': uris.system('USBPorts') } };
}
