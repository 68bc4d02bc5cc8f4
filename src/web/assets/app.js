// The skillrt web UI: one page, hash routes, plain DOM. Served under a strict
// Content-Security-Policy (no inline script or style), so everything here is
// attached with addEventListener and classes. Text from the API is only ever
// set with textContent; the one exception is the server's sanitised Markdown
// rendering (`?render=html`), parsed in an inert <template>, cleaned again
// below and only then moved into its container.

const API = '/api/v1';
const PAGE_SIZES = [25, 50, 100];
const DEFAULT_PAGE_SIZE = 50;
const SEARCH_LIMIT = 50;

const state = {
  session: null, // {user_id, org_id, csrf_token}
  pending: null, // pending proposal count
  view: null, // the mounted view
  navigations: 0,
};

// ---------------------------------------------------------------- DOM helpers

const $ = (selector, root = document) => root.querySelector(selector);

// h('a', {href: '#/x', class: 'c', onclick: fn}, 'text', child, ...): an element
// built without HTML parsing. Strings become text nodes.
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  return add(el, children);
}

function add(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

let idCounter = 0;
const uid = (prefix) => `${prefix}-${++idCounter}`;

// A labelled form control: returns {wrap, control}.
function field(labelText, control, hint) {
  if (!control.id) control.id = uid('f');
  const wrap = h('div', { class: 'field' }, h('label', { for: control.id, text: labelText }), control);
  if (hint) {
    const hintEl = h('p', { class: 'hint', id: uid('hint'), text: hint });
    control.setAttribute('aria-describedby', hintEl.id);
    wrap.append(hintEl);
  }
  return { wrap, control };
}

function select(options, value) {
  const el = h('select');
  for (const [optValue, label] of options) el.append(h('option', { value: optValue, text: label }));
  el.value = value;
  return el;
}

function badge(text, kind) {
  return h('span', { class: `badge ${kind || ''}`.trim(), text });
}

function section(title, ...children) {
  const id = uid('sec');
  return h('section', { class: 'panel', 'aria-labelledby': id }, h('h2', { id, text: title }), ...children);
}

const numberFormat = new Intl.NumberFormat('en');
const fmt = (n) => numberFormat.format(n);

function when(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

function timeEl(iso) {
  return h('time', { datetime: iso || '', text: when(iso) });
}

function plural(n, one, many) {
  return `${fmt(n)} ${n === 1 ? one : many || `${one}s`}`;
}

// Text with the given words wrapped in <mark>, as DOM nodes.
function highlight(text, words) {
  const frag = document.createDocumentFragment();
  const clean = (words || []).map((w) => String(w).trim()).filter(Boolean);
  if (!clean.length || !text) {
    frag.append(text || '');
    return frag;
  }
  const pattern = new RegExp(`(${clean.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) frag.append(text.slice(last, match.index));
    frag.append(h('mark', { text: match[0] }));
    last = match.index + match[0].length;
  }
  if (last < text.length) frag.append(text.slice(last));
  return frag;
}

function debounce(fn, ms) {
  let timer = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  wrapped.cancel = () => clearTimeout(timer);
  return wrapped;
}

// Re-renders inside `container` without losing the keyboard focus: the
// element that had it is found again by its href, data-id or text.
function keepFocus(container, render) {
  const active = document.activeElement;
  if (!active || !container.contains(active)) return render();
  const tag = active.tagName;
  const href = active.getAttribute('href');
  const id = active.dataset.id;
  const text = active.textContent;
  const result = render();
  const again = [...container.querySelectorAll(tag)].find((el) =>
    (href && el.getAttribute('href') === href) || (id && el.dataset.id === id) || (!href && !id && el.textContent === text));
  if (again) again.focus({ preventScroll: true });
  return result;
}

// ----------------------------------------------------------- toasts, dialogs

function toast(message, kind = 'info') {
  const box = $('#toasts');
  const item = h('div', { class: `toast ${kind}` }, h('span', { text: message }));
  const close = h('button', { type: 'button', class: 'toast-close', 'aria-label': 'Dismiss message', text: '×' });
  close.addEventListener('click', () => item.remove());
  item.append(close);
  box.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 10000 : 5000);
}

// Resolves true when the person confirms. Uses the page's <dialog>.
function confirmAction(text, { title = 'Please confirm', ok = 'Confirm', danger = false } = {}) {
  const dialog = $('#confirm-dialog');
  const okButton = $('#confirm-ok');
  $('#confirm-title').textContent = title;
  $('#confirm-text').textContent = text;
  okButton.textContent = ok;
  okButton.classList.toggle('danger', danger);
  okButton.classList.toggle('primary', !danger);
  const opener = document.activeElement;
  return new Promise((resolve) => {
    const finish = (result) => {
      okButton.removeEventListener('click', onOk);
      $('#confirm-cancel').removeEventListener('click', onCancel);
      dialog.removeEventListener('close', onClose);
      if (dialog.open) dialog.close();
      if (opener && opener.isConnected) opener.focus();
      resolve(result);
    };
    const onOk = () => finish(true);
    const onCancel = () => finish(false);
    const onClose = () => finish(false);
    okButton.addEventListener('click', onOk);
    $('#confirm-cancel').addEventListener('click', onCancel);
    dialog.addEventListener('close', onClose);
    dialog.showModal();
    $('#confirm-cancel').focus();
  });
}

// ------------------------------------------------------------------ the API

class ApiError extends Error {
  constructor(status, body) {
    super(errorText(status, body));
    this.status = status;
    this.body = body;
  }
}

function errorText(status, body) {
  if (body && typeof body.error === 'string' && body.error) return body.error;
  if (body && body.error) return JSON.stringify(body.error);
  if (status === 0) return 'The server cannot be reached.';
  return `The server answered ${status}.`;
}

// One API call. Writes carry the session's CSRF token; the session cookie
// travels by itself (same origin). Throws ApiError for any non-2xx answer.
async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET' && state.session) headers['X-CSRF-Token'] = state.session.csrf_token;
  let payload;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(API + path, { method, headers, body: payload, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError(0, null);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 401 && path !== '/session' && state.session) sessionLost();
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const enc = encodeURIComponent;
const skillHash = (name, layer) => `#/skill/${enc(name)}${layer ? `?layer=${enc(layer)}` : ''}`;

// -------------------------------------------------------------- the session

async function startSession(session) {
  state.session = session;
  $('#signin').hidden = true;
  $('#app-header').hidden = false;
  $('#view').hidden = false;
  $('#who').textContent = '';
  $('#who').append(h('span', { class: 'sr-only', text: 'Signed in as ' }), h('strong', { text: session.user_id }),
    session.org_id ? h('span', { class: 'muted', text: ` · ${session.org_id}` }) : null);
  live.start();
  refreshPending();
  // After signing in (not on a plain page load), focus moves to the page's heading.
  if (document.activeElement === document.body || !document.activeElement || $('#signin').contains(document.activeElement)) {
    state.navigations = Math.max(state.navigations, 1);
  }
  await route();
}

function showSignIn(message) {
  state.session = null;
  live.stop();
  if (state.view && state.view.unmount) state.view.unmount();
  state.view = null;
  $('#view').replaceChildren();
  $('#view').hidden = true;
  $('#app-header').hidden = true;
  $('#signin').hidden = false;
  const error = $('#signin-error');
  error.hidden = !message;
  error.textContent = message || '';
  const token = $('#token');
  token.value = '';
  token.setAttribute('aria-invalid', message ? 'true' : 'false');
  token.focus();
}

function sessionLost() {
  if (!state.session) return;
  showSignIn('Your session ended. Sign in again.');
}

async function signIn(event) {
  event.preventDefault();
  const token = $('#token').value.trim();
  const error = $('#signin-error');
  if (!token) {
    error.textContent = 'Enter a token.';
    error.hidden = false;
    $('#token').setAttribute('aria-invalid', 'true');
    $('#token').focus();
    return;
  }
  const button = $('#signin-submit');
  button.disabled = true;
  button.textContent = 'Signing in…';
  try {
    const session = await api('POST', '/session', { token });
    $('#token').value = '';
    error.hidden = true;
    if (!location.hash.startsWith('#/')) history.replaceState(null, '', '#/skills');
    await startSession(session);
  } catch (e) {
    const text = e.status === 401 ? 'That token was not accepted. Check it and try again.' : e.message;
    error.textContent = text;
    error.hidden = false;
    $('#token').setAttribute('aria-invalid', 'true');
    $('#token').select();
  } finally {
    button.disabled = false;
    button.textContent = 'Sign in';
  }
}

async function signOut() {
  try {
    await api('DELETE', '/session');
  } catch (e) {
    if (e.status !== 401) toast(`Sign out: ${e.message}`, 'error');
  }
  showSignIn('');
  $('#signin-error').hidden = true;
}

// ------------------------------------------------- pending proposals badge

async function refreshPending() {
  try {
    const data = await api('GET', '/proposals');
    setPending((data.proposals || []).filter((p) => p.state === 'pending').length);
  } catch {
    /* the badge is best effort */
  }
}
const refreshPendingSoon = debounce(refreshPending, 150);

function setPending(count) {
  state.pending = count;
  const el = $('#pending-count');
  el.textContent = String(count);
  el.hidden = count === 0;
  $('#inbox-link').setAttribute('aria-label', count ? `Inbox, ${plural(count, 'pending proposal')}` : 'Inbox');
}

// -------------------------------------------------------------- live events

const live = {
  ws: null,
  seq: null,
  retry: 0,
  timer: null,
  stopped: true,

  start() {
    this.stop();
    this.stopped = false;
    this.seq = null;
    this.connect();
  },

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close(1000);
      this.ws = null;
    }
    this.indicate('offline');
  },

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const since = this.seq !== null ? `?since=${this.seq}` : '';
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${location.host}${API}/events${since}`);
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    let greeted = false;
    this.indicate('connecting');
    ws.onmessage = (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch {
        return;
      }
      if (typeof event.seq === 'number') {
        // hello names the newest number; after ?since= the missed events
        // follow it, so only a first connection starts counting from it.
        if (event.type === 'hello' ? this.seq === null : (event.seq > this.seq || event.type === 'resync')) {
          this.seq = event.seq;
        }
      }
      if (event.type === 'hello') {
        greeted = true;
        this.retry = 0;
        this.indicate('live');
        return;
      }
      dispatch(event);
    };
    ws.onclose = (close) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      this.indicate('reconnecting');
      if (close.code === 4001 || close.code === 1008 || !greeted) {
        // Revoked, refused, or never let in (the server restarted and forgot
        // the session?): a 401 here signs the page out instead of retrying.
        api('GET', '/session').catch((e) => {
          if (e.status === 401) sessionLost();
        });
      }
      this.schedule();
    };
  },

  schedule() {
    if (this.stopped) return;
    const delay = Math.min(30000, 1000 * 2 ** this.retry) * (0.75 + Math.random() / 2);
    this.retry += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  },

  indicate(which) {
    const el = $('#live');
    el.dataset.state = which;
    const text = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…', offline: 'Offline' }[which];
    $('#live-text').textContent = text;
    el.title = which === 'live' ? 'Live updates are on' : `Live updates: ${text}`;
  },
};

function dispatch(event) {
  const type = event.type || '';
  if (type.startsWith('proposal.') || type === 'resync') refreshPendingSoon();
  if (type === 'install.finished' && !(state.view instanceof InstallView)) {
    toast(`Install from ${event.source || 'a source'}: ${event.outcome || 'finished'}.`, event.outcome === 'installed' ? 'success' : 'info');
  }
  if (state.view && state.view.onEvent) state.view.onEvent(event);
}

// ------------------------------------------------------------------- router

function parseHash() {
  const raw = location.hash.slice(1) || '/skills';
  if (!raw.startsWith('/')) return null;
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
  const parts = path.split('/');
  let arg = null;
  if (parts.length > 2) {
    try {
      arg = decodeURIComponent(parts.slice(2).join('/'));
    } catch {
      arg = parts.slice(2).join('/');
    }
  }
  return { name: parts[1] || 'skills', arg, params };
}

async function route() {
  if (!state.session) return;
  const current = parseHash();
  if (!current) return;
  const View = VIEWS[current.name] || NotFoundView;
  markNav(current.name);
  if (state.view && state.view.constructor === View && state.view.update && state.view.update(current)) return;
  if (state.view && state.view.unmount) state.view.unmount();
  const root = $('#view');
  root.replaceChildren();
  state.view = new View(root);
  const focus = state.navigations++ > 0;
  await state.view.mount(current);
  if (focus) {
    const heading = root.querySelector('h1');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    }
    window.scrollTo(0, 0);
  }
}

function markNav(name) {
  const section = name === 'skill' ? 'skills' : name;
  for (const link of document.querySelectorAll('[data-nav]')) {
    if (link.dataset.nav === section) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const titles = { skills: 'Skills', skill: 'Skill', inbox: 'Inbox', install: 'Install' };
  document.title = `${titles[name] || 'Not found'} · skillrt`;
}

// Replace the current hash without a history entry, and re-route.
function replaceHash(hash) {
  history.replaceState(null, '', hash);
  route();
}

// ------------------------------------------------------------ guard reports

const SEVERITY_ORDER = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

function verdictBadge(verdict) {
  return badge(verdict || 'unknown', `verdict-${verdict || 'unknown'}`);
}

// The guard's report: verdict, decision, each finding with its rule id,
// explanation and how to dismiss it, and what was dismissed.
function guardReport(report, { dismissHelp = true, knownReason = '' } = {}) {
  const root = h('div', { class: 'guard' });
  const head = h('p', { class: 'guard-head' }, verdictBadge(report.verdict));
  if (report.decision) head.append(' ', badge(`decision: ${report.decision}`, `decision-${report.decision}`));
  if (report.trust_level) head.append(' ', badge(`trust: ${report.trust_level}`, 'neutral'));
  root.append(head);
  if (report.reason && report.reason !== knownReason) root.append(h('p', { class: 'guard-reason', text: report.reason }));
  if (report.summary && report.summary !== report.reason) root.append(h('p', { class: 'muted', text: report.summary }));

  const findings = [...(report.findings || [])].sort(
    (a, b) => (SEVERITY_ORDER[a.severity] ?? 9) - (SEVERITY_ORDER[b.severity] ?? 9) || (a.line || 0) - (b.line || 0));
  if (!findings.length) {
    root.append(h('p', { class: 'ok-note', text: 'No findings: the guard found nothing to report.' }));
  } else {
    const list = h('ol', { class: 'findings', 'aria-label': 'Findings' });
    for (const finding of findings) list.append(findingItem(finding, dismissHelp, (report.rules || {})[finding.pattern_id]));
    root.append(list);
  }

  const dismissed = report.dismissed || [];
  if (dismissed.length) {
    const list = h('ul', { class: 'dismissed' });
    for (const d of dismissed) {
      list.append(h('li', {},
        h('code', { class: 'rule', text: d.pattern_id || d.id || '?' }), ' ',
        h('span', { class: 'muted', text: `${d.file || ''}${d.line ? `:${d.line}` : ''}` }), ' — ',
        h('span', { text: d.reason || '' }),
        d.dismissed_by ? h('span', { class: 'muted', text: ` (by ${d.dismissed_by})` }) : null));
    }
    root.append(h('h3', { text: `Dismissed (${dismissed.length})` }), list);
  }

  const meta = [];
  if (report.files_scanned !== undefined) meta.push(plural(report.files_scanned, 'file') + ' scanned');
  if (report.scanned_at) meta.push(`at ${when(report.scanned_at)}`);
  if (report.scanner_version) meta.push(report.scanner_version);
  if (meta.length) root.append(h('p', { class: 'fine', text: meta.join(' · ') }));
  return root;
}

// `help` is the report's `rules` entry for the finding's rule (the server's
// help table, docs/guard-rules.md): why it matters and how to fix the skill.
function findingItem(finding, dismissHelp, help) {
  const severity = finding.severity || 'unknown';
  const where = `${finding.file || ''}${finding.line ? `:${finding.line}` : ''}${finding.column ? `:${finding.column}` : ''}`;
  const item = h('li', { class: `finding is-${severity}` },
    h('div', { class: 'finding-head' },
      badge(severity, `sev-${severity}`),
      h('code', { class: 'rule', text: finding.pattern_id || '?' }),
      where ? h('span', { class: 'where', text: where }) : null,
      finding.category ? h('span', { class: 'muted', text: finding.category.replace(/_/g, ' ') }) : null),
    h('p', { class: 'explain', text: finding.description || '' }));
  if (finding.match) item.append(h('pre', { class: 'match' }, h('code', { text: finding.match })));
  if (help && (help.why || help.fix)) {
    item.append(h('div', { class: 'rule-help' },
      help.why ? h('p', {}, h('strong', { text: 'Why it matters: ' }), help.why) : null,
      help.fix ? h('p', {}, h('strong', { text: 'How to fix: ' }), help.fix) : null,
      help.help_uri ? h('p', { class: 'fine' }, 'More: ', h('code', { text: help.help_uri }), ' in the skillrt repository') : null));
  }
  if (dismissHelp) {
    const yaml = [
      'dismiss:',
      `  - id: ${finding.pattern_id}`,
      finding.file ? `    file: ${finding.file}` : null,
      finding.line ? `    line: ${finding.line}` : null,
      '    reason: <why this is safe, after you read it>',
    ].filter(Boolean).join('\n');
    const help = h('details', { class: 'dismiss-help' },
      h('summary', { text: 'How to dismiss' }),
      h('p', {}, 'If this is a false positive, add it to ', h('code', { text: '.skillrt-guard.yaml' }),
        ' at the skill\u2019s root, or to an operator file in ', h('code', { text: 'HOME/guard/dismissals/' }),
        ' (read by install, update and audit; ', h('code', { text: 'scan --dismissals FILE' }), ' for a scan):'),
      h('pre', {}, h('code', { text: yaml })));
    if (severity === 'critical') {
      help.append(h('p', { class: 'warn-note', text: 'A skill\u2019s own file cannot dismiss a critical finding; only an operator\u2019s dismissal file can.' }));
    }
    help.append(h('p', { class: 'muted', text: 'Dismissed findings stay listed in every report, with their reason.' }));
    item.append(help);
  }
  return item;
}

// ----------------------------------------------------------------- diffs

function diffView(text, label) {
  const pre = h('pre', { class: 'diff', tabindex: '0', 'aria-label': label || 'Unified diff' });
  const lines = String(text || '').replace(/\n$/, '').split('\n');
  for (const line of lines) {
    let kind = 'ctx';
    if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ')) kind = 'file';
    else if (line.startsWith('@@')) kind = 'hunk';
    else if (line.startsWith('+')) kind = 'add';
    else if (line.startsWith('-')) kind = 'del';
    else if (line.startsWith('\\')) kind = 'note';
    pre.append(h('span', { class: `d-${kind}`, text: `${line}\n` }));
  }
  return pre;
}

function diffStats(text) {
  let added = 0;
  let removed = 0;
  for (const line of String(text || '').split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added += 1;
    else if (line.startsWith('-') && !line.startsWith('---')) removed += 1;
  }
  return h('span', { class: 'diffstat' }, h('span', { class: 'plus', text: `+${added}` }), ' ', h('span', { class: 'minus', text: `\u2212${removed}` }));
}

// ------------------------------------------------------- rendered Markdown

const DROP_ELEMENTS = 'script,style,iframe,frame,frameset,object,embed,applet,link,meta,base,form,input,button,textarea,select,svg,math,template,noscript,img,video,audio,source,track,picture,canvas';
const SAFE_URL = /^(https?:|mailto:|#|\/(?!\/)|\.{0,2}\/?[^:]*$)/i;

// Parses the server's HTML inertly, strips anything active that should not
// be there (defence in depth: the server already sanitised it), and returns
// a fragment to put in the container.
function sanitisedFragment(html) {
  // A template's content is inert: nothing in it loads or runs until it is
  // moved into the page, and it is cleaned before that.
  const template = document.createElement('template');
  template.innerHTML = html;
  const content = template.content;
  for (const el of content.querySelectorAll(DROP_ELEMENTS)) {
    const alt = el.tagName === 'IMG' ? el.getAttribute('alt') : null;
    el.replaceWith(alt ? document.createTextNode(alt) : '');
  }
  for (const el of content.querySelectorAll('*')) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      const allowed = ['href', 'title', 'id', 'class', 'align', 'start', 'colspan', 'rowspan', 'lang', 'type', 'checked', 'disabled'];
      if (!allowed.includes(name)) el.removeAttribute(attr.name);
    }
    if (el.tagName === 'INPUT') el.setAttribute('disabled', '');
    if (el.hasAttribute('href')) {
      const href = el.getAttribute('href').trim();
      if (!SAFE_URL.test(href)) el.removeAttribute('href');
    }
    if (el.id) el.id = `md-${el.id}`;
  }
  for (const a of content.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    if (/^https?:/i.test(href)) {
      a.setAttribute('target', '_blank');
      a.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  }
  return content;
}

// --------------------------------------------------------------- the views

class SkillsView {
  constructor(root) {
    this.root = root;
    this.loadSeq = 0;
    this.categoryCache = new Map();
    this.refreshSoon = debounce(() => this.load(true), 400);
  }

  mount(current) {
    this.q = h('input', { type: 'search', name: 'q', autocomplete: 'off', placeholder: 'Words in the name or description' });
    this.layer = select([['', 'All layers'], ['shared', 'Shared'], ['user', 'Mine (user)'], ['database', 'Database']], '');
    this.category = select([['', 'All categories']], '');
    this.limit = select(PAGE_SIZES.map((n) => [String(n), String(n)]), String(DEFAULT_PAGE_SIZE));
    const form = h('form', { class: 'filters card', role: 'search', 'aria-label': 'Find skills' },
      field('Search', this.q).wrap,
      field('Layer', this.layer).wrap,
      field('Category', this.category).wrap,
      field('Per page', this.limit).wrap,
      h('div', { class: 'field actions' }, h('button', { type: 'submit', class: 'button primary', text: 'Search' })));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.typing.cancel();
      this.go({ q: this.q.value.trim(), offset: 0 }, false);
    });
    this.typing = debounce(() => this.go({ q: this.q.value.trim(), offset: 0 }, true), 350);
    this.q.addEventListener('input', () => this.typing());
    this.layer.addEventListener('change', () => this.go({ layer: this.layer.value, offset: 0 }, false));
    this.category.addEventListener('change', () => this.go({ category: this.category.value, offset: 0 }, false));
    this.limit.addEventListener('change', () => this.go({ limit: this.limit.value, offset: 0 }, false));

    this.summary = h('p', { class: 'summary', 'aria-live': 'polite' });
    this.list = h('ol', { class: 'skill-list', 'aria-label': 'Skills' });
    this.prev = h('button', { type: 'button', class: 'button', text: '\u2190 Previous' });
    this.next = h('button', { type: 'button', class: 'button', text: 'Next \u2192' });
    this.pageText = h('span', { class: 'page-text' });
    this.prev.addEventListener('click', () => this.go({ offset: Math.max(0, this.params.offset - this.params.limit) }, false));
    this.next.addEventListener('click', () => this.go({ offset: this.nextOffset }, false));
    this.pager = h('nav', { class: 'pager', 'aria-label': 'Pages' }, this.prev, this.pageText, this.next);

    add(this.root, [
      h('div', { class: 'view-head' }, h('h1', { text: 'Skills' }),
        h('p', { class: 'muted', text: 'Every skill you can see: the shared layer, your own skills and your database skills.' })),
      form, this.summary, this.list, this.pager,
    ]);
    return this.apply(current);
  }

  update(current) {
    this.apply(current);
    return true;
  }

  readParams(current) {
    const p = current.params;
    const limit = PAGE_SIZES.includes(Number(p.get('limit'))) ? Number(p.get('limit')) : DEFAULT_PAGE_SIZE;
    return {
      q: p.get('q') || '',
      layer: ['shared', 'user', 'database'].includes(p.get('layer')) ? p.get('layer') : '',
      category: p.get('category') || '',
      limit,
      offset: Math.max(0, Number.parseInt(p.get('offset') || '0', 10) || 0),
    };
  }

  apply(current) {
    this.params = this.readParams(current);
    if (document.activeElement !== this.q) this.q.value = this.params.q;
    this.layer.value = this.params.layer;
    this.limit.value = String(this.params.limit);
    this.ensureCategory(this.params.category);
    this.category.value = this.params.category;
    this.category.disabled = Boolean(this.params.q);
    return this.load(false);
  }

  go(change, replace) {
    const next = { ...this.params, ...change };
    const p = new URLSearchParams();
    if (next.q) p.set('q', next.q);
    if (next.layer) p.set('layer', next.layer);
    if (next.category && !next.q) p.set('category', next.category);
    if (Number(next.limit) !== DEFAULT_PAGE_SIZE) p.set('limit', String(next.limit));
    if (next.offset) p.set('offset', String(next.offset));
    const hash = `#/skills${p.toString() ? `?${p}` : ''}`;
    if (replace) replaceHash(hash);
    else if (location.hash === hash) route();
    else location.hash = hash;
  }

  ensureCategory(name) {
    if (name && ![...this.category.options].some((o) => o.value === name)) {
      this.category.append(h('option', { value: name, text: name }));
    }
  }

  setCategories(categories) {
    const keep = this.params.category;
    this.category.replaceChildren(h('option', { value: '', text: 'All categories' }));
    for (const c of categories || []) this.category.append(h('option', { value: c, text: c }));
    this.ensureCategory(keep);
    this.category.value = keep;
  }

  async load(quiet) {
    const seq = ++this.loadSeq;
    const p = this.params;
    this.list.setAttribute('aria-busy', 'true');
    try {
      if (p.q) {
        const data = await api('GET', `/search?q=${enc(p.q)}&limit=${SEARCH_LIMIT}`);
        if (seq !== this.loadSeq) return;
        const results = (data.results || []).filter((r) => !p.layer || r.source === p.layer);
        this.renderSearch(results, data);
      } else {
        const query = new URLSearchParams({ limit: String(p.limit), offset: String(p.offset) });
        if (p.layer) query.set('layer', p.layer);
        if (p.category) query.set('category', p.category);
        const data = await api('GET', `/skills?${query}`);
        if (seq !== this.loadSeq) return;
        // A filtered page lists only its own category: keep the layer's full
        // list, fetched once (one skill's page) when the filter came first.
        if (!p.category) this.categoryCache.set(p.layer, data.categories || []);
        this.renderPage(data);
        if (!this.categoryCache.has(p.layer)) {
          const layerOnly = new URLSearchParams({ limit: '1' });
          if (p.layer) layerOnly.set('layer', p.layer);
          const all = await api('GET', `/skills?${layerOnly}`);
          this.categoryCache.set(p.layer, all.categories || []);
          if (seq !== this.loadSeq) return;
        }
        this.setCategories(this.categoryCache.get(p.layer));
      }
    } catch (e) {
      if (seq !== this.loadSeq) return;
      this.list.replaceChildren();
      this.pager.hidden = true;
      this.summary.textContent = `Could not load skills: ${e.message}`;
      if (!quiet) toast(`Could not load skills: ${e.message}`, 'error');
    } finally {
      if (seq === this.loadSeq) this.list.removeAttribute('aria-busy');
    }
  }

  renderPage(data) {
    const skills = data.skills || [];
    this.nextOffset = data.next_offset;
    keepFocus(this.list, () => this.list.replaceChildren(...skills.map((s) => this.item(s, s.layer, s.category, null))));
    const first = skills.length ? data.offset + 1 : 0;
    const last = data.offset + skills.length;
    this.summary.textContent = data.total === 0
      ? 'No skills match these filters.'
      : `Showing ${fmt(first)}\u2013${fmt(last)} of ${plural(data.total, 'skill')}`;
    const pages = Math.max(1, Math.ceil(data.total / (data.limit || this.params.limit)));
    const page = Math.floor(data.offset / (data.limit || this.params.limit)) + 1;
    this.pageText.textContent = `Page ${fmt(Math.min(page, pages))} of ${fmt(pages)}`;
    this.prev.disabled = data.offset === 0;
    this.next.disabled = data.next_offset === null || data.next_offset === undefined;
    this.pager.hidden = pages <= 1 && data.offset === 0;
    if (data.problems && data.problems.length) toast(`Some skills could not be listed: ${data.problems[0]}`, 'warn');
  }

  renderSearch(results, data) {
    this.nextOffset = null;
    this.list.replaceChildren(...results.map((r) => this.item(r, r.source, null, r.matched || [])));
    this.summary.textContent = results.length
      ? `${plural(results.length, 'result')} for \u201c${data.query ?? this.params.q}\u201d${results.length >= SEARCH_LIMIT ? ' (the most relevant shown)' : ''}`
      : `Nothing matches \u201c${data.query ?? this.params.q}\u201d.`;
    this.pager.hidden = true;
  }

  item(skill, layer, category, matched) {
    // category/name names a file skill exactly, even when two categories share a name.
    const ref = category && layer !== 'database' ? `${category}/${skill.name}` : skill.name;
    const link = h('a', { class: 'skill-link', href: skillHash(ref, layer) });
    link.append(matched ? highlight(skill.name, matched) : skill.name);
    const head = h('div', { class: 'skill-item-head' }, h('h2', { class: 'skill-name' }, link),
      layer ? badge(layer, `layer layer-${layer}`) : null,
      category ? h('span', { class: 'category', text: category }) : null);
    const desc = h('p', { class: 'desc' });
    desc.append(matched ? highlight(skill.description || '', matched) : (skill.description || ''));
    const item = h('li', { class: 'skill-item' }, head, desc);
    if (matched && matched.length) {
      item.append(h('p', { class: 'matched' }, h('span', { class: 'muted', text: 'Matched: ' }),
        ...matched.map((w) => h('mark', { class: 'chip', text: w }))));
    }
    return item;
  }

  onEvent(event) {
    if (event.type.startsWith('skill.') || event.type === 'skills.changed' || event.type === 'resync') {
      this.categoryCache.clear();
      this.refreshSoon();
    }
  }

  unmount() {
    this.loadSeq += 1;
    this.refreshSoon.cancel();
    if (this.typing) this.typing.cancel();
  }
}

class SkillView {
  constructor(root) {
    this.root = root;
    this.refreshSoon = debounce(() => this.load(true), 250);
    this.loadSeq = 0;
  }

  mount(current) {
    this.name = current.arg || '';
    this.layer = current.params.get('layer') || '';
    this.title = h('h1', { class: 'skill-title', text: this.name });
    this.desc = h('p', { class: 'lead' });
    this.meta = h('p', { class: 'meta-row' });
    this.liveNote = h('p', { class: 'live-note', hidden: true });
    this.markdown = h('div', { class: 'markdown', id: 'skill-markdown' });
    this.contentPanel = section('SKILL.md', this.markdown);
    this.readiness = section('Readiness');
    this.files = section('Support files');
    this.provenance = section('Provenance');
    this.guard = section('Guard report', h('p', { class: 'muted', text: 'Scanning\u2026' }));
    this.history = section('History');
    // Named for the one-column order on narrow screens (app.css).
    this.contentPanel.classList.add('p-content');
    this.readiness.classList.add('p-ready');
    this.files.classList.add('p-files');
    this.provenance.classList.add('p-prov');
    this.guard.classList.add('p-guard');
    this.history.classList.add('p-history');
    add(this.root, [
      h('p', { class: 'crumbs' }, h('a', { href: '#/skills', text: '\u2190 All skills' })),
      h('div', { class: 'view-head' }, this.title, this.desc, this.meta, this.liveNote),
      h('div', { class: 'skill-layout' },
        h('div', { class: 'skill-main' }, this.contentPanel, this.guard, this.history),
        h('aside', { class: 'skill-side', 'aria-label': 'About this skill' }, this.readiness, this.files, this.provenance)),
    ]);
    return this.load(false);
  }

  layerQuery(prefix) {
    return this.layer ? `${prefix}layer=${enc(this.layer)}` : '';
  }

  async load(live) {
    const seq = ++this.loadSeq;
    let data;
    try {
      data = await api('GET', `/skills/${enc(this.name)}?render=html${this.layerQuery('&')}`);
    } catch (e) {
      if (seq !== this.loadSeq) return;
      if (live && e.status === 404) {
        this.liveNote.hidden = false;
        this.liveNote.textContent = 'This skill was deleted.';
        this.liveNote.className = 'live-note gone';
        return;
      }
      this.title.textContent = this.name;
      this.desc.textContent = e.status === 404 ? 'There is no skill by this name that you can see.' : `Could not load the skill: ${e.message}`;
      this.root.querySelector('.skill-layout').hidden = true;
      return;
    }
    if (seq !== this.loadSeq) return;
    const doc = data.skill && data.content === undefined ? { ...data.skill, html: data.html ?? data.skill.html } : data;
    const changed = !this.doc || this.doc.content !== doc.content || JSON.stringify(this.doc.description) !== JSON.stringify(doc.description);
    this.doc = doc;
    this.renderHead(doc);
    this.renderContent(doc);
    this.renderReadiness(doc);
    this.renderFiles(doc);
    this.renderProvenance(doc);
    if (live && changed) {
      this.liveNote.hidden = false;
      this.liveNote.className = 'live-note';
      this.liveNote.textContent = `Updated live at ${new Date().toLocaleTimeString('en-GB')}.`;
    }
    await Promise.all([this.loadScan(seq), this.loadHistory(seq)]);
  }

  renderHead(doc) {
    this.title.textContent = doc.name || this.name;
    const description = typeof doc.description === 'string' ? doc.description : (doc.description == null ? '' : JSON.stringify(doc.description));
    this.desc.textContent = description;
    const layer = this.layer || this.guessLayer(doc);
    const bits = [];
    if (layer) bits.push(badge(layer, `layer layer-${layer}`));
    const category = doc.category || (typeof doc.path === 'string' && doc.path.includes('/') ? doc.path.split('/').slice(0, -2).join('/') : '');
    if (category) bits.push(h('span', { class: 'category', text: category }));
    const status = doc.readiness_status || (doc.setup_needed ? 'setup_needed' : '');
    if (status && status !== 'available') {
      bits.push(badge(status === 'setup_needed' ? 'setup needed' : status, `ready-${status}`));
    }
    for (const tag of doc.tags || []) bits.push(badge(tag, 'tag'));
    if (doc.version !== undefined) bits.push(h('span', { class: 'muted', text: `version ${doc.version}` }));
    this.meta.replaceChildren(...bits);
    document.title = `${doc.name || this.name} · skillrt`;
  }

  guessLayer(doc) {
    const p = doc._source_path || doc.skill_dir || '';
    if (doc.version !== undefined && doc.is_active !== undefined) return 'database';
    if (p.includes('/users/')) return 'user';
    return p ? 'shared' : '';
  }

  renderContent(doc) {
    if (typeof doc.html === 'string') {
      this.markdown.replaceChildren(sanitisedFragment(doc.html));
      this.markdown.classList.remove('raw');
    } else {
      // A server without ?render=html: show the source as text.
      this.markdown.replaceChildren(h('pre', { class: 'source' }, h('code', { text: doc.content || '' })));
      this.markdown.classList.add('raw');
    }
  }

  renderReadiness(doc) {
    const status = doc.readiness_status || (doc.setup_needed === undefined ? null : (doc.setup_needed ? 'setup_needed' : 'available'));
    if (!status) {
      this.readiness.replaceChildren(this.readiness.firstChild, h('p', { class: 'muted', text: 'Not reported for this skill.' }));
      return;
    }
    const labels = { available: 'Ready to use', setup_needed: 'Setup needed', unsupported: 'Unsupported here' };
    const body = [h('p', {}, badge(labels[status] || status, `ready-${status}`))];
    const missing = doc.missing_required_environment_variables || [];
    if (missing.length) {
      body.push(h('p', { text: 'Missing environment variables:' }),
        h('ul', { class: 'plain' }, ...missing.map((v) => h('li', {}, h('code', { text: v })))));
    }
    const files = doc.missing_credential_files || [];
    if (files.length) {
      body.push(h('p', { text: 'Missing credential files:' }),
        h('ul', { class: 'plain' }, ...files.map((v) => h('li', {}, h('code', { text: v })))));
    }
    if (doc.setup_note) body.push(h('p', { class: 'muted', text: doc.setup_note }));
    if (doc.setup_help) body.push(h('p', { class: 'muted', text: doc.setup_help }));
    if (status === 'available' && !missing.length) body.push(h('p', { class: 'muted', text: 'Nothing is missing.' }));
    this.readiness.replaceChildren(this.readiness.firstChild, ...body);
  }

  renderFiles(doc) {
    const heading = this.files.firstChild;
    const groups = doc.linked_files && typeof doc.linked_files === 'object' ? doc.linked_files : {};
    const paths = Object.values(groups).flat().filter((p) => typeof p === 'string');
    if (!paths.length) {
      this.files.replaceChildren(heading, h('p', { class: 'muted', text: 'This skill has no support files.' }));
      return;
    }
    this.fileCaption = h('p', { class: 'file-caption', 'aria-live': 'polite' });
    this.fileView = h('pre', { class: 'file-view', tabindex: '0', hidden: true, 'aria-label': 'File content' });
    const list = h('ul', { class: 'file-list' });
    for (const path of paths) {
      const button = h('button', { type: 'button', class: 'linkish file-button', text: path, 'aria-pressed': 'false' });
      button.addEventListener('click', () => this.openFile(path, button));
      list.append(h('li', {}, button));
    }
    this.files.replaceChildren(heading, list, this.fileCaption, this.fileView);
    if (this.openPath && paths.includes(this.openPath)) {
      this.openFile(this.openPath, [...list.querySelectorAll('button')].find((b) => b.textContent === this.openPath));
    }
  }

  async openFile(path, button) {
    this.openPath = path;
    for (const b of this.files.querySelectorAll('.file-button')) b.setAttribute('aria-pressed', String(b === button));
    this.fileCaption.textContent = `Loading ${path}\u2026`;
    try {
      const data = await api('GET', `/skills/${enc(this.name)}/file?path=${enc(path)}${this.layerQuery('&')}`);
      if (this.openPath !== path) return;
      this.fileView.hidden = false;
      this.fileView.textContent = data.is_binary ? '(binary file: not shown)' : (data.content ?? '');
      this.fileCaption.textContent = path;
    } catch (e) {
      this.fileView.hidden = true;
      this.fileCaption.textContent = `Could not open ${path}: ${e.message}`;
    }
  }

  renderProvenance(doc) {
    const heading = this.provenance.firstChild;
    const p = doc.provenance;
    const rows = [];
    const row = (k, v) => { if (v !== null && v !== undefined && v !== '') rows.push(h('dt', { text: k }), h('dd', { text: String(v) })); };
    const kinds = { bundled: 'Bundled with skillrt', hub: 'Installed from a source', agent: 'Written by an agent', user: 'Written by a person', external: 'External folder', project: 'Project folder', plugin: 'Part of a plugin' };
    if (p) {
      row('Origin', kinds[p.kind] || p.kind);
      row('Plugin', doc.plugin);
      row('Source', p.source);
      row('Trust', p.trust);
      if (p.folder && typeof p.folder === 'object') {
        for (const [k, v] of Object.entries(p.folder)) row(`Folder ${k.replace(/_/g, ' ')}`, typeof v === 'object' ? JSON.stringify(v) : v);
      }
    }
    row('File', doc.path);
    if (doc.created_at) row('Created', when(doc.created_at));
    if (doc.updated_at) row('Updated', when(doc.updated_at));
    this.provenance.replaceChildren(heading, rows.length ? h('dl', { class: 'facts' }, ...rows) : h('p', { class: 'muted', text: 'Not recorded.' }));
  }

  async loadScan(seq) {
    const heading = this.guard.firstChild;
    try {
      const report = await api('GET', `/skills/${enc(this.name)}/scan`);
      if (seq !== this.loadSeq) return;
      this.guard.replaceChildren(heading, guardReport(report));
    } catch (e) {
      if (seq !== this.loadSeq) return;
      const text = e.status === 404 && (this.layer || this.guessLayer(this.doc || {})) === 'database'
        ? 'The guard\u2019s report covers file skills; there is none for a database skill.'
        : `No report: ${e.message}`;
      this.guard.replaceChildren(heading, h('p', { class: 'muted', text }));
    }
  }

  async loadHistory(seq) {
    const heading = this.history.firstChild;
    const layer = this.layer || this.guessLayer(this.doc || {});
    const query = new URLSearchParams({ skill: this.doc?.name || this.name });
    if (layer) query.set('layer', layer);
    try {
      const data = await api('GET', `/ledger?${query}`);
      if (seq !== this.loadSeq) return;
      const entries = [...(data.entries || [])].reverse();
      if (!entries.length) {
        this.history.replaceChildren(heading, h('p', { class: 'muted', text: 'No recorded changes.' }));
        return;
      }
      this.history.replaceChildren(heading, h('ol', { class: 'history' }, ...entries.map((e) => this.entryItem(e, layer))));
    } catch (e) {
      if (seq !== this.loadSeq) return;
      this.history.replaceChildren(heading, h('p', { class: 'muted', text: `No history: ${e.message}` }));
    }
  }

  // The entry's unified diff, fetched the first time it is opened
  // (GET /ledger/{id}/diff): a long history costs nothing until asked.
  entryDiff(entry, layer) {
    const summary = h('summary', { text: 'Show the diff' });
    const details = h('details', { class: 'entry-diff' }, summary);
    let state = 'idle';
    let body = null;
    details.addEventListener('toggle', async () => {
      if (!details.open || state !== 'idle') return;
      state = 'loading';
      body?.remove();  // a failed attempt's message
      body = h('p', { class: 'muted', text: 'Loading the diff\u2026' });
      details.append(body);
      try {
        const query = layer ? `?layer=${enc(layer)}` : '';
        const data = await api('GET', `/ledger/${enc(entry.id)}/diff${query}`);
        summary.replaceChildren('Diff ', diffStats(data.diff || ''));
        body.replaceWith(data.diff
          ? diffView(data.diff, `Diff of entry ${entry.seq}`)
          : h('p', { class: 'muted', text: 'No text changed (only file modes or binary files).' }));
        state = 'loaded';
      } catch (e) {
        body.textContent = `The diff could not be loaded: ${e.message}`;
        state = 'idle';  // closing and opening again retries
      }
    });
    return details;
  }

  entryItem(entry, layer) {
    const who = entry.actor_id ? `${entry.actor} ${entry.actor_id}` : entry.actor;
    const head = h('div', { class: 'entry-head' },
      h('span', { class: 'entry-seq', text: `#${entry.seq}` }),
      badge(entry.action, `action action-${entry.action}`),
      h('span', { text: `by ${who}` }),
      timeEl(entry.time));
    const item = h('li', { class: 'entry' }, head);
    if (entry.note) item.append(h('p', { class: 'muted', text: entry.note }));
    const changes = manifestChanges(entry.before, entry.after);
    if (changes.length) {
      item.append(h('ul', { class: 'file-changes', 'aria-label': 'Files changed' },
        ...changes.map((c) => h('li', { class: `fc-${c.kind}` }, h('span', { class: 'fc-kind', text: c.kind }), ' ', h('code', { text: c.path }), c.detail ? h('span', { class: 'muted', text: ` ${c.detail}` }) : null))));
    }
    if (changes.length) item.append(this.entryDiff(entry, layer));
    const button = h('button', { type: 'button', class: 'button small', text: 'Roll back\u2026', 'aria-label': `Roll back entry ${entry.seq} (${entry.action})` });
    button.addEventListener('click', () => this.rollback(entry, layer, button));
    item.append(h('div', { class: 'entry-actions' }, button));
    return item;
  }

  async rollback(entry, layer, button) {
    const ok = await confirmAction(
      `Restore \u201c${entry.skill}\u201d to how it was before change #${entry.seq} (${entry.action}, ${when(entry.time)})? The rollback is itself recorded in the history.`,
      { title: 'Roll back this change?', ok: 'Roll back' });
    if (!ok) return;
    const body = {};
    if (layer && layer !== 'user') body.layer = layer;
    button.disabled = true;
    try {
      let result;
      try {
        result = await api('POST', `/ledger/${enc(entry.id)}/rollback`, body);
      } catch (e) {
        if (e.status !== 409 && !/force/i.test(e.message)) throw e;
        const again = await confirmAction(`${e.message}\n\nRoll back anyway, undoing the later changes too?`,
          { title: 'Later changes exist', ok: 'Roll back anyway', danger: true });
        if (!again) return;
        result = await api('POST', `/ledger/${enc(entry.id)}/rollback`, { ...body, force: true });
      }
      toast(result.message || `Rolled back change #${entry.seq}.`, 'success');
      await this.load(false);
    } catch (e) {
      toast(`Rollback failed: ${e.message}`, 'error');
    } finally {
      button.disabled = false;
    }
  }

  onEvent(event) {
    const mine = event.name && (event.name === this.name || event.name === this.doc?.name || this.name.endsWith(`/${event.name}`));
    if ((event.type.startsWith('skill.') && mine) || event.type === 'skills.changed' || event.type === 'resync') {
      this.refreshSoon();
    }
  }

  unmount() {
    this.loadSeq += 1;
    this.refreshSoon.cancel();
  }
}

// Files added, removed or changed between two ledger manifests.
function manifestChanges(before, after) {
  const map = (m) => new Map(((m && m.files) || []).map((f) => [f.path, f]));
  const a = map(before);
  const b = map(after);
  const out = [];
  for (const [path, f] of b) {
    if (!a.has(path)) out.push({ kind: 'added', path, detail: `${fmt(f.size)} bytes` });
    else if (a.get(path).sha256 !== f.sha256) out.push({ kind: 'changed', path, detail: `${fmt(a.get(path).size)} \u2192 ${fmt(f.size)} bytes` });
  }
  for (const [path] of a) if (!b.has(path)) out.push({ kind: 'removed', path });
  return out;
}

class InboxView {
  constructor(root) {
    this.root = root;
    this.selected = new Set();
    this.loadSeq = 0;
    this.refreshSoon = debounce(() => this.load(true), 200);
  }

  mount(current) {
    this.showAll = h('input', { type: 'checkbox' });
    this.showAll.addEventListener('change', () => this.load(false));
    this.selectAll = h('input', { type: 'checkbox' });
    this.selectAll.addEventListener('change', () => {
      for (const box of this.list.querySelectorAll('input[data-id]')) {
        if (box.disabled) continue;
        box.checked = this.selectAll.checked;
        if (box.checked) this.selected.add(box.dataset.id);
        else this.selected.delete(box.dataset.id);
      }
      this.updateBulk();
    });
    this.bulkReason = h('input', { type: 'text', autocomplete: 'off', placeholder: 'Recorded with each decision' });
    this.approveSelected = h('button', { type: 'button', class: 'button primary', text: 'Approve selected' });
    this.rejectSelected = h('button', { type: 'button', class: 'button danger', text: 'Reject selected' });
    this.approveSelected.addEventListener('click', () => this.decideMany('approve'));
    this.rejectSelected.addEventListener('click', () => this.decideMany('reject'));
    this.summary = h('p', { class: 'summary', 'aria-live': 'polite' });
    this.list = h('ul', { class: 'proposals', 'aria-label': 'Proposals' });
    this.detail = h('section', { class: 'panel proposal-detail', 'aria-label': 'Proposal', hidden: true });

    const bulk = h('div', { class: 'bulk card' },
      h('label', { class: 'check' }, this.selectAll, h('span', { text: 'Select all pending' })),
      field('Reason (optional)', this.bulkReason).wrap,
      h('div', { class: 'bulk-buttons' }, this.approveSelected, this.rejectSelected));
    add(this.root, [
      h('div', { class: 'view-head' }, h('h1', { text: 'Inbox' }),
        h('p', { class: 'muted', text: 'Changes that agents, the review or the curator want to make to your skills. Nothing changes until you approve it.' })),
      h('div', { class: 'inbox-layout' },
        h('div', { class: 'inbox-list' }, bulk,
          h('label', { class: 'check show-all' }, this.showAll, h('span', { text: 'Also show decided proposals' })),
          this.summary, this.list),
        this.detail),
    ]);
    this.openId = current.arg;
    return this.load(false);
  }

  update(current) {
    this.openId = current.arg;
    this.markOpen();
    this.loadDetail();
    return true;
  }

  async load(quiet) {
    const seq = ++this.loadSeq;
    try {
      const data = await api('GET', `/proposals${this.showAll.checked ? '?all=true' : ''}`);
      if (seq !== this.loadSeq) return;
      this.render(data.proposals || []);
      if (!this.showAll.checked) setPending(this.proposals.filter((p) => p.state === 'pending').length);
    } catch (e) {
      if (seq !== this.loadSeq) return;
      this.summary.textContent = `Could not load the inbox: ${e.message}`;
      if (!quiet) toast(`Could not load the inbox: ${e.message}`, 'error');
    }
    await this.loadDetail();
  }

  render(proposals) {
    this.proposals = proposals;
    const pending = proposals.filter((p) => p.state === 'pending');
    for (const id of [...this.selected]) if (!pending.some((p) => p.id === id)) this.selected.delete(id);
    this.summary.textContent = pending.length
      ? `${plural(pending.length, 'proposal')} waiting for you.`
      : 'No pending proposals. You are all caught up.';
    keepFocus(this.list, () => this.list.replaceChildren(...proposals.map((p) => this.item(p))));
    this.markOpen();
    this.updateBulk();
  }

  item(p) {
    const pending = p.state === 'pending';
    const box = h('input', { type: 'checkbox', dataset: { id: p.id }, 'aria-label': `Select: ${p.gist}`, disabled: !pending });
    box.checked = this.selected.has(p.id);
    box.addEventListener('change', () => {
      if (box.checked) this.selected.add(p.id);
      else this.selected.delete(p.id);
      this.updateBulk();
    });
    const open = h('a', { class: 'proposal-open', href: `#/inbox/${enc(p.id)}`, text: p.gist || `${p.action} ${p.skill}` });
    return h('li', { class: `proposal is-${p.state}`, dataset: { id: p.id } },
      box,
      h('div', { class: 'proposal-body' },
        open,
        h('p', { class: 'proposal-meta' },
          badge(p.state, `state state-${p.state}`),
          verdictBadge(p.verdict),
          p.guard_asks ? badge('guard asks', 'decision-ask') : null,
          h('span', { class: 'muted', text: `${p.origin || 'agent'} \u00b7 ${p.layer} \u00b7 ` }),
          timeEl(p.created_at))));
  }

  markOpen() {
    for (const li of this.list.querySelectorAll('li.proposal')) {
      const open = li.dataset.id === this.openId;
      li.classList.toggle('open', open);
      const link = li.querySelector('.proposal-open');
      if (open) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
  }

  updateBulk() {
    const n = this.selected.size;
    this.approveSelected.disabled = n === 0;
    this.rejectSelected.disabled = n === 0;
    this.approveSelected.textContent = n ? `Approve ${n}` : 'Approve selected';
    this.rejectSelected.textContent = n ? `Reject ${n}` : 'Reject selected';
    const boxes = [...this.list.querySelectorAll('input[data-id]:not([disabled])')];
    this.selectAll.checked = boxes.length > 0 && boxes.every((b) => b.checked);
    this.selectAll.indeterminate = n > 0 && !this.selectAll.checked;
    this.selectAll.disabled = boxes.length === 0;
  }

  async loadDetail() {
    const id = this.openId;
    if (!id) {
      this.detail.hidden = true;
      this.detail.replaceChildren();
      return;
    }
    try {
      const data = await api('GET', `/proposals/${enc(id)}`);
      if (this.openId !== id) return;
      this.renderDetail(data.proposal);
    } catch (e) {
      if (this.openId !== id) return;
      this.detail.hidden = false;
      this.detail.replaceChildren(h('h2', { text: 'Proposal' }), h('p', { class: 'muted', text: `Could not open ${id}: ${e.message}` }));
    }
  }

  renderDetail(p) {
    const heading = h('h2', { id: 'proposal-title', tabindex: '-1', text: p.gist || p.id });
    const facts = h('dl', { class: 'facts' });
    const row = (k, v) => { if (v !== null && v !== undefined && v !== '') facts.append(h('dt', { text: k }), h('dd', {}, v)); };
    row('State', badge(p.state, `state state-${p.state}`));
    row('Skill', h('a', { href: skillHash(p.skill, p.layer), text: p.skill }));
    row('Action', p.action + (p.file_path ? ` ${p.file_path}` : ''));
    row('Layer', p.layer);
    row('Proposed by', p.origin);
    row('Proposed', timeEl(p.created_at));
    if (p.decided_at) row('Decided', timeEl(p.decided_at));
    if (p.reason) row('Reason', p.reason);
    if (p.conversation) row('Conversation', p.conversation);

    const diffBlock = p.diff
      ? [h('h3', {}, 'Changes ', diffStats(p.diff)), diffView(p.diff, `Diff of ${p.gist || p.id}`)]
      : [h('h3', { text: 'Changes' }), h('p', { class: 'muted', text: 'No diff recorded.' })];

    const guard = [h('h3', { text: 'Guard report' }), h('p', {}, verdictBadge(p.verdict),
      p.guard_asks ? h('span', { class: 'warn-note', text: ' The guard asks a person to confirm this change.' }) : null)];
    if (p.scan && typeof p.scan === 'object') guard.push(guardReport(p.scan));
    else if (p.scan_report) guard.push(h('pre', { class: 'scan-text', tabindex: '0' }, h('code', { text: p.scan_report })));
    else guard.push(h('p', { class: 'muted', text: p.verdict === 'safe' ? 'The guard found nothing in the proposed content.' : 'No detailed report was stored.' }));

    const parts = [heading, facts, ...diffBlock, ...guard];
    if (p.state === 'pending') {
      const reason = h('input', { type: 'text', autocomplete: 'off', placeholder: 'Why (kept with the decision)' });
      // A live refresh of the same proposal keeps what was typed.
      const typed = this.detail.dataset.id === p.id ? this.detail.querySelector('.decide input') : null;
      if (typed) {
        reason.value = typed.value;
        if (document.activeElement === typed) queueMicrotask(() => reason.focus());
      }
      const approve = h('button', { type: 'button', class: 'button primary', text: 'Approve' });
      const reject = h('button', { type: 'button', class: 'button danger', text: 'Reject' });
      approve.addEventListener('click', () => this.decideOne(p, 'approve', reason.value.trim(), [approve, reject]));
      reject.addEventListener('click', () => this.decideOne(p, 'reject', reason.value.trim(), [approve, reject]));
      parts.push(h('div', { class: 'decide' }, field('Reason (optional)', reason).wrap, h('div', { class: 'decide-buttons' }, approve, reject)));
    }
    const close = h('a', { class: 'close-detail', href: '#/inbox', text: 'Close' });
    parts.unshift(close);
    const wasHidden = this.detail.hidden;
    const previous = this.detail.dataset.id;
    this.detail.dataset.id = p.id;
    this.detail.setAttribute('aria-labelledby', 'proposal-title');
    this.detail.removeAttribute('aria-label');
    this.detail.hidden = false;
    this.detail.replaceChildren(...parts);
    if (wasHidden || previous !== p.id) {
      if (document.activeElement && this.list.contains(document.activeElement)) heading.focus({ preventScroll: false });
      else if (window.matchMedia('(max-width: 900px)').matches) heading.scrollIntoView({ block: 'start' });
    }
  }

  async decide(id, action, reason) {
    const body = reason ? { reason } : {};
    const result = await api('POST', `/proposals/${enc(id)}/${action}`, body);
    if (result && result.success === false) throw new ApiError(200, result);
    return result;
  }

  async decideOne(p, action, reason, buttons) {
    for (const b of buttons) b.disabled = true;
    try {
      const result = await this.decide(p.id, action, reason);
      const state = result.proposal?.state;
      toast(`${action === 'approve' ? 'Approved' : 'Rejected'}: ${p.gist || p.id}${state && state !== 'applied' && state !== 'rejected' ? ` (${state})` : ''}`, 'success');
      this.selected.delete(p.id);
    } catch (e) {
      toast(`Could not ${action} ${p.gist || p.id}: ${e.message}`, 'error');
    } finally {
      for (const b of buttons) b.disabled = false;
    }
    refreshPendingSoon();
    await this.load(true);
  }

  async decideMany(action) {
    const ids = [...this.selected];
    if (!ids.length) return;
    const verb = action === 'approve' ? 'Approve' : 'Reject';
    const ok = await confirmAction(`${verb} ${plural(ids.length, 'proposal')}?`,
      { title: `${verb} selected`, ok: verb, danger: action === 'reject' });
    if (!ok) return;
    const reason = this.bulkReason.value.trim();
    this.approveSelected.disabled = true;
    this.rejectSelected.disabled = true;
    let done = 0;
    const failed = [];
    for (const id of ids) {
      try {
        await this.decide(id, action, reason);
        done += 1;
        this.selected.delete(id);
      } catch (e) {
        failed.push(`${id}: ${e.message}`);
      }
    }
    if (done) toast(`${action === 'approve' ? 'Approved' : 'Rejected'} ${plural(done, 'proposal')}.`, 'success');
    if (failed.length) toast(`${failed.length} failed \u2014 ${failed[0]}`, 'error');
    this.bulkReason.value = '';
    refreshPendingSoon();
    await this.load(true);
  }

  onEvent(event) {
    if (event.type.startsWith('proposal.') || event.type === 'resync') this.refreshSoon();
  }

  unmount() {
    this.loadSeq += 1;
    this.refreshSoon.cancel();
  }
}

class InstallView {
  constructor(root) {
    this.root = root;
  }

  mount() {
    this.source = h('input', { type: 'text', required: true, autocomplete: 'off', spellcheck: 'false', placeholder: './pack, https://host/skills.git#v1, https://…/SKILL.md' });
    this.trust = select([['community', 'Community (default)'], ['trusted', 'Trusted']], 'community');
    this.categoryInput = h('input', { type: 'text', autocomplete: 'off', placeholder: 'e.g. tools' });
    this.shared = h('input', { type: 'checkbox' });
    this.scanButton = h('button', { type: 'submit', class: 'button primary', text: 'Scan' });
    const form = h('form', { class: 'card install-form' },
      field('Source', this.source, 'A folder on the server, an archive, a git repository or an https:// URL. Nothing is installed until you confirm.').wrap,
      h('div', { class: 'row' }, field('Trust', this.trust).wrap, field('Category (optional)', this.categoryInput).wrap),
      state.session && state.session.org_id === '0'
        ? h('label', { class: 'check' }, this.shared, h('span', { text: 'Install into the shared layer (every user sees it)' }))
        : null,
      h('div', { class: 'actions' }, this.scanButton));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.scan();
    });
    this.report = h('section', { class: 'panel install-report', 'aria-labelledby': 'install-report-title', hidden: true });
    this.result = h('section', { class: 'panel install-result', 'aria-labelledby': 'install-result-title', hidden: true });
    add(this.root, [
      h('div', { class: 'view-head' }, h('h1', { text: 'Install' }),
        h('p', { class: 'muted', text: 'Fetch skills into quarantine, read the guard\u2019s report, then decide.' })),
      form, this.report, this.result,
    ]);
  }

  async scan() {
    const source = this.source.value.trim();
    if (!source) {
      this.source.setAttribute('aria-invalid', 'true');
      this.source.focus();
      toast('Enter a source to scan.', 'error');
      return;
    }
    this.source.removeAttribute('aria-invalid');
    await this.discardQuietly();
    const body = { source };
    if (this.trust.value !== 'community') body.trust = this.trust.value;
    if (this.categoryInput.value.trim()) body.category = this.categoryInput.value.trim();
    if (this.shared.checked) body.shared = true;
    this.scanButton.disabled = true;
    this.scanButton.textContent = 'Scanning\u2026';
    this.result.hidden = true;
    this.report.hidden = false;
    this.report.setAttribute('aria-busy', 'true');
    this.report.replaceChildren(h('h2', { id: 'install-report-title', text: 'Scanning\u2026' }), h('p', { class: 'muted', text: `Fetching ${source} into quarantine.` }));
    try {
      const data = await api('POST', '/install', body);
      this.pending = data.install_id;
      this.renderReport(data);
    } catch (e) {
      this.pending = null;
      this.report.replaceChildren(h('h2', { id: 'install-report-title', text: 'Scan failed' }), h('p', { class: 'error-text', text: e.message }));
    } finally {
      this.report.removeAttribute('aria-busy');
      this.scanButton.disabled = false;
      this.scanButton.textContent = 'Scan';
    }
  }

  renderReport(data) {
    const skills = data.skills || [];
    const allowed = skills.filter((s) => s.outcome === 'allowed').length;
    const title = h('h2', { id: 'install-report-title', tabindex: '-1', text: `Scan report: ${data.identifier || this.source.value}` });
    const cards = skills.map((s) => {
      const card = h('article', { class: `install-skill is-${s.outcome === 'allowed' ? 'allowed' : 'blocked'}` },
        h('div', { class: 'install-skill-head' }, h('h3', { text: s.name }), badge(s.outcome === 'allowed' ? 'will install' : 'blocked', `outcome-${s.outcome}`)),
        s.reason ? h('p', { text: s.reason }) : null);
      for (const err of s.validation_errors || []) card.append(h('p', { class: 'error-text', text: typeof err === 'string' ? err : JSON.stringify(err) }));
      for (const w of s.warnings || []) card.append(h('p', { class: 'warn-note', text: typeof w === 'string' ? w : JSON.stringify(w) }));
      if (s.signature && s.signature.message) card.append(h('p', { class: 'fine', text: `Signature: ${s.signature.status} \u2014 ${s.signature.message}` }));
      if (s.scan) card.append(guardReport(s.scan, { dismissHelp: false, knownReason: s.reason }));
      if (s.dismissal && s.dismissal.yaml) {
        card.append(h('details', { class: 'dismiss-help' },
          h('summary', { text: 'How to allow it' }),
          h('p', {}, 'After reading the findings over the line, the operator can write this to ', h('code', { text: s.dismissal.file || '' }),
            ' on the server (replacing each reason with why the line is safe), then scan again:'),
          h('pre', {}, h('code', { text: s.dismissal.yaml }))));
      }
      return card;
    });
    this.installButton = h('button', { type: 'button', class: 'button primary', text: allowed ? `Install ${plural(allowed, 'skill')}` : 'Install', disabled: !allowed });
    const discard = h('button', { type: 'button', class: 'button', text: 'Discard' });
    this.installButton.addEventListener('click', () => this.confirm());
    discard.addEventListener('click', () => this.discard());
    this.report.replaceChildren(title,
      h('p', { class: 'summary', text: `${plural(skills.length, 'skill')} found; ${fmt(allowed)} allowed, ${fmt(skills.length - allowed)} blocked. Nothing is installed yet.` }),
      ...cards,
      h('div', { class: 'actions install-actions' }, this.installButton, discard,
        allowed ? null : h('span', { class: 'muted', text: 'Every skill was blocked; nothing can be installed.' })));
    title.focus();
  }

  async confirm() {
    if (!this.pending) return;
    const id = this.pending;
    this.installButton.disabled = true;
    this.installButton.textContent = 'Installing\u2026';
    try {
      const result = await api('POST', `/install/${enc(id)}/confirm`, {});
      this.pending = null;
      this.renderResult(result);
    } catch (e) {
      toast(`Install failed: ${e.message}`, 'error');
      if (e.body && e.body.skills) {
        this.pending = null;
        this.renderResult(e.body);
      } else {
        this.installButton.disabled = false;
        this.installButton.textContent = 'Install';
      }
    }
  }

  renderResult(result) {
    const skills = result.skills || [];
    const installed = skills.filter((s) => s.outcome === 'installed');
    this.report.hidden = true;
    this.result.hidden = false;
    const title = h('h2', { id: 'install-result-title', tabindex: '-1', text: installed.length ? `Installed ${plural(installed.length, 'skill')}` : 'Nothing was installed' });
    const list = h('ul', { class: 'install-outcomes' }, ...skills.map((s) => h('li', {},
      s.outcome === 'installed' ? h('a', { href: skillHash(s.name), text: s.name }) : h('strong', { text: s.name }), ' ',
      badge(s.outcome, `outcome-${s.outcome === 'installed' ? 'allowed' : 'blocked'}`),
      s.reason ? h('span', { class: 'muted', text: ` ${s.reason}` }) : null)));
    this.result.replaceChildren(title, list, result.error ? h('p', { class: 'warn-note', text: result.error }) : null);
    toast(installed.length ? `Installed ${installed.map((s) => s.name).join(', ')}.` : 'Nothing was installed.', installed.length ? 'success' : 'warn');
    title.focus();
  }

  async discard() {
    await this.discardQuietly();
    this.report.hidden = true;
    this.report.replaceChildren();
    toast('Discarded: nothing was installed.');
    this.source.focus();
  }

  async discardQuietly() {
    const id = this.pending;
    this.pending = null;
    if (!id) return;
    try {
      await api('DELETE', `/install/${enc(id)}`);
    } catch (e) {
      if (e.status !== 404) toast(`Discard failed: ${e.message}`, 'error');
    }
  }

  unmount() {
    this.discardQuietly();
  }
}

