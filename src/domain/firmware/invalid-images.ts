// The invalid-image repository (iLO's InvalidImageRepository): a record of each firmware image the
// integrity checks found corrupted, kept until deleted. One record per device and version: a
// corruption found again (every boot check finds it until it is repaired) is not recorded twice.
import type { DocumentCollection, DocumentStore } from '../../store/documents.js';
import { targetGuid, type InventoryItem } from './inventory.js';

export interface InvalidImageRecord {
  Id: string;
  /** The name the image is kept under: its device class and version. */
  Filename: string;
  /** The device's target GUID (iLO: the device type GUID of the image's flash header). */
  DeviceClass: string;
  /** The firmware inventory item whose image it was. */
  Item: { kind: InventoryItem['kind']; Id: string };
  Version: string;
  /** Controller time (ms) it was found. */
  Created: number;
}

export class InvalidImages {
  private readonly docs: DocumentCollection<InvalidImageRecord>;

  constructor(store: DocumentStore) {
    this.docs = store.collection('firmware.invalidimage');
  }

  list(): InvalidImageRecord[] {
    return this.docs.list();
  }

  get(id: string): InvalidImageRecord | undefined {
    return this.docs.get(id);
  }

  /** Records the corrupted image of an item, unless that image is recorded already. */
  record(item: InventoryItem, now: number): InvalidImageRecord {
    const name = `${(item.DeviceClass ?? item.Id).toLowerCase()}_${item.Version}`.replace(/[^A-Za-z0-9._-]+/g, '_');
    const known = this.docs.get(name);
    if (known) return known;
    const rec: InvalidImageRecord = {
      Id: name,
      Filename: `${name}.bin`,
      DeviceClass: targetGuid(item.DeviceClass ?? ''),
      Item: { kind: item.kind, Id: item.Id },
      Version: item.Version,
      Created: now,
    };
    this.docs.put(rec.Id, rec);
    return rec;
  }

  delete(id: string): boolean {
    if (!this.docs.has(id)) return false;
    this.docs.delete(id);
    return true;
  }
}
