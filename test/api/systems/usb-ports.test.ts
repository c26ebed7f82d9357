// Issue 28 item 3: the system's USB port connectors (iLO's USBPorts) from the hardware
// profile's USB controller and ports.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const PORTS = '/redfish/v1/Systems/1/USBPorts/';

describe('USB ports', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());
  const get = (path: string) => svc.req('GET', path, { auth: 'basic' });

  it("lists every port of the profile's USB controller, with its location, speed and UEFI path", async () => {
    const usb = svc.running.services.hardware.usb;
    assert.equal((await get('/redfish/v1/Systems/1/')).body.Oem.Hpe.Links.USBPorts['@odata.id'], PORTS);
    const list = await get(`${PORTS}?$expand=.`);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body['@odata.type'], '#HpeUSBPortsCollection.HpeUSBPortsCollection');
    assert.equal(list.body['Members@odata.count'], usb.ports.length);
    const rear = usb.ports.findIndex((p) => p.location === 'Back' && p.speed === 'USB3SuperSpeed');
    const port = list.body.Members[rear];
    assert.equal(port['@odata.type'], '#HpeUSBPort.v2_0_0.HpeUSBPort');
    assert.deepEqual(
      [port.Id, port.Location, port.SpeedCapability, port.InstanceNumber, port.PCIDeviceNumber],
      [String(rear + 1), 'Back', 'USB3SuperSpeed', usb.ports[rear]?.instance, usb.controller.device],
    );
    assert.equal(port.UEFIDevicePath, `PciRoot(0x0)/Pci(0x14,0x0)/USB(0x${usb.ports[rear]?.port.toString(16).toUpperCase()},0x0)`);
    assert.equal((await get(`${PORTS}${usb.ports.length + 1}/`)).status, 404);
  });
});
