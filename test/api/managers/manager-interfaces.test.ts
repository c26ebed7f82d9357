import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const MANAGER = '/redfish/v1/Managers/1/';
const NICS = `${MANAGER}EthernetInterfaces/`;
const NIC = `${NICS}1/`;
const USB_NIC = `${NICS}2/`;
const NP = `${MANAGER}NetworkProtocol/`;
const SERIAL = `${MANAGER}SerialInterfaces/1/`;
const HI = `${MANAGER}HostInterfaces/1/`;

/** An object without its annotations (@Redfish.WriteableProperties...). */
const plain = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('@')));

describe('manager interfaces', () => {
  let svc: TestService;
  const operator = { user: 'operator', password: 'Operator-Pass-1' };
  const reader = { user: 'reader', password: 'Reader-Pass-1' };
  before(async () => {
    svc = await startTestService();
    const accounts = svc.running.services.accounts;
    await accounts.create({ UserName: operator.user, Password: operator.password, RoleId: 'Operator' });
    await accounts.create({ UserName: reader.user, Password: reader.password, RoleId: 'ReadOnly' });
  });
  after(() => svc.close());

  it('the manager links its Ethernet, serial and host interfaces', async () => {
    const m = (await svc.get(MANAGER)).body;
    assert.deepEqual(m.EthernetInterfaces, { '@odata.id': NICS });
    assert.deepEqual(m.SerialInterfaces, { '@odata.id': `${MANAGER}SerialInterfaces/` });
    assert.deepEqual(m.HostInterfaces, { '@odata.id': `${MANAGER}HostInterfaces/` });
    const c = await svc.get(NICS);
    assert.equal(c.status, 200);
    assert.deepEqual(c.body.Members, [{ '@odata.id': NIC }, { '@odata.id': USB_NIC }]);
    assert.equal((await svc.get(`${NICS}3/`)).status, 404);
    assert.equal((await svc.get(`${MANAGER}SerialInterfaces/2/`)).status, 404);
  });

  it('the dedicated NIC (GetManagerNicInventory): stable MAC, link, DHCP address, host name as NetworkProtocol', async () => {
    const r = await svc.get(NIC);
    assert.equal(r.status, 200);
    const n = r.body;
    assert.equal(n['@odata.type'], '#EthernetInterface.v1_12_4.EthernetInterface');
    assert.match(n.MACAddress, /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/);
    assert.equal(parseInt(n.MACAddress.slice(0, 2), 16) & 0x03, 0x02, 'locally administered unicast');
    assert.equal(n.PermanentMACAddress, n.MACAddress);
    assert.equal(n.SpeedMbps, 1000);
    assert.equal(n.FullDuplex, true);
    assert.equal(n.LinkStatus, 'LinkUp');
    assert.equal(n.DHCPv4.DHCPEnabled, true);
    assert.equal(n.IPv4Addresses.length, 1);
    assert.equal(n.IPv4Addresses[0].AddressOrigin, 'DHCP');
    assert.match(n.IPv4Addresses[0].Address, /^10\.\d+\.\d+\.\d+$/);
    assert.equal(n.IPv6Addresses[0].AddressOrigin, 'LinkLocal');
    assert.match(n.IPv6Addresses[0].Address, /^fe80::/);
    assert.equal(n.NameServers.length, 1);
    const np = (await svc.get(NP)).body;
    assert.equal(n.HostName, np.HostName);
    assert.equal(n.FQDN, np.FQDN);
    // The USB NIC differs; both keep their MACs across a restart.
    const usb = (await svc.get(USB_NIC)).body;
    assert.notEqual(usb.MACAddress, n.MACAddress);
    assert.equal(usb.EthernetInterfaceType, 'Virtual');
    assert.deepEqual(usb.Links.HostInterface, { '@odata.id': HI });
    svc = await svc.restart();
    assert.equal((await svc.get(NIC)).body.MACAddress, n.MACAddress);
    assert.equal((await svc.get(USB_NIC)).body.MACAddress, usb.MACAddress);
    assert.deepEqual((await svc.get(NIC)).body.IPv4Addresses, n.IPv4Addresses);
  });

  it("the dedicated port (DedicatedNetworkPorts) is the dedicated NIC's: its MAC, link, speed and state; no shared port", async () => {
    const m = (await svc.get(MANAGER)).body;
    assert.deepEqual(m.DedicatedNetworkPorts, { '@odata.id': `${MANAGER}DedicatedNetworkPorts/` });
    assert.deepEqual(m.SharedNetworkPorts, { '@odata.id': `${MANAGER}SharedNetworkPorts/` });
    const ports = (await svc.get(`${MANAGER}DedicatedNetworkPorts/`)).body;
    assert.deepEqual(ports.Members, [{ '@odata.id': `${MANAGER}DedicatedNetworkPorts/1/` }]);
    const n = (await svc.get(NIC)).body;
    assert.deepEqual(n.Links.Ports, ports.Members);
    const r = await svc.get(`${MANAGER}DedicatedNetworkPorts/1/`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.allow, 'GET, HEAD');
    const p = r.body;
    assert.equal(p['@odata.type'], '#Port.v1_18_0.Port');
    assert.deepEqual(p.Ethernet.AssociatedMACAddresses, [n.MACAddress]);
    assert.deepEqual(
      [p.LinkStatus, p.CurrentSpeedGbps, p.MaxSpeedGbps, p.InterfaceEnabled, p.LinkConfiguration[0].AutoSpeedNegotiationEnabled],
      [n.LinkStatus, n.SpeedMbps / 1000, n.SpeedMbps / 1000, n.InterfaceEnabled, n.AutoNeg],
    );
    assert.deepEqual(p.Status, n.Status);
    assert.deepEqual(p.Links.EthernetInterfaces, [{ '@odata.id': NIC }]);
    assert.deepEqual(p.Location.PartLocation, {
      ServiceLabel: 'Dedicated Management Port',
      LocationType: 'Connector',
      LocationOrdinalValue: 1,
    });
    assert.equal((await svc.get(`${MANAGER}DedicatedNetworkPorts/2/`)).status, 404);
    const shared = await svc.get(`${MANAGER}SharedNetworkPorts/`);
    assert.equal(shared.status, 200);
    assert.deepEqual(shared.body.Members, []);
  });

  it('HostName written on the NIC shows on NetworkProtocol, and the other way round', async () => {
    assert.equal((await svc.req('PATCH', NIC, { body: { HostName: 'mc-rack7' } })).status, 200);
    assert.equal((await svc.get(NP)).body.HostName, 'mc-rack7');
    assert.equal((await svc.get(NP)).body.FQDN, 'mc-rack7');
    assert.equal((await svc.req('PATCH', NP, { body: { HostName: 'mc-rack8' } })).status, 200);
    const n = (await svc.get(NIC)).body;
    assert.equal(n.HostName, 'mc-rack8');
    assert.equal(n.FQDN, 'mc-rack8');
    const bad = await svc.req('PATCH', NIC, { body: { HostName: 'bad_name' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(messageIds(bad.body), ['Base.1.12.PropertyValueFormatError']);
    assert.equal((await svc.get(NP)).body.HostName, 'mc-rack8');
    // The controller always has a name: null (the host OS's when it is down) is refused here.
    const none = await svc.req('PATCH', NIC, { body: { HostName: null } });
    assert.equal(none.status, 400);
    assert.deepEqual(messageIds(none.body), ['Base.1.12.PropertyValueTypeError']);
    assert.equal((await svc.get(NIC)).body.HostName, 'mc-rack8');
  });

  it('static IPv4 and DNS: stored, shown, validated, kept across a restart', async () => {
    const r = await svc.req('PATCH', NIC, {
      body: {
        DHCPv4: { DHCPEnabled: false },
        IPv4StaticAddresses: [{ Address: '192.0.2.10', SubnetMask: '255.255.255.0', Gateway: '192.0.2.1' }],
        StaticNameServers: ['192.0.2.53', '2001:db8::53', ''],
      },
    });
    assert.equal(r.status, 200, r.text);
    svc = await svc.restart();
    const n = (await svc.get(NIC)).body;
    assert.equal(n.DHCPv4.DHCPEnabled, false);
    assert.deepEqual(n.IPv4Addresses, [
      { Address: '192.0.2.10', SubnetMask: '255.255.255.0', AddressOrigin: 'Static', Gateway: '192.0.2.1' },
    ]);
    assert.deepEqual(n.StaticNameServers, ['192.0.2.53', '2001:db8::53']);
    assert.deepEqual(n.NameServers, ['192.0.2.53', '2001:db8::53']);
    assert.deepEqual(n.Oem.Vendor.IPv4.DNSServers, ['192.0.2.53']);
    assert.deepEqual(n.Oem.Vendor.IPv6.DNSServers, ['2001:db8::53']);
    assert.equal(n.Oem.Vendor.DHCPv4.Enabled, false);

    const cases: [unknown, string][] = [
      [{ IPv4StaticAddresses: [{ Address: '192.0.2.300', SubnetMask: '255.255.255.0' }] }, 'Base.1.12.PropertyValueFormatError'],
      [{ IPv4StaticAddresses: [{ Address: '192.0.2.10', SubnetMask: '255.0.255.0' }] }, 'Base.1.12.PropertyValueFormatError'],
      [
        { IPv4StaticAddresses: [{ Address: '192.0.2.10', SubnetMask: '255.255.255.0', Gateway: '198.51.100.1' }] },
        'Base.1.12.PropertyValueConflict',
      ],
      [{ IPv4StaticAddresses: [{ SubnetMask: '255.255.255.0' }] }, 'Base.1.12.PropertyMissing'],
      [{ StaticNameServers: ['dns.example.com'] }, 'Base.1.12.PropertyValueFormatError'],
      [{ StaticNameServers: ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'] }, 'Base.1.12.PropertyValueOutOfRange'],
      // No address would remain with DHCP off.
      [{ IPv4StaticAddresses: [] }, 'Base.1.12.PropertyValueConflict'],
      [{ DHCPv4: { DHCPEnabled: 'no' } }, 'Base.1.12.PropertyValueTypeError'],
      [{ MACAddress: '02:00:00:00:00:01' }, 'Base.1.12.PropertyNotWritable'],
    ];
    for (const [body, id] of cases) {
      const bad = await svc.req('PATCH', NIC, { body });
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.ok(messageIds(bad.body).includes(id), `${JSON.stringify(body)}: ${messageIds(bad.body).join()}`);
    }
    // Nothing of the refused changes stuck.
    const after = (await svc.get(NIC)).body;
    assert.deepEqual(after.IPv4StaticAddresses, n.IPv4StaticAddresses);
    assert.deepEqual(after.StaticNameServers, n.StaticNameServers);

    // Back to DHCP: the lease shows again, with its name server before the static ones.
    assert.equal((await svc.req('PATCH', NIC, { body: { DHCPv4: { DHCPEnabled: true } } })).status, 200);
    const dhcp = (await svc.get(NIC)).body;
    assert.equal(dhcp.IPv4Addresses[0].AddressOrigin, 'DHCP');
    assert.equal(dhcp.NameServers.length, 3);
  });

  it('static IPv6, DHCPv6, SLAAC, the address policy table and the VLAN: factory values, stored, shown, validated, kept across a restart', async () => {
    const before = (await svc.get(NIC)).body;
    assert.deepEqual(plain(before.DHCPv6), {
      OperatingMode: 'Enabled',
      UseDNSServers: true,
      UseDomainName: true,
      UseNTPServers: false,
      UseRapidCommit: false,
    });
    assert.equal(before.DHCPv4.UseStaticRoutes, true);
    assert.deepEqual(plain(before.StatelessAddressAutoConfig), { IPv6AutoConfigEnabled: true });
    assert.deepEqual(before.IPv6StaticAddresses, []);
    assert.equal(before.MaxIPv6StaticAddresses, 4);
    assert.equal(before.IPv6DefaultGateway, '::');
    assert.deepEqual(before.IPv6AddressPolicyTable.map(plain), [{ Prefix: '::ffff:0:0/96', Precedence: 35, Label: null }]);
    assert.deepEqual(plain(before.VLAN), { VLANEnable: false, VLANId: null });

    const r = await svc.req('PATCH', NIC, {
      body: {
        DHCPv4: { UseStaticRoutes: false },
        DHCPv6: { OperatingMode: 'Stateless', UseRapidCommit: true },
        StatelessAddressAutoConfig: { IPv6AutoConfigEnabled: false },
        IPv6StaticAddresses: [{ Address: '2001:db8::10', PrefixLength: 64 }],
        IPv6StaticDefaultGateways: [{ Address: '2001:db8::1' }],
        IPv6AddressPolicyTable: [
          { Prefix: '::1/128', Precedence: 50, Label: 0 },
          { Prefix: '::ffff:0:0/96', Precedence: 35, Label: 4 },
        ],
        VLAN: { VLANEnable: true, VLANId: 42 },
      },
    });
    assert.equal(r.status, 200, r.text);
    svc = await svc.restart();
    const n = (await svc.get(NIC)).body;
    assert.equal(n.DHCPv4.UseStaticRoutes, false);
    assert.equal(n.DHCPv6.OperatingMode, 'Stateless');
    assert.equal(n.DHCPv6.UseRapidCommit, true);
    assert.equal(n.DHCPv6.UseDNSServers, true);
    assert.deepEqual(plain(n.StatelessAddressAutoConfig), { IPv6AutoConfigEnabled: false });
    assert.deepEqual(n.IPv6StaticAddresses.map(plain), [{ Address: '2001:db8::10', PrefixLength: 64 }]);
    assert.ok(n.IPv6Addresses.some((a: any) => a.Address === '2001:db8::10' && a.AddressOrigin === 'Static'));
    assert.deepEqual(n.IPv6StaticDefaultGateways.map(plain), [{ Address: '2001:db8::1' }]);
    assert.equal(n.IPv6DefaultGateway, '2001:db8::1');
    assert.equal(n.IPv6AddressPolicyTable.length, 2);
    assert.deepEqual(plain(n.VLAN), { VLANEnable: true, VLANId: 42 });
    // The vendor's view of the same settings.
    const vendor = n.Oem.Vendor;
    assert.equal(vendor['@odata.type'], '#VendorMCEthernetNetworkInterface.v1_0_0.VendorMCEthernetNetworkInterface');
    assert.equal(vendor.InterfaceType, 'Dedicated');
    assert.equal(vendor.HostName, n.HostName);
    assert.equal(vendor.DHCPv4.Enabled, n.DHCPv4.DHCPEnabled);
    assert.equal(vendor.DHCPv4.UseStaticRoutes, false);
    assert.equal(vendor.DHCPv6.StatefulModeEnabled, false);
    assert.equal(vendor.DHCPv6.StatelessModeEnabled, true);
    assert.equal(vendor.DHCPv6.UseRapidCommit, true);
    assert.equal(vendor.IPv6.SLAACEnabled, false);
    assert.equal(vendor.IPv6.StaticDefaultGateway, '2001:db8::1');
    assert.equal((await svc.get(USB_NIC)).body.Oem.Vendor.InterfaceType, 'HostInterface');

    const cases: [unknown, string][] = [
      [{ IPv6StaticAddresses: [{ Address: '192.0.2.1', PrefixLength: 64 }] }, 'Base.1.12.PropertyValueFormatError'],
      [{ IPv6StaticAddresses: [{ Address: '2001:db8::10' }] }, 'Base.1.12.PropertyMissing'],
      [{ IPv6StaticAddresses: [{ Address: '2001:db8::10', PrefixLength: 129 }] }, 'Base.1.12.PropertyValueOutOfRange'],
      [
        { IPv6StaticAddresses: ['::a', '::b', '::c', '::d', '::e'].map((Address) => ({ Address, PrefixLength: 64 })) },
        'Base.1.12.PropertyValueOutOfRange',
      ],
      [{ IPv6StaticDefaultGateways: [{ Address: '2001:db8::1' }, { Address: '2001:db8::2' }] }, 'Base.1.12.PropertyValueOutOfRange'],
      [{ IPv6AddressPolicyTable: [{ Prefix: '2001:db8::/200', Precedence: 10 }] }, 'Base.1.12.PropertyValueFormatError'],
      [{ IPv6AddressPolicyTable: [{ Prefix: '::1/128' }] }, 'Base.1.12.PropertyMissing'],
      [{ DHCPv6: { OperatingMode: 'Sometimes' } }, 'Base.1.12.PropertyValueNotInList'],
      [{ VLAN: { VLANId: 4095 } }, 'Base.1.12.PropertyValueOutOfRange'],
      [{ VLAN: { VLANEnable: true, VLANId: null } }, 'Base.1.12.PropertyValueConflict'],
      [{ IPv6DefaultGateway: '2001:db8::1' }, 'Base.1.12.PropertyNotWritable'],
    ];
    for (const [body, id] of cases) {
      const bad = await svc.req('PATCH', NIC, { body });
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.ok(messageIds(bad.body).includes(id), `${JSON.stringify(body)}: ${messageIds(bad.body).join()}`);
    }
    assert.deepEqual(plain((await svc.get(NIC)).body.VLAN), { VLANEnable: true, VLANId: 42 });

    // Manager.ResetToDefaults (network) puts the factory values back.
    const reset = await svc.req('POST', `${MANAGER}Actions/Manager.ResetToDefaults/`, { body: { ResetType: 'ResetAll' } });
    assert.equal(reset.status, 200, reset.text);
    svc = await svc.restart();
    const factory = (await svc.get(NIC)).body;
    assert.deepEqual(factory.VLAN, before.VLAN);
    assert.deepEqual(factory.IPv6StaticAddresses, []);
    assert.deepEqual(factory.DHCPv6, before.DHCPv6);
    // The reset took the users the other tests read with.
    const accounts = svc.running.services.accounts;
    await accounts.create({ UserName: operator.user, Password: operator.password, RoleId: 'Operator' });
    await accounts.create({ UserName: reader.user, Password: reader.password, RoleId: 'ReadOnly' });
  });

  it('the host interface NIC is not writable', async () => {
    const r = await svc.req('PATCH', USB_NIC, { body: { HostName: 'x' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyNotWritable']);
  });

  it('SerialInterface: 115200 8N1 by default, writable within the allowed values, kept across a restart', async () => {
    const s = (await svc.get(SERIAL)).body;
    assert.equal(s['@odata.type'], '#SerialInterface.v1_3_0.SerialInterface');
    assert.deepEqual(
      [s.InterfaceEnabled, s.SignalType, s.BitRate, s.Parity, s.DataBits, s.StopBits, s.FlowControl, s.ConnectorType],
      [true, 'Rs232', '115200', 'None', '8', '1', 'None', 'DB9 Male'],
    );
    assert.equal((await svc.req('PATCH', SERIAL, { body: { BitRate: '9600', Parity: 'Even', FlowControl: 'Hardware' } })).status, 200);
    const bad = await svc.req('PATCH', SERIAL, { body: { BitRate: '1200' } });
    assert.equal(bad.status, 400);
    assert.deepEqual(messageIds(bad.body), ['Base.1.12.PropertyValueNotInList']);
    const ro = await svc.req('PATCH', SERIAL, { body: { SignalType: 'Rs485' } });
    assert.equal(ro.status, 400);
    svc = await svc.restart();
    const got = (await svc.get(SERIAL)).body;
    assert.deepEqual([got.BitRate, got.Parity, got.FlowControl, got.SignalType], ['9600', 'Even', 'Hardware', 'Rs232']);
  });

  it('HostInterface: a network host interface not reachable from outside; InterfaceEnabled writable and kept', async () => {
    const h = (await svc.get(HI)).body;
    assert.equal(h['@odata.type'], '#HostInterface.v1_3_3.HostInterface');
    assert.equal(h.HostInterfaceType, 'NetworkHostInterface');
    assert.equal(h.ExternallyAccessible, false);
    assert.equal(h.InterfaceEnabled, true);
    assert.deepEqual(h.AuthenticationModes, ['BasicAuth', 'RedfishSessionAuth']);
    assert.deepEqual(h.ManagerEthernetInterface, { '@odata.id': USB_NIC });
    assert.deepEqual(h.NetworkProtocol, { '@odata.id': NP });
    assert.equal((await svc.req('PATCH', HI, { body: { InterfaceEnabled: false } })).status, 200);
    svc = await svc.restart();
    assert.equal((await svc.get(HI)).body.InterfaceEnabled, false);
    assert.equal((await svc.get(HI)).body.Status.State, 'Disabled');
    const usb = (await svc.get(USB_NIC)).body;
    assert.equal(usb.InterfaceEnabled, false);
    assert.equal(usb.LinkStatus, 'LinkDown');
    assert.deepEqual(usb.IPv4Addresses, []);
    assert.equal((await svc.req('PATCH', HI, { body: { ExternallyAccessible: true } })).status, 400);
    assert.equal((await svc.req('PATCH', HI, { body: { InterfaceEnabled: true } })).status, 200);
  });

  it('Operator and ReadOnly users read the interfaces but change none of them (ConfigureManager)', async () => {
    for (const auth of [operator, reader]) {
      for (const uri of [NIC, SERIAL, HI]) assert.equal((await svc.get(uri, { auth })).status, 200);
      assert.equal((await svc.req('PATCH', NIC, { body: { StaticNameServers: [] }, auth })).status, 403);
      assert.equal((await svc.req('PATCH', SERIAL, { body: { BitRate: '19200' }, auth })).status, 403);
      assert.equal((await svc.req('PATCH', HI, { body: { InterfaceEnabled: false }, auth })).status, 403);
    }
    assert.equal((await svc.get(SERIAL)).body.BitRate, '9600');
    assert.equal((await svc.get(HI)).body.InterfaceEnabled, true);
  });
});
