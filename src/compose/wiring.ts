// Hooks between parts that no part owns: what the API areas announce when the host, the
// controller or a component changes, and how certificate login reaches the listener.
// The parts' own hooks (a POST step a setting applies at, a reset that applies it) are made with
// them in the other steps; these come after every part exists.
import type { Services } from '../api/services.js';
import { certificateAuthenticator } from '../api/managers/security-service.js';
import { secureBootAtPost } from '../api/systems/secure-boot.js';
import { driveStatusChanged, volumeApplied } from '../api/systems/storage.js';
import { vendorMessage } from '../messages/errors.js';

export function wireAreas(s: Services): void {
  // The array controllers' events and IML entries: volumes POST built or removed, drives whose health changed.
  s.storage.onApplied(volumeApplied(s));
  s.health.onChange(driveStatusChanged(s));
  // A boot applies SecureBootEnable, and announces what that changed.
  s.host.onPost('SecureBootSetup', secureBootAtPost(s));
  // The event log records a controller reset, and the REST API state clear it applies.
  s.controller.onReset(() => {
    s.logs.write('IEL', vendorMessage('ControllerReset'), s.uris.manager());
  });
  s.restApiState.onCleared(() => {
    s.logs.write('IEL', vendorMessage('RestApiStateCleared'), s.uris.manager());
  });
  // Certificate login: the listener asks for client certificates signed by the trusted CAs, and
  // the authenticator admits one that maps to an account.
  s.https.setClientCAs(s.certificateLogin.caPems());
  s.auth.addAuthenticator(certificateAuthenticator(s));
  // An ended session's URI names nothing again: remembered, each login's stayed in the route
  // table's cache of matched paths until it held 2,048 (a third of a KB each, per controller).
  s.sessions.onEnd((session) => {
    const uri = s.uris.session(session.Id);
    s.routes.forget(uri);
    s.routes.forget(uri.slice(0, -1));
  });
}
