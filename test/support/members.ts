// A member in every collection a fresh service leaves empty, so that route
// walks (wrong ids, the crawls) reach every route that has a parameter.
import assert from 'node:assert/strict';
import { issueCertificate } from '../../src/platform/x509.js';
import { installLicense } from './licenses.js';
import { ADMIN_PASSWORD, ADMIN_USER, type TestService } from './service.js';
import { addComponent, advance, resetHost, SETS } from './update-queue.js';

export async function addMemberToEveryCollection(svc: TestService): Promise<void> {
  const { config, naming } = svc.running.services;
  const { managerId } = config;
  const manager = `/redfish/v1/Managers/${managerId}/`;
  // A user temperature threshold in force (a Trigger): it takes effect at the controller's reset.
  const chassis = `/redfish/v1/Chassis/${config.chassisId}/`;
  const threshold = await svc.req(
    'POST',
    `${chassis}Thermal/Actions/Oem/${naming.key}/${naming.name('VendorThermalExt')}.SetUserTempThreshold/`,
    {
      body: { SensorNumber: 2, AlertType: 'Warning', ThresholdCelsius: 60 },
    },
  );
  assert.equal(threshold.status, 200, threshold.text);
  const reset = await svc.req('POST', `${manager}Actions/Manager.Reset/`, { body: {}, auth: 'basic' });
  assert.equal(reset.status, 200, reset.text);
  // The reset ended every session: later requests log in again.
  const token = await svc.login(ADMIN_USER, ADMIN_PASSWORD);
  svc.adminToken = async () => token;
  const made = [
    await svc.req('POST', '/redfish/v1/EventService/Subscriptions/', {
      body: { Destination: 'https://127.0.0.1:9/e', Protocol: 'Redfish' },
    }),
    await svc.req('POST', '/redfish/v1/UpdateService/MaintenanceWindows/', { body: { Name: 'w1', StartAfter: '2030-01-01T00:00:00Z' } }),
    await svc.req('POST', '/redfish/v1/UpdateService/UpdateTaskQueue/', {
      body: { Name: 'wait1', Command: 'Wait', UpdatableBy: ['Uefi'], WaitTimeSeconds: 5 },
    }),
  ];
  for (const r of made) assert.equal(r.status, 201, r.text);
  const destination = await svc.req('POST', `${manager}SnmpService/SNMPAlertDestinations/`, { body: { AlertDestination: '192.0.2.9' } });
  assert.equal(destination.status, 201, destination.text);
  // A backup file (the controller keeps the last one it made).
  const backup = await svc.req('POST', '/bkupdata/walk.bak', {
    rawBody: '--b\r\nContent-Disposition: form-data; name="sessionKey"\r\n\r\nx\r\n--b--\r\n',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
  });
  assert.equal(backup.status, 200, backup.text);
  await addComponent(svc, { targets: ['IE'], version: '5.1', file: 'ie.fwpkg' });
  // An image the integrity checks found corrupted (the record alone: the item itself stays healthy).
  const ie = svc.running.services.update.inventory.byDeviceClass('IE')[0];
  assert.ok(ie);
  svc.running.services.update.invalidImages.record({ ...ie }, svc.clock.now());
  const sets = await svc.req('POST', SETS, {
    body: { Name: 's1', Sequence: [{ Name: 's1 IE', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' }] },
  });
  assert.equal(sets.status, 201, sets.text);
  await installLicense(svc, 'Advanced');
  const ca = await issueCertificate({ subject: 'CN=Walk CA', ca: true, notBefore: new Date(svc.clock.now() - 86_400_000) });
  const auth = `${manager}SecurityService/CertificateAuthentication/`;
  const imported = await svc.req('POST', `${auth}Actions/${naming.name('VendorCertAuth')}.ImportCACertificate/`, {
    body: { Certificate: ca.certPem },
  });
  assert.equal(imported.status, 201, imported.text);
  // The same CA trusted for event delivery and for LDAP.
  const eventCa = await svc.req(
    'POST',
    `/redfish/v1/EventService/Actions/Oem/${naming.key}/${naming.name('VendorEventService')}.ImportCACertificate/`,
    {
      body: { Certificate: ca.certPem },
    },
  );
  assert.equal(eventCa.status, 201, eventCa.text);
  const ldapCa = await svc.req('POST', '/redfish/v1/AccountService/ExternalAccountProviders/LDAP/Certificates/', {
    body: { CertificateString: ca.certPem, CertificateType: 'PEM' },
  });
  assert.equal(ldapCa.status, 201, ldapCa.text);
  const mapping = await svc.req('POST', '/redfish/v1/AccountService/UserCertificateMapping/', {
    body: { UserName: 'Administrator', Fingerprint: 'ab'.repeat(32) },
  });
  assert.equal(mapping.status, 201, mapping.text);
  // A secure erase of the user data, which the power on below runs: its report has entries.
  const erase = `/redfish/v1/Systems/${encodeURIComponent(config.systemId)}/Actions/Oem/${naming.key}/${naming.name('VendorComputerSystemExt')}.SecureSystemErase/`;
  const erasing = await svc.req('POST', erase, { body: { SystemROMAndiLOErase: false, UserDataErase: true } });
  assert.equal(erasing.status, 200, erasing.text);
  // Log entries (a power on, a REST API state clear armed), a metric report, a task of the TaskService.
  await resetHost(svc, 'On');
  const armed = await svc.req('POST', `${manager}Actions/Oem/${naming.key}/${naming.name('VendorMC')}.ClearRestApiState/`, { body: {} });
  assert.equal(armed.status, 200, armed.text);
  await advance(svc, 600_000, 10_000);
  const task = await svc.req('POST', '/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate/', {
    body: { ImageURI: 'https://127.0.0.1:9/rom.bin' },
  });
  assert.equal(task.status, 202, task.text);
  await svc.running.services.tasks.whenDone(task.body.Id);
}
