// Resource descriptions of the chassis' hardware inventory: network adapters
// and their ports, PCIe devices and their functions, from the hardware profile.
// Everything is read-only.
import { PCIE_CLASSES } from '../../platform/hardware/profile.js';
import { commonProps, defineType, ro, statusProp, locationProp, t } from '../../protocol/description.js';

/** DMTF's PCIeInterface: a PCIe device's or storage controller's link. */
export const pcieInterfaceProp = ro(
  t.object(
    {
      PCIeType: ro(t.enum(['Gen1', 'Gen2', 'Gen3', 'Gen4', 'Gen5', 'Gen6'])),
      MaxPCIeType: ro(t.enum(['Gen1', 'Gen2', 'Gen3', 'Gen4', 'Gen5', 'Gen6'])),
      LanesInUse: ro(t.integer()),
      MaxLanes: ro(t.integer()),
    },
    { typeName: 'PCIeInterface' },
  ),
);

export const PortType = defineType({
  name: 'Port',
  version: '1.18.0',
  owner: 'DMTF',
  description: "A port of a network adapter (its link and the MAC address the system sees on it) or an array controller's drive connector.",
  properties: {
    ...commonProps,
    PortId: ro(t.string()),
    PortProtocol: ro(t.enum(['Ethernet', 'SAS', 'SATA'])),
    // A NIC port both sends and receives; an array controller's connector leads down to its drives.
    PortType: ro(t.enum(['BidirectionalPort', 'DownstreamPort'])),
    PortMedium: ro(t.enum(['Electrical', 'Optical'])),
    LinkStatus: ro(t.enum(['LinkUp', 'LinkDown', 'NoLink', 'Starting', 'Training'])),
    LinkState: ro(t.enum(['Enabled', 'Disabled'])),
    CurrentSpeedGbps: ro(t.number({ units: 'Gbit/s', nullable: true })),
    MaxSpeedGbps: ro(t.number({ units: 'Gbit/s' })),
    Width: ro(t.integer()),
    ActiveWidth: ro(t.integer()),
    InterfaceEnabled: ro(t.boolean()),
    SignalDetected: ro(t.boolean()),
    LinkNetworkTechnology: ro(t.enum(['Ethernet'])),
    LinkConfiguration: ro(
      t.array(
        t.object(
          {
            AutoSpeedNegotiationCapable: ro(t.boolean()),
            AutoSpeedNegotiationEnabled: ro(t.boolean()),
            CapableLinkSpeedGbps: ro(t.array(t.number({ units: 'Gbit/s' }))),
            ConfiguredNetworkLinks: ro(
              t.array(
                t.object(
                  { ConfiguredLinkSpeedGbps: ro(t.number({ units: 'Gbit/s' })), ConfiguredWidth: ro(t.integer()) },
                  { typeName: 'ConfiguredNetworkLink' },
                ),
              ),
            ),
          },
          { typeName: 'LinkConfiguration' },
        ),
      ),
    ),
    Ethernet: ro(t.object({ AssociatedMACAddresses: ro(t.array(t.string())) }, { typeName: 'EthernetProperties' })),
    Location: locationProp,
    Status: statusProp,
    Links: ro(t.object({ EthernetInterfaces: t.links({ readOnly: true }) }, { typeName: 'Links' })),
  },
});

export const NetworkDeviceFunctionType = defineType({
  name: 'NetworkDeviceFunction',
  version: '1.11.1',
  owner: 'DMTF',
  description: 'A function of a network adapter the system sees: one Ethernet function per port, its MAC address and boot mode.',
  properties: {
    ...commonProps,
    Status: statusProp,
    NetDevFuncType: ro(t.enum(['Ethernet'])),
    NetDevFuncCapabilities: ro(t.array(t.enum(['Ethernet']))),
    DeviceEnabled: ro(t.boolean()),
    BootMode: ro(t.enum(['Disabled', 'PXE'])),
    Ethernet: ro(
      t.object(
        { MACAddress: ro(t.string()), PermanentMACAddress: ro(t.string()), MTUSize: ro(t.integer({ units: 'By' })) },
        { typeName: 'Ethernet' },
      ),
    ),
    AssignablePhysicalNetworkPorts: t.links({ readOnly: true }),
    Links: ro(
      t.object(
        {
          PhysicalNetworkPortAssignment: t.link({ readOnly: true }),
          EthernetInterfaces: t.links({ readOnly: true }),
          PCIeFunction: t.link({ readOnly: true }),
        },
        { typeName: 'Links' },
      ),
    ),
  },
});

export const NetworkAdapterType = defineType({
  name: 'NetworkAdapter',
  version: '1.14.0',
  owner: 'DMTF',
  description: 'A network adapter (embedded or in a PCIe slot) of the chassis.',
  properties: {
    ...commonProps,
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    PartNumber: ro(t.string()),
    SerialNumber: ro(t.string()),
    Status: statusProp,
    Location: locationProp,
    Ports: t.link({ readOnly: true }),
    NetworkDeviceFunctions: t.link({ readOnly: true }),
    Controllers: ro(
      t.array(
        t.object(
          {
            FirmwarePackageVersion: ro(t.string()),
            ControllerCapabilities: ro(
              t.object(
                { NetworkPortCount: ro(t.integer()), NetworkDeviceFunctionCount: ro(t.integer()) },
                { typeName: 'ControllerCapabilities' },
              ),
            ),
            Links: ro(
              t.object(
                {
                  PCIeDevices: t.links({ readOnly: true }),
                  Ports: t.links({ readOnly: true }),
                  NetworkDeviceFunctions: t.links({ readOnly: true }),
                },
                { typeName: 'ControllerLinks' },
              ),
            ),
          },
          { typeName: 'Controllers' },
        ),
      ),
    ),
  },
});

export const PCIeFunctionType = defineType({
  name: 'PCIeFunction',
  version: '1.7.0',
  owner: 'DMTF',
  description: 'A function of a PCIe device: its class and identifiers.',
  properties: {
    ...commonProps,
    FunctionId: ro(t.integer()),
    FunctionType: ro(t.enum(['Physical', 'Virtual'])),
    DeviceClass: ro(t.enum(PCIE_CLASSES)),
    VendorId: ro(t.string()),
    DeviceId: ro(t.string()),
    SubsystemVendorId: ro(t.string()),
    SubsystemId: ro(t.string()),
    ClassCode: ro(t.string()),
    RevisionId: ro(t.string()),
    Status: statusProp,
    Links: ro(t.object({ PCIeDevice: t.link({ readOnly: true }), EthernetInterfaces: t.links({ readOnly: true }) }, { typeName: 'Links' })),
  },
});

export const PCIeDeviceType = defineType({
  name: 'PCIeDevice',
  version: '1.21.0',
  owner: 'DMTF',
  description: 'A PCIe device of the chassis (an adapter in a slot, or an embedded controller).',
  properties: {
    ...commonProps,
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    PartNumber: ro(t.string()),
    SerialNumber: ro(t.string()),
    DeviceType: ro(t.enum(['SingleFunction', 'MultiFunction'])),
    FirmwareVersion: ro(t.string()),
    PCIeInterface: pcieInterfaceProp,
    Slot: ro(t.object({ Location: locationProp }, { typeName: 'Slot' })),
    Status: statusProp,
    PCIeFunctions: t.link({ readOnly: true }),
    Links: ro(t.object({ Chassis: t.links({ readOnly: true }) }, { typeName: 'Links' })),
  },
});
