// The console's shell: login, the header (health, power, live state), tabs, the
// event stream that names what to read again, and a slow poll behind it.
import { currentSession, login, logout, whenExpired, get, send, type Json } from './api.js';
import { activity } from './activity.js';
import { control, controlsAvailable } from './control.js';
import { fleet, fleetAvailable } from './fleet.js';
import { fill, h, health, pick, text, useOemName, vendorPick } from './dom.js';
import { origins, openEventStream } from './sse.js';
import { CHASSIS, SYSTEM, VIEWS, type View, type ViewContext } from './views.js';

/** The fallback poll: the stream carries changes, this catches what it missed. */
const POLL_MS = 15_000;
/** While the server powers on or runs POST (steps that send no event), read this often. */
const POST_POLL_MS = 2_000;
const SETTLED_POST = new Set(['FinishedPost', 'PowerOff', 'Unknown']);

const root = document.getElementById('app') as HTMLElement;
let stream: { stop(): void } | undefined;
let poll: number | undefined;
/** The open view's own poll (View.pollMs); it stops when the view is left or the session ends. */
let viewPoll: number | undefined;
let views: View[] = [...VIEWS];
let active: View = VIEWS[0]!;
let pending: number | undefined;
let transition: number | undefined;

function showLogin(message?: string): void {
  active.leave?.();
  stream?.stop();
  stream = undefined;
  if (poll !== undefined) clearInterval(poll);
  if (viewPoll !== undefined) clearInterval(viewPoll);
  viewPoll = undefined;
  if (transition !== undefined) clearTimeout(transition);
  const user = h('input', { id: 'login-user', name: 'username', autocomplete: 'username', placeholder: 'User name' });
  const pass = h('input', {
    id: 'login-password',
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    placeholder: 'Password',
  });
  const error = h('p', { class: 'error', id: 'login-error' }, message ?? '');
  const form = h(
    'form',
    {
      class: 'login',
      onsubmit: (e) => {
        e.preventDefault();
        login(user.value, pass.value).then(
          (s) => (s.mustChange ? showPasswordChange(s.mustChange) : void showConsole()),
          (err: Error) => fill(error, err.message),
        );
      },
    },
    h('h1', {}, 'Management console'),
    h('label', { for: 'login-user' }, 'User name'),
    user,
    h('label', { for: 'login-password' }, 'Password'),
    pass,
    h('button', { type: 'submit', id: 'login-submit' }, 'Log in'),
    error,
  );
  fill(root, form);
  user.focus();
}

/** The account must get a new password before anything else (PasswordChangeRequired). */
function showPasswordChange(account: string): void {
  const pass = h('input', { id: 'new-password', type: 'password', autocomplete: 'new-password', placeholder: 'New password' });
  const again = h('input', { id: 'new-password-again', type: 'password', autocomplete: 'new-password', placeholder: 'New password again' });
  const error = h('p', { class: 'error', id: 'password-error' });
  const form = h(
    'form',
    {
      class: 'login',
      onsubmit: (e) => {
        e.preventDefault();
        if (pass.value !== again.value) return fill(error, 'The two passwords differ.');
        send('PATCH', account, { Password: pass.value }).then(
          () => void showConsole(),
          (err: Error) => fill(error, err.message),
        );
      },
    },
    h('h1', {}, 'Choose a new password'),
    h('p', {}, 'This account must change its password before it can do anything else.'),
    pass,
    again,
    h('button', { type: 'submit', id: 'password-submit' }, 'Change password'),
    error,
  );
  fill(root, form);
  pass.focus();
}

