// Issue 29 item 1 against a client of the field: OpenStack sushy (Debian's python3-sushy)
// reads a system while a fault rule is in force, and its own log and exceptions show
// which path it took: retries after 503s, a new session after a 401, a ConnectionError
// for a dropped connection or a truncated body.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, startTestService, type TestService } from '../../support/service.js';

// Debian's interpreter, where python3-sushy installs (not a pyenv python3 earlier on the PATH).
const PYTHON = '/usr/bin/python3';
const hasSushy = spawnSync(PYTHON, ['-c', 'import sushy'], { stdio: 'ignore' }).status === 0;
const SKIP = hasSushy ? false : `${PYTHON} cannot import sushy: install python3-sushy (apt) to run these tests`;

/** sushy reads Systems/1 once; what it got, the exception it raised, and what it logged. */
const SCRIPT = `
import io, json, logging, sys, urllib3
import sushy
from sushy import auth, connector, exceptions
urllib3.disable_warnings()
connector._SERVER_SIDE_RETRY_DELAY = 0  # its 3 s pause between retries, not its logic
log = io.StringIO()
logger = logging.getLogger('sushy')
logger.addHandler(logging.StreamHandler(log))
logger.setLevel(logging.DEBUG)
url, user, password = sys.argv[1:4]
client = sushy.Sushy(url + '/redfish/v1/', verify=False, auth=auth.SessionAuth(user, password))
out = {}
try:
    system = client.get_system('/redfish/v1/Systems/1/')
    out['result'] = 'ok'
    out['identity'] = system.identity
except Exception as e:
    out['result'] = type(e).__name__
    out['sushy'] = isinstance(e, exceptions.SushyError)
    out['error'] = str(e)
out['log'] = log.getvalue()
print(json.dumps(out))
`;

interface SushyRun {
  result: string;
  /** The exception was one of sushy's own. */
  sushy?: boolean;
  identity?: string;
  error?: string;
  log: string;
}

function runSushy(svc: TestService): Promise<SushyRun> {
  return new Promise((resolve, reject) => {
    // Asynchronous: the service answers from this process while sushy runs.
    const env = { ...process.env, REQUESTS_CA_BUNDLE: '', CURL_CA_BUNDLE: '' };
    execFile(PYTHON, ['-c', SCRIPT, svc.url, ADMIN_USER, ADMIN_PASSWORD], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`sushy failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as SushyRun);
    });
  });
}

describe('fault rules seen by sushy', { skip: SKIP }, () => {
  let svc: TestService;
  const SYS = '/redfish/v1/Systems/1/';
  const rule = async (body: Record<string, unknown>) => {
    const r = await svc.req('POST', '/control/faults/rules/', {
      auth: 'basic',
      body: { Match: { Method: 'GET', Uri: SYS }, Count: 1, ...body },
    });
    assert.equal(r.status, 201, r.text);
    return r.headers.location as string;
  };
  const fired = async (location: string) => (await svc.req('GET', location, { auth: 'basic' })).body.Fired as number;

  before(async () => {
    svc = await startTestService({ config: { enableControl: true } });
  });
  after(() => svc.close());

  it('503 with Retry-After twice: sushy retries the GET and reads the system', async () => {
    const rule503 = await rule({ Action: { Status: 503 }, Count: 2 });
    const run = await runSushy(svc);
    assert.equal(run.result, 'ok', run.error);
    assert.equal(run.identity, '1');
    assert.equal(run.log.match(/Got server side error/g)?.length, 2, run.log);
    assert.equal(await fired(rule503), 2);
  });

  it('401 as if the session expired: sushy makes a new session and repeats the GET', async () => {
    const rule401 = await rule({ Action: { Status: 401 } });
    const run = await runSushy(svc);
    assert.equal(run.result, 'ok', run.error);
    assert.match(run.log, /Authentication refreshed successfully, retrying the call/);
    assert.equal(await fired(rule401), 1);
  });

  it('a dropped connection: sushy raises its ConnectionError', async () => {
    await rule({ Action: { Drop: 'BeforeBody' } });
    const run = await runSushy(svc);
    assert.equal(run.result, 'ConnectionError', JSON.stringify(run));
    assert.equal(run.sushy, true);
    assert.match(run.error ?? '', /RemoteDisconnected|Connection aborted|closed/i);
  });

  it('a truncated body: sushy fails reading it (as its urllib3 sees the body: short, or malformed JSON)', async () => {
    await rule({ Action: { Truncate: 64 } });
    const run = await runSushy(svc);
    // urllib3 2 refuses a body shorter than its Content-Length (sushy's ConnectionError); Debian's
    // urllib3 1.26 hands the 64 bytes on, and sushy's JSON parse of the system fails.
    assert.match(run.result, /^(ConnectionError|JSONDecodeError)$/, JSON.stringify(run));
    assert.notEqual(run.identity, '1');
  });
});
