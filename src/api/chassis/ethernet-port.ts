// One Ethernet port as DMTF's Port shows it: a NIC port of the chassis' adapters, or a port of
// the controller's own (Managers/{id}/DedicatedNetworkPorts/). Both are built here, from the
// state of the interface behind the port, so the two read alike.
import type { ComponentStatus } from '../../platform/hardware/health.js';

export interface EthernetPortState {
  id: string;
  name: string;
  description: string;
  mac: string;
  /** The port's speed: what it runs at with a link, and the most it can. */
  speedMbps: number;
  linkUp: boolean;
  /** The port is switched on (LinkState). */
  enabled: boolean;
  autoNegotiation: boolean;
  status: ComponentStatus;
  /** The EthernetInterface the port carries. */
  ethernetInterface: string;
  location?: ReturnType<typeof portLocation>;
}

/** Where a port is: its connector, by the label printed beside it and its number. */
export function portLocation(serviceLabel: string, ordinal: number) {
  return { PartLocation: { ServiceLabel: serviceLabel, LocationType: 'Connector', LocationOrdinalValue: ordinal } };
}

export function ethernetPortBody(p: EthernetPortState): Record<string, unknown> {
  const gbps = p.speedMbps / 1000;
  const link = p.linkUp;
  return {
    Id: p.id,
    Name: p.name,
    Description: p.description,
    PortId: p.id,
    PortProtocol: 'Ethernet',
    PortType: 'BidirectionalPort',
    LinkNetworkTechnology: 'Ethernet',
    InterfaceEnabled: p.enabled,
    LinkStatus: link ? 'LinkUp' : 'LinkDown',
    LinkState: p.enabled ? 'Enabled' : 'Disabled',
    SignalDetected: link,
    CurrentSpeedGbps: link ? gbps : null,
    MaxSpeedGbps: gbps,
    Width: 1,
    ActiveWidth: link ? 1 : 0,
    LinkConfiguration: [
      {
        AutoSpeedNegotiationCapable: true,
        AutoSpeedNegotiationEnabled: p.autoNegotiation,
        CapableLinkSpeedGbps: [gbps],
        ConfiguredNetworkLinks: [{ ConfiguredLinkSpeedGbps: gbps, ConfiguredWidth: 1 }],
      },
    ],
    Ethernet: { AssociatedMACAddresses: [p.mac] },
    ...(p.location ? { Location: p.location } : {}),
    Status: p.status,
    Links: { EthernetInterfaces: [{ '@odata.id': p.ethernetInterface }] },
  };
}
