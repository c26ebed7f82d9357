// Uploading a firmware package from the Updates view: multipart to the UpdateService's
// MultipartHttpPushUri (or HttpPushUri) with XMLHttpRequest, whose upload progress
// fetch() does not report; then following what the upload started: its task (a 202
// names the task monitor) or the UpdateService's own state until it settles.
import { authHeaders, get, type Json } from './api.js';
import { fill, h, text, vendorPick } from './dom.js';

const UPDATE = '/redfish/v1/UpdateService/';
/** UpdateService Oem State values that mean work is going on. */
const BUSY = new Set(['Uploading', 'Verifying', 'Writing', 'Updating']);
const FOLLOW_MS = 1_000;
const TERMINAL_TASK = new Set(['Completed', 'Exception', 'Killed', 'Cancelled']);

/** The section, made once: an upload and what it follows go on while the view redraws around it. */
let section: HTMLElement | undefined;

function post(
  uri: string,
  form: FormData,
  onProgress: (sent: number, total: number) => void,
): Promise<{ status: number; location: string | null; body: Json }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', uri);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (e) => onProgress(e.loaded, e.total));
    xhr.addEventListener('load', () => {
      let body: Json = {};
      try {
        body = JSON.parse(xhr.responseText) as Json;
      } catch {
        // No JSON answer.
      }
      resolve({ status: xhr.status, location: xhr.getResponseHeader('Location'), body });
    });
    xhr.addEventListener('error', () => reject(new Error('the upload was cut off')));
    xhr.send(form);
  });
}

/** The messages of an answer (a Success body or a Redfish error). */
function messages(body: Json): string {
  const infos = (body['@Message.ExtendedInfo'] ?? body.error?.['@Message.ExtendedInfo'] ?? []) as Json[];
  return infos.map((i) => String(i.Message ?? i.MessageId)).join(' ');
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function firmwareUpload(): HTMLElement {
  if (section) return section;
  const file = h('input', { id: 'fw-file', type: 'file', name: 'file' });
  const compsig = h('input', { id: 'fw-compsig', type: 'file', name: 'compsig' });
  const flash = h('input', { id: 'fw-flash', type: 'checkbox', name: 'flash' });
  flash.checked = true;
  const fillBar = h('div', { class: 'bar-fill' });
  const bar = h('div', { class: 'bar', id: 'fw-progress', data: { percent: '0' } }, fillBar);
  const status = h('p', { id: 'fw-status', data: { state: 'idle' } }, 'Choose a package (.fwpkg, .bin…) and its .compsig if it has one.');
  const task = h('p', { id: 'fw-task' });
  const button = h('button', { type: 'submit', id: 'fw-upload' }, 'Upload');
  const say = (state: string, message: string) => {
    status.dataset.state = state;
    fill(status, message);
  };
  const progress = (percent: number) => {
    bar.dataset.percent = String(percent);
    fillBar.style.width = `${percent}%`;
  };

  /** The task a 202 names, until it ends; or the UpdateService's state until it is no longer busy. */
  const follow = async (location: string | null): Promise<void> => {
    for (;;) {
      if (location) {
        const t = await get(location.replace('/TaskMonitors/', '/Tasks/'));
        fill(task, `Task ${text(t.Id)}: ${text(t.TaskState)}${typeof t.PercentComplete === 'number' ? ` (${t.PercentComplete} %)` : ''}`);
        task.dataset.state = String(t.TaskState);
        if (TERMINAL_TASK.has(String(t.TaskState))) return;
      } else {
        const svc = await get(UPDATE);
        const state = String(vendorPick(svc, 'State') ?? 'Idle');
        fill(task, `Update service: ${state}${vendorPick(svc, 'Result') ? `, ${text(vendorPick(svc, 'Result.MessageId'))}` : ''}`);
        task.dataset.state = state;
        if (!BUSY.has(state)) return;
      }
      await wait(FOLLOW_MS);
    }
  };

  const form = h(
    'form',
    {
      id: 'fw-form',
      class: 'inline',
      onsubmit: (e) => {
        e.preventDefault();
        const chosen = file.files?.[0];
        if (!chosen) return say('failed', 'Choose a file first.');
        void (async () => {
          button.disabled = true;
          try {
            const svc = await get(UPDATE);
            const uri = String(svc.MultipartHttpPushUri ?? svc.HttpPushUri ?? '');
            if (!uri) throw new Error('this service offers no upload');
            const data = new FormData();
            data.append('parameters', JSON.stringify({ UpdateRepository: true, UpdateTarget: flash.checked }));
            const sig = compsig.files?.[0];
            if (sig) data.append('compsig', sig, sig.name);
            data.append('file', chosen, chosen.name);
            progress(0);
            say('uploading', `Uploading ${chosen.name}…`);
            const r = await post(uri, data, (sent, total) => {
              const percent = total ? Math.round((sent / total) * 100) : 0;
              progress(percent);
              say('uploading', `Uploading ${chosen.name}: ${percent} %`);
            });
            if (r.status >= 400) return say('failed', `${chosen.name}: ${messages(r.body) || `refused (${r.status})`}`);
            progress(100);
            say('uploaded', `${chosen.name} uploaded${messages(r.body) ? `: ${messages(r.body)}` : ''}`);
            await follow(r.status === 202 ? r.location : null);
            say('done', `${chosen.name}: ${messages(r.body) || 'uploaded'}`);
          } catch (err) {
            say('failed', (err as Error).message);
          } finally {
            button.disabled = false;
          }
        })();
      },
    },
    h('label', { for: 'fw-file' }, 'Package '),
    file,
    h('label', { for: 'fw-compsig' }, 'Signature '),
    compsig,
    h('label', {}, flash, ' Flash now (else only into the repository)'),
    button,
  );
  section = h('section', { class: 'card', id: 'fw-upload-card' }, h('h2', {}, 'Upload firmware'), form, bar, status, task);
  return section;
}