class NotFoundView {
  constructor(root) {
    this.root = root;
  }

  mount() {
    add(this.root, [h('h1', { text: 'Not found' }), h('p', {}, 'There is no page here. ', h('a', { href: '#/skills', text: 'Go to the skills.' }))]);
  }
}

const VIEWS = { skills: SkillsView, skill: SkillView, inbox: InboxView, install: InstallView };

// -------------------------------------------------------------------- start

async function boot() {
  $('#signin-form').addEventListener('submit', signIn);
  $('#sign-out').addEventListener('click', signOut);
  $('#skip-link').addEventListener('click', (e) => {
    e.preventDefault();
    const target = $('#view h1') || $('#main');
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
  });
  window.addEventListener('hashchange', () => route());
  // Links inside rendered Markdown: support files open in the file viewer;
  // other relative links would leave the app, so they do nothing.
  document.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('.markdown a');
    if (!a) return;
    const href = a.getAttribute('href') || '';
    if (/^(https?:|mailto:)/i.test(href)) return;
    e.preventDefault();
    if (state.view instanceof SkillView) {
      const path = href.replace(/^\.\//, '').split('#')[0];
      const button = [...document.querySelectorAll('.file-button')].find((b) => b.textContent === path);
      if (button) {
        button.click();
        button.focus();
      }
    }
  });
  let session = null;
  try {
    session = await api('GET', '/session');
  } catch {
    session = null;
  }
  if (session && session.csrf_token) await startSession(session);
  else showSignIn('');
}

boot();