async function showConsole(): Promise<void> {
  const session = currentSession();
  if (!session) return showLogin();
  useOemName(await get('/redfish/v1/'));
  views = [...VIEWS];
  if (await controlsAvailable()) views.push(control, activity);
  if (await fleetAvailable()) views.push(fleet);
  const live = h('span', { class: 'live', id: 'live', data: { live: 'false' } }, 'connecting');
  const status = h('p', { class: 'status', id: 'status', data: { error: 'false' } });
  const header = h('div', { class: 'summary', id: 'summary' });
  const main = h('main', { id: 'view' });
  const tabs = h('nav', {}, ...views.map((v) => h('button', { class: 'tab', data: { view: v.id }, onclick: () => select(v) }, v.title)));
  fill(
    root,
    h(
      'header',
      {},
      h('h1', {}, 'Management console'),
      header,
      live,
      h('span', { class: 'user', id: 'user' }, session.user),
      h('button', { id: 'logout', onclick: () => void logout().then(() => showLogin()) }, 'Log out'),
    ),
    tabs,
    status,
    main,
  );

  const ctx: ViewContext = {
    notify(message, error = false) {
      fill(status, message);
      status.dataset.error = String(error);
    },
    refresh: () => schedule(),
  };

  let rendering = false;
  let again = false;
  const render = async (): Promise<void> => {
    if (rendering) {
      again = true;
      return;
    }
    rendering = true;
    try {
      const view = active;
      // A view that cannot be read (a resource this role may not see) says so in its place; the header still updates.
      const shown = view.render(ctx).catch((e: Error) => h('p', { class: 'error', id: 'view-error' }, e.message));
      const [sys, chassis, node] = await Promise.all([get(SYSTEM), get(CHASSIS), shown]);
      renderSummary(header, sys, chassis);
      if (transition !== undefined) clearTimeout(transition);
      transition = inTransition(sys) ? window.setTimeout(schedule, POST_POLL_MS) : undefined;
      if (view === active) {
        replaceKeepingInput(main, node);
        main.dataset.view = view.id;
      }
    } catch (e) {
      if (currentSession()) ctx.notify((e as Error).message, true);
    } finally {
      rendering = false;
      if (again) {
        again = false;
        void render();
      }
    }
  };
  // Events come in bursts (a POST step logs and changes state): read once per burst.
  const schedule = (): void => {
    if (pending !== undefined) clearTimeout(pending);
    pending = window.setTimeout(() => {
      pending = undefined;
      void render();
    }, 150);
  };
  const select = (v: View): void => {
    if (v !== active) active.leave?.();
    active = v;
    for (const b of tabs.querySelectorAll<HTMLElement>('button.tab')) b.classList.toggle('active', b.dataset.view === v.id);
    location.hash = v.id;
    if (viewPoll !== undefined) clearInterval(viewPoll);
    viewPoll = v.pollMs ? window.setInterval(schedule, v.pollMs) : undefined;
    fill(main, h('p', { class: 'empty' }, 'Loading…'));
    schedule();
  };

  stream?.stop();
  stream = openEventStream({
    event(e: Json) {
      const named = origins(e);
      const headerWatch = [SYSTEM, CHASSIS];
      if (named.length === 0 || named.some((u) => [...active.watch, ...headerWatch].some((w) => u.startsWith(w) || w.startsWith(u))))
        schedule();
      else if (active.watch.length === 0) schedule();
    },
    status(on) {
      fill(live, on ? 'live' : 'reconnecting');
      live.dataset.live = String(on);
    },
  });
  if (poll !== undefined) clearInterval(poll);
  poll = window.setInterval(schedule, POLL_MS);
  select(views.find((v) => `#${v.id}` === location.hash) ?? views[0]!);
}

/** Replace a view's content; what the user is typing (inputs with an id) and the focus survive the update. */
function replaceKeepingInput(main: HTMLElement, node: Node): void {
  // A view that redraws its own node in place (the fleet page) is already shown.
  if (main.childNodes.length === 1 && main.firstChild === node) return;
  const typed = new Map<string, string>();
  for (const input of main.querySelectorAll<HTMLInputElement>('input[id]')) if (input.value) typed.set(input.id, input.value);
  const focused =
    document.activeElement instanceof HTMLInputElement && main.contains(document.activeElement) ? document.activeElement.id : '';
  fill(main, node);
  for (const [id, value] of typed) {
    const input = document.getElementById(id);
    if (input instanceof HTMLInputElement && !input.value) input.value = value;
  }
  if (focused) document.getElementById(focused)?.focus();
}

function inTransition(sys: Json): boolean {
  const post = vendorPick(sys, 'PostState');
  return String(sys.PowerState).startsWith('Powering') || (sys.PowerState === 'On' && typeof post === 'string' && !SETTLED_POST.has(post));
}

function renderSummary(el: HTMLElement, sys: Json, chassis: Json): void {
  fill(
    el,
    h('span', {}, 'System ', health(pick(sys, 'Status.Health'), 'health-system')),
    h('span', {}, 'Chassis ', health(pick(chassis, 'Status.Health'), 'health-chassis')),
    h('span', {}, 'Power ', h('strong', { id: 'summary-power' }, text(sys.PowerState))),
    h('span', {}, 'POST ', h('strong', { id: 'summary-post' }, text(vendorPick(sys, 'PostState')))),
  );
}

whenExpired(() => showLogin('Your session has ended. Please log in again.'));
if (currentSession()) void showConsole();
else showLogin();
