// What every API module is given: the service's domain objects and platform.
// Built and wired once by the composition root (src/app.ts, its steps in src/compose/);
// areas only read them.
import type { FleetView } from '../domain/fleet/fleet-view.js';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ResourceUris } from '../lib/resource-uris.js';
import type { ActivityLog } from '../domain/control/activity.js';
import type { TrustedCas } from '../platform/trusted-cas.js';
import type { ScenarioControl } from '../domain/control/control.js';
import type { FaultRules } from '../domain/control/fault-rules.js';
import type { AccountPolicy } from '../domain/accounts/account-policy.js';
import type { AccountRecord, Accounts } from '../domain/accounts/accounts.js';
import type { DirectorySettingsStore } from '../domain/accounts/directory-settings.js';
import type { BiosSettings } from '../domain/bios/bios.js';
import type { BootSettings } from '../domain/bios/boot.js';
import type { IscsiSettings } from '../domain/bios/iscsi.js';
import type { VendorBiosAreas } from '../domain/bios/vendor-settings.js';
import type { ChassisState, UidLight } from '../domain/chassis/chassis.js';
import type { UserTempThresholds } from '../domain/chassis/thermal-thresholds.js';
import type { CertificateLogin } from '../domain/accounts/certificate-login.js';
import type { HttpsCertificate } from '../domain/manager/https-certificate.js';
import type { InstalledLicense } from '../domain/licensing/installed-license.js';
import type { EventBus } from '../domain/events/bus.js';
import type { FirmwareServices } from '../domain/firmware/index.js';
import type { UpdateQueueArea } from '../domain/update-queue/area.js';
import type { EventHub } from '../domain/events/hub.js';
import type { MetricReports } from '../domain/events/metric-reports.js';
import type { RegistryFiles } from '../domain/registry-files.js';
import type { SessionRecord, Sessions } from '../domain/accounts/sessions.js';
import type { Tasks } from '../domain/tasks.js';
import type { LicenseState } from '../domain/licensing/tiers.js';
import type { Logs } from '../domain/logs/logs.js';
import type { RestApiState } from '../domain/manager/rest-api-state.js';
import type { VirtualMedia } from '../domain/manager/virtual-media.js';
import type { ActiveHealth } from '../domain/manager/active-health.js';
import type { ControllerBackups } from '../domain/manager/backup.js';
import type { CloudConnect } from '../domain/manager/cloud-connect.js';
import type { RemoteSupport } from '../domain/manager/remote-support.js';
import type { FederationGroups } from '../domain/manager/federation.js';
import type { ControllerFunctionality } from '../domain/manager/functionality.js';
import type { KeyManager } from '../domain/manager/key-manager.js';
import type { SecureErase } from '../domain/manager/secure-erase.js';
import type { SecurityDashboard } from '../domain/manager/security-dashboard.js';
import type { SingleSignOn } from '../domain/manager/single-sign-on.js';
import type { SnmpService } from '../domain/manager/snmp.js';
import type { SecureBoot } from '../domain/secure-boot/secure-boot.js';
import type { StorageControllers } from '../domain/storage/storage.js';
import type { SmartArrayConfig } from '../domain/storage/smart-array.js';
import type { Clock } from '../platform/clock.js';
import type { HealthRegistry } from '../platform/hardware/health.js';
import type { Hardware } from '../platform/hardware/identity.js';
import type { PowerModel } from '../platform/power.js';
import type { SensorSource } from '../platform/sensors.js';
import type { SimulatedSensors } from '../platform/thermal.js';
import type { ControllerLifecycle, HostLifecycle } from '../platform/lifecycle.js';
import type { ServerSimulator } from '../platform/simulator.js';
import type { Authentication } from '../protocol/auth.js';
import type { Dialect } from '../protocol/dialect.js';
import type { Naming } from '../protocol/naming.js';
import type { FactoryIdentitySource } from '../domain/manager/factory-identity.js';
import type { LateResourceReader } from '../protocol/resource-reader.js';
import type { RouteTable } from '../protocol/routes.js';
import type { DocumentStore } from '../store/documents.js';

