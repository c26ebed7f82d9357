// How the controller is reached: the HTTPS listener with the Redfish pipeline and the web
// console behind it, and SSDP discovery.
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Services } from '../api/services.js';
import { REDFISH_VERSION } from '../api/root/service-root.js';
import { startSsdp, type Ssdp, type SsdpMember, type SsdpSettings } from '../discovery/ssdp.js';
import { resourceWriteEvents } from '../domain/events/sources.js';
import { readNetworkProtocol } from '../domain/manager/network-protocol.js';
import { startHttpServer, type HttpServer } from '../http/server.js';
import { StaticSite } from '../http/static-files.js';
import type { Clock } from '../platform/clock.js';
import { Pipeline } from '../protocol/pipeline.js';
import type { DocumentStore } from '../store/documents.js';
import { recordRequests } from './activity.js';
import type { Base } from './base.js';

/** The HTTPS listener: every request goes to the pipeline, the console's files to its site. */
export function startListener(b: Base, s: Services): Promise<HttpServer> {
  const { config } = b;
  const pipeline = new Pipeline(
    s.routes,
    s.auth,
    s.log,
    {
      onWrite: resourceWriteEvents(s.events),
      durable: b.commits,
      // Off, the control API does not exist for anyone: 404 before credentials are asked for.
      missingBeforeAuth: config.enableControl ? undefined : (path) => /^\/control(\/|$)/i.test(path),
      onRequest: s.activity && recordRequests(s.activity),
      faults: s.faultRules,
      booting: () => s.controller.bootingFor(),
    },
    s.dialect,
    { expansionsPerAccount: config.maxExpansionsPerAccount, bodyLimit: config.bodyLimit },
  );
  // Handlers that list resources (the ResourceDirectory) read them through it.
  s.resources.serveFrom(pipeline);
  return startHttpServer({
    host: config.host,
    port: config.port,
    cert: s.https.cert,
    key: s.https.key,
    limits: config,
    clock: b.clock,
    pipeline,
    log: s.log,
    site: consoleSite(),
    lazyTls: b.seat !== undefined,
    // Disabled, the controller answers nothing but the control API (which stands for the host).
    unanswered: (url) => !s.managerFeatures.functionality.enabled() && !/^\/control(\/|$|\?)/i.test(url),
    shared: b.seat?.listeners,
    budget: b.seat?.connections,
  });
}

/**
 * A controller reset takes the controller away as a real one reboots: nothing listens (event
 * delivery waits, SSE streams end), then the listener is back while it boots (503, the pipeline's
 * booting hook), then deliveries resume.
 */
export function followReboots(s: Services, http: HttpServer): void {
  s.controller.onPhase((phase) => {
    if (phase === 'Up') s.eventHub.resume();
    else s.eventHub.pause();
    if (phase === 'Offline') http.stopListening();
    else if (!http.listening) {
      http.listenAgain().catch((err: unknown) => s.log.error({ err }, 'the listener did not open again after a controller reset'));
    }
  });
}

/** What SSDP announces of this controller. */
export function discoveryMember(b: Base, port: number): SsdpMember {
  return {
    uuid: b.serviceUuid,
    location: `https://${discoveryHost(b.config.host)}:${port}/redfish/v1/`,
    settings: () => ssdpSettings(b.store),
  };
}

/** The address SSDP announces for a listener: a wildcard one by the first external IPv4 address. */
function discoveryHost(listenHost: string): string {
  if (listenHost !== '0.0.0.0' && listenHost !== '::') return listenHost.includes(':') ? `[${listenHost}]` : listenHost;
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
  return external ?? '127.0.0.1';
}

function ssdpSettings(store: DocumentStore): SsdpSettings {
  const ssdp = readNetworkProtocol(store).SSDP;
  return { enabled: ssdp.ProtocolEnabled, notifyIntervalSeconds: ssdp.NotifyMulticastIntervalSeconds, notifyTtl: ssdp.NotifyTTL };
}

/** SSDP discovery for these controllers. A port that cannot be bound is logged, and the service runs without SSDP. */
export async function startDiscovery(port: number, members: readonly SsdpMember[], clock: Clock, log: Logger): Promise<Ssdp | undefined> {
  try {
    return await startSsdp({ port, members, redfishMinor: Number(REDFISH_VERSION.split('.')[1]), clock, log });
  } catch (err) {
    log.warn({ err, port }, 'SSDP discovery not started');
    return undefined;
  }
}

/**
 * The web console (console/): its scripts as `npm run build` compiles them into
 * dist/console/, its page and styles from console/. Both paths are the same from
 * src/compose/listener.ts (tsx) and dist/compose/listener.js.
 */
function consoleSite(): StaticSite {
  const root = new URL('../../', import.meta.url);
  const dirs = [fileURLToPath(new URL('dist/console/', root)), fileURLToPath(new URL('console/', root))];
  // The charting library, as its package ships it (no CDN: the page's CSP allows only this service).
  const uplot = (file: string) => fileURLToPath(new URL(`node_modules/uplot/dist/${file}`, root));
  const files = { 'uplot.js': uplot('uPlot.esm.js'), 'uplot.css': uplot('uPlot.min.css') };
  return new StaticSite({ prefix: '/console/', dirs, index: 'index.html', files });
}
