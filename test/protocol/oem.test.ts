import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineType, oem, t } from '../../src/protocol/description.js';
import { stampVendorTypes } from '../../src/protocol/oem.js';

const Fan = defineType({ name: 'VendorFan', version: '1.0.0', owner: 'Vendor', description: 'x', properties: { Speed: t.integer() } });
const Chassis = defineType({ name: 'VendorBox', version: '1.2.0', owner: 'Vendor', description: 'x', properties: { Tag: t.string() } });
const props = {
  Oem: oem(Chassis),
  Fans: t.array(t.object({ Name: t.string(), Oem: oem(Fan) })),
  Plain: t.object({ A: t.integer() }),
};

describe('stampVendorTypes', () => {
  it('adds @odata.type to vendor objects, also inside arrays, without touching the input', () => {
    const body = { Oem: { Vendor: { Tag: 'x' } }, Fans: [{ Name: 'f', Oem: { Vendor: { Speed: 1 } } }], Plain: { A: 1 } };
    const out = stampVendorTypes(body, props) as any;
    assert.equal(out.Oem.Vendor['@odata.type'], '#VendorBox.v1_2_0.VendorBox');
    assert.equal(out.Fans[0].Oem.Vendor['@odata.type'], '#VendorFan.v1_0_0.VendorFan');
    assert.equal(out.Plain, body.Plain, 'untouched parts are shared');
    assert.equal((body.Oem.Vendor as any)['@odata.type'], undefined, 'input not mutated');
  });

  it('keeps an @odata.type the handler set, and returns the body itself when nothing applies', () => {
    const body = { Oem: { Vendor: { '@odata.type': '#VendorBox.v1_1_0.VendorBox' } } };
    assert.equal((stampVendorTypes(body, props) as any).Oem.Vendor['@odata.type'], '#VendorBox.v1_1_0.VendorBox');
    const plain = { Plain: { A: 1 } };
    assert.equal(stampVendorTypes(plain, props), plain);
  });
});