export interface ServiceSettings {
  /** Session inactivity timeout, seconds. */
  sessionTimeout: number;
  /** Session lifetime whatever its activity, seconds, applied while enabled (dmtf dialect; absent in older stores). */
  absoluteSessionTimeout?: number;
  absoluteSessionTimeoutEnabled?: boolean;
}

export interface Services {
  config: Config;
  /** URIs of the configured system, chassis and manager (and what is under them), ids encoded: every area links with these. */
  uris: ResourceUris;
  clock: Clock;
  store: DocumentStore;
  log: Logger;
  accounts: Accounts;
  sessions: Sessions;
  auth: Authentication<AccountRecord, SessionRecord>;
  events: EventBus;
  /** Event subscriptions, the durable outbox, delivery and SSE (EventService). */
  eventHub: EventHub;
  /** The CA certificates event delivery trusts (EventService CACertificates). */
  eventCas: TrustedCas;
  /** The periodic sensor metric report (TelemetryService). */
  metricReports: MetricReports;
  /** The simulated server's lifecycle: power, POST hooks, OS, TPM. */
  host: HostLifecycle;
  /** The simulated server's power state machine (ComputerSystem.Reset and the vendor power actions). */
  server: ServerSimulator;
  /** What the simulated server is made of (--hardware), serial numbers and MACs filled in from the seed. */
  hardware: Hardware;
  /** Status of every hardware component (faults are set here); inventory resources read it. */
  health: HealthRegistry;
  /** The controller's lifecycle: Manager.Reset and what it applies. */
  controller: ControllerLifecycle;
  registries: RegistryFiles;
  routes: RouteTable;
  /** Stable across restarts: generated on first start. */
  serviceUuid: string;
  settings: { get(): ServiceSettings; peek(): Readonly<ServiceSettings>; set(s: ServiceSettings): void };
  /** Integrated management log and event log. */
  logs: Logs;
  /** The manager's virtual media devices; also asked by the boot. */
  virtualMedia: VirtualMedia;
  /** The tier the installed license grants ('None' without one): what licensed features ask (requireFeature). */
  licenseTier: LicenseState;
  /** The installed license itself (install, remove), behind `licenseTier`. */
  installedLicense: InstalledLicense;
  /** Password and lockout policy of the AccountService. */
  accountPolicy: AccountPolicy;
  /** LDAP and Active Directory settings of the AccountService (stored and validated only). */
  directories: DirectorySettingsStore;
  /** The CA certificates LDAP connections would trust (stored only, as the directory settings). */
  ldapCas: TrustedCas;
  /** Certificate login: trusted CAs, user certificate mappings, the login decision. */
  certificateLogin: CertificateLogin;
  /** UEFI Secure Boot state and key databases. */
  secureBoot: SecureBoot;
  /** The system's boot override, order and options; POST consumes a one-time override. */
  boot: BootSettings;
  /** The system's UID light (IndicatorLED, LocationIndicatorActive). */
  uidLight: UidLight;
  /** BIOS attributes: the current area, the pending one POST applies, the BIOS passwords. */
  bios: BiosSettings;
  /** The vendor BIOS resources with a pending area: configuration lock, KMS, HTTPS boot TLS. */
  vendorBios: VendorBiosAreas;
  /** The ROM's iSCSI initiator and boot attempts. */
  iscsi: IscsiSettings;
  /** The array controllers, their drives and volumes. */
  storage: StorageControllers;
  /** The Smart Array configuration documents (iLO's SmartStorageConfig) over the same controllers. */
  smartArray: SmartArrayConfig;
  /** The chassis' locator light, asset tag and the firmware the host reports at POST. */
  chassisState: ChassisState;
  /** User temperature thresholds (Thermal's SetUserTempThreshold), effective from the next controller reset. */
  userTempThresholds: UserTempThresholds;
  /** Sensor readings; the simulator replaces the default (none). */
  sensors: SensorSource;
  /** The temperature sensors and fans of the hardware profile (Thermal, Sensors). */
  thermal: SimulatedSensors;
  /** Power drawn by the server, the power limit and the supplies' share (Power, PowerSubsystem, Sensors). */
  power: PowerModel;
  /** Host-reported data that VendorMC.ClearRestApiState discards at the next controller reset; areas register theirs. */
  restApiState: RestApiState;
  /** Versions of the controller's own firmware; the update area replaces the default. */
  firmware: {
    controllerVersion(): string;
    /** System ROM version, once the update area knows it; the system area falls back to its own. */
    biosVersion?(): string;
    /** The redundant system ROM's version, once the update area knows it. */
    backupBiosVersion?(): string | undefined;
    /** The installed version of a device class of the firmware inventory, once the update area knows it. */
    installedVersion?(deviceClass: string): string | undefined;
  };
  /** Firmware update domain: inventory, component repository, flasher, upload state, integrity scan. */
  update: FirmwareServices;
  /** Update task queue, its updaters, maintenance windows and install sets. */
  updateQueue: UpdateQueueArea;
  /** TaskService tasks of operations answered 202. */
  tasks: Tasks;
  /** The controller's HTTPS identity, replaceable at run time. */
  https: HttpsIdentity;
  /** The HTTPS certificate's key, pending CSR and replacement (vendor HttpsCert and CertificateService). */
  httpsCertificate: HttpsCertificate;
  /** The controller's own vendor services: federation groups, SNMP, single sign-on, key manager, cloud connection, security dashboard. */
  managerFeatures: ManagerFeatures;
  /** The controller's factory identity certificates, for a release that carries them (iLO 6's). */
  factoryIdentity?: FactoryIdentitySource;
  /** The scenario control API's state and actions; only with --enable-control. */
  control?: ScenarioControl;
  /** The last requests answered (the request inspector, /control/activity/); only with --enable-control. */
  activity?: ActivityLog;
  /** The control API's fault rules (/control/faults/rules); only with --enable-control. */
  faultRules?: FaultRules;
  /** The fleet this controller belongs to (fleet mode only). */
  fleet?: FleetView;
  /** The conventions served (--dialect): the protocol layer applies them; few areas need to know. */
  dialect: Dialect;
  /** The vendor namespace served (--oem-name): the protocol layer renames; areas read only its label and products. */
  naming: Naming;
  /** Any resource as a GET shows it (the ResourceDirectory), read through the pipeline once it is made. */
  resources: LateResourceReader;
}

export interface ManagerFeatures {
  federation: FederationGroups;
  snmp: SnmpService;
  sso: SingleSignOn;
  keyManager: KeyManager;
  cloudConnect: CloudConnect;
  /** Remote support registration and maintenance mode. */
  remoteSupport: RemoteSupport;
  securityDashboard: SecurityDashboard;
  /** Off (DisableiLOFunctionality): the listener drops every Redfish request until the host enables it again. */
  functionality: ControllerFunctionality;
  /** Backups of the controller's settings, and their restore. */
  backups: ControllerBackups;
  /** The Active Health System log (the IML and IEL since its last clear, and milestones). */
  activeHealth: ActiveHealth;
  /** One-button secure erase, run at the next POST. */
  secureErase: SecureErase;
}

export interface HttpsIdentity {
  cert: string;
  key: string;
  /** True while the certificate is the self-signed one generated at first start. */
  readonly selfSigned: boolean;
  /** Install a new certificate and key; takes effect for new connections at once. */
  replace(cert: string, key: string): void;
  /** Trusted CAs for client certificates (certificate login). */
  setClientCAs(pems: string[]): void;
}
