// The web UI in a real browser: playwright-core driving Debian's Chromium,
// headless. Driven by tests/e2e/web_ui.sh, which builds the home and starts
// `skillrt serve` (the UI built into the binary).
//
// Environment: BASE_URL (http://127.0.0.1:PORT), ALICE and BOB (org1 users'
// tokens), EDIT_PROPOSAL (an agent's pending edit of alice's "staged-skill"),
// CREATE_PROPOSAL (an agent's pending new skill "agent-draft"), INSTALL_SOURCE
// (a folder with a clean and a risky skill), SCREENSHOT_DIR, CHROMIUM.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { CheckFailed, check, env, log, runChecks } from '../checks.mjs';

const tools = new URL('../../tools/node_modules/', import.meta.url);
const { chromium } = await import(new URL('playwright-core/index.mjs', tools));

const base = env('BASE_URL');
const alice = env('ALICE');
const bob = env('BOB');
const editProposal = env('EDIT_PROPOSAL');
const createProposal = env('CREATE_PROPOSAL');
const installSource = env('INSTALL_SOURCE');
const shots = env('SCREENSHOT_DIR');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Polls `probe` (async, returns a truthy value when done) until it holds.
async function until(probe, what, ms = 10000) {
  const deadline = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) return last;
    } catch (error) {
      last = error.message;
    }
    if (Date.now() > deadline) throw new CheckFailed(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await sleep(100);
  }
}

// REST with a bearer token, from Node (not the browser).
async function rest(method, route, { token, body, headers = {} } = {}) {
  const response = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let parsed = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed };
}

const skillMd = (name, description, body) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${body}`;

// A tiny HTTP server that counts every request: the XSS payload's beacon.
function startBeacon() {
  const beacon = { hits: [] };
  beacon.server = http.createServer((req, res) => {
    beacon.hits.push(req.url);
    res.writeHead(204);
    res.end();
  });
  return new Promise((resolve) => beacon.server.listen(0, '127.0.0.1', () => {
    beacon.port = beacon.server.address().port;
    resolve(beacon);
  }));
}

// --- page helpers ---------------------------------------------------------

const cspViolations = [];
const pageErrors = [];

// A new browser context with one page, its console watched for CSP
// violations and uncaught errors, and every WebSocket frame it receives kept.
async function open(browser, label, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const frames = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(`${label}: ${message.text()}`);
  });
  page.on('pageerror', (error) => pageErrors.push(`${label}: ${error.message}`));
  page.on('websocket', (ws) => ws.on('framereceived', (frame) => {
    try {
      frames.push(JSON.parse(frame.payload));
    } catch {
      frames.push({ raw: String(frame.payload) });
    }
  }));
  return { label, context, page, frames };
}

async function signIn(tab, token, who) {
  const { page } = tab;
  await page.goto(`${base}/`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await until(async () => (await page.locator('#who').textContent()).includes(who), `${tab.label} signed in as ${who}`);
}

async function shoot(tab, name) {
  const size = tab.page.viewportSize();
  // From the top (a sticky header would otherwise sit mid-page), without
  // the passing toasts.
  await tab.page.evaluate(async () => {
    window.scrollTo(0, 0);
    for (const toast of document.querySelectorAll('.toast')) toast.remove();
    if (document.fonts) await document.fonts.ready;
  });
  await tab.page.screenshot({ path: path.join(shots, `${name}-${size.width}x${size.height}.png`), fullPage: true });
}

const texts = (locator) => locator.evaluateAll((els) => els.map((el) => el.textContent.trim()));

async function summary(page) {
  return (await page.locator('.summary').first().textContent()) || '';
}

async function goHash(page, hash) {
  await page.evaluate((h) => { location.hash = h; }, hash);
}

async function badgeCount(page) {
  const badge = page.locator('#pending-count');
  if (await badge.isHidden()) return 0;
  return Number(await badge.textContent());
}

async function waitLive(tab) {
  await until(async () => (await tab.page.locator('#live').getAttribute('data-state')) === 'live',
    `${tab.label}'s live connection`);
}

// --- the checks -----------------------------------------------------------

async function signInChecks(browser) {
  const a = await open(browser, 'A');
  const response = await a.page.goto(`${base}/`);
  const csp = response.headers()['content-security-policy'] || '';
  check(csp.includes("script-src 'self'") && !csp.includes('unsafe-inline') && csp.includes("default-src 'none'"),
    `the page's Content-Security-Policy: [${csp}]`);
  await a.page.locator('#signin').waitFor({ state: 'visible' });
  check(await a.page.locator('#app-header').isHidden(), 'no header before signing in');
  check(await a.page.locator('.skill-item').count() === 0, 'no skills before signing in');
  const tokenField = a.page.getByLabel('API token');
  check(await tokenField.getAttribute('type') === 'password', 'the token field is a password field');
  await shoot(a, 'signin');

  await tokenField.fill('skrt_not_a_real_token');
  await a.page.getByRole('button', { name: 'Sign in' }).click();
  await a.page.locator('#signin-error').waitFor({ state: 'visible' });
  const error = await a.page.locator('#signin-error').textContent();
  check(/not accepted/i.test(error), `a wrong token is refused with a message: [${error}]`);
  check(await a.page.locator('#app-header').isHidden(), 'still signed out after a wrong token');
  check((await a.context.cookies()).every((c) => c.name !== 'skillrt_session'), 'no session cookie for a wrong token');

  await tokenField.fill(alice);
  await a.page.getByRole('button', { name: 'Sign in' }).click();
  await until(async () => (await a.page.locator('#who').textContent()).includes('alice'), 'alice signed in');
  await a.page.locator('.skill-item').first().waitFor();
  const cookie = (await a.context.cookies()).find((c) => c.name === 'skillrt_session');
  check(cookie, `a skillrt_session cookie was set: ${JSON.stringify(await a.context.cookies())}`);
  check(cookie.httpOnly === true, `the session cookie is HttpOnly: ${JSON.stringify(cookie)}`);
  check(cookie.sameSite === 'Strict', `the session cookie is SameSite=Strict: ${JSON.stringify(cookie)}`);
  check(!(await a.page.evaluate(() => document.cookie)).includes('skillrt_session'), 'scripts cannot read the cookie');
  check(!(await a.page.evaluate(() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage))).includes('skrt_'),
    'the token is not kept in web storage');

  await a.page.reload();
  await until(async () => (await a.page.locator('#who').textContent()).includes('alice'), 'still signed in after a reload');
  log('sign-in: a form without a session, a wrong token refused, the cookie HttpOnly + SameSite=Strict, kept over a reload');
  return a;
}

async function browseChecks(a) {
  const { page } = a;
  const all = await rest('GET', '/skills?limit=1', { token: alice });
  check(all.status === 200, `REST listing: ${all.status}`);
  const total = all.body.total;
  await until(async () => (await summary(page)).includes(`of ${total} skills`), `the summary "of ${total} skills"`);
  check(await page.locator('.skill-item').count() === Math.min(total, 50), 'the first page holds 50 skills');
  await page.getByLabel('Per page').selectOption('25');
  await until(async () => (await summary(page)).includes(`1\u201325 of ${total} skills`), 'pages of 25');
  check(await page.locator('.skill-item').count() === 25, 'the first page holds 25 skills');

  await page.getByLabel('Layer').selectOption('user');
  await until(async () => (await summary(page)).includes('of 1 skill'), 'the user layer filter');
  check(JSON.stringify(await texts(page.locator('.skill-link'))) === '["staged-skill"]', 'the user layer holds staged-skill only');
  check(JSON.stringify(await texts(page.locator('.skill-item .layer'))) === '["user"]', 'and shows it as a user skill');

  await page.getByLabel('Layer').selectOption('');
  await until(async () => (await summary(page)).includes(`of ${total} skills`), 'all layers again');
  await page.getByLabel('Category').selectOption('ops');
  await until(async () => (await summary(page)).includes('of 2 skills'), 'the ops category filter');
  const opsNames = (await texts(page.locator('.skill-link'))).sort();
  check(JSON.stringify(opsNames) === '["restart-service","rotate-logs"]', `the ops skills: ${opsNames}`);
  check((await texts(page.locator('.skill-item .category'))).every((c) => c === 'ops'), 'each one in ops');

  await page.getByLabel('Category').selectOption('bulk');
  await until(async () => (await summary(page)).includes('1\u201325 of 30 skills'), 'the first bulk page');
  check(await page.getByRole('button', { name: /Previous/ }).isDisabled(), 'no previous page on the first');
  await page.getByRole('button', { name: /Next/ }).click();
  await until(async () => (await summary(page)).includes('26\u201330 of 30 skills'), 'the second bulk page');
  const second = await texts(page.locator('.skill-link'));
  check(second.length === 5 && second.every((n) => /^bulk-(2[6-9]|30)$/.test(n)), `the second page: ${second}`);
  check(page.url().includes('offset=25'), `the page is in the address: ${page.url()}`);
  check(await page.getByRole('button', { name: /Next/ }).isDisabled(), 'no next page after the last');
  await page.getByRole('button', { name: /Previous/ }).click();
  await until(async () => (await summary(page)).includes('1\u201325 of 30 skills'), 'back on the first bulk page');
  log('browse: layer and category filters, paging forwards and back');

  await goHash(page, '#/skills');
  await until(async () => (await summary(page)).includes(`1\u2013${Math.min(total, 50)} of ${total} skills`), 'the unfiltered list');
  await shoot(a, 'skills');

  const search = page.getByLabel('Search', { exact: true });
  await search.fill('rotate logs');
  await search.press('Enter');
  await until(async () => (await summary(page)).includes('for \u201crotate logs\u201d'), 'the search results');
  check((await texts(page.locator('.skill-link'))).includes('rotate-logs'), 'rotate-logs is found by search');
  const item = page.locator('.skill-item').filter({ has: page.locator('.skill-link', { hasText: 'rotate-logs' }) });
  const chips = (await texts(item.locator('.matched mark'))).map((w) => w.toLowerCase());
  check(chips.length > 0 && chips.every((w) => ['rotate', 'logs'].includes(w)) && chips.includes('rotate'),
    `the matched words are shown: ${JSON.stringify(chips)}`);
  check(await item.locator('.desc mark').count() > 0, 'and highlighted in the description');
  await shoot(a, 'search');
  log(`search: rotate-logs found, matched words shown (${chips.join(', ')})`);

  await item.locator('.skill-link').click();
  await page.locator('.markdown h2').first().waitFor();
  check(page.url().includes('#/skill/rotate-logs'), `the skill page's address: ${page.url()}`);
  check(await page.locator('.markdown.raw').count() === 0, 'the Markdown is rendered (the server gave html)');
  check((await texts(page.locator('.markdown h2'))).includes('When to use'), 'a rendered heading');
  check((await texts(page.locator('.markdown strong'))).includes('disk usage'), 'rendered emphasis');
  check(await page.locator('.markdown a[href="https://linux.die.net/man/8/logrotate"]').count() === 1, 'a rendered link');
  check((await page.locator('.markdown pre').first().textContent()).includes('logrotate -f'), 'a rendered code block');
  await page.getByRole('button', { name: 'references/options.md' }).click();
  await until(async () => (await page.locator('.file-view').textContent()).includes('<b>not html</b> & keep'), 'the support file');
  check(await page.locator('.file-view b').count() === 0, 'the support file is shown as text');
  await until(async () => page.locator('.guard .verdict-safe').count(), 'the clean guard report');
  await shoot(a, 'skill');
  log('skill page: rendered Markdown, the support file as text, the guard report');

  await goHash(page, '#/skill/deploy-app?layer=shared');
  await page.locator('.skill-side .ready-setup_needed').waitFor();
  const readiness = await page.locator('.skill-side').textContent();
  check(readiness.includes('WEBUI_DEPLOY_TOKEN'), `readiness names the missing variable: ${readiness}`);

  await goHash(page, `#/skill/${encodeURIComponent('devtools:review')}?layer=shared`);
  await until(async () => (await page.locator('.skill-side').textContent()).includes('Part of a plugin'),
    'the plugin skill\'s provenance');
  check((await page.locator('.skill-side').textContent()).includes('devtools'), 'the plugin is named');
  await page.locator('.markdown h1').waitFor();
  const body = await page.locator('.markdown').textContent();
  check(!body.includes('Bundle context') && !body.includes('name: review'), `the plugin skill's body: ${body}`);
  await shoot(a, 'plugin-skill');
  log('a plugin skill: its page names the plugin and renders its SKILL.md');

  await goHash(page, '#/skill/risky-tool?layer=shared');
  await page.locator('.finding').first().waitFor();
  const rules = await texts(page.locator('.finding .rule'));
  check(rules.includes('curl_pipe_shell'), `the guard report's rule ids: ${rules}`);
  const findings = await page.locator('.finding').count();
  check(await page.locator('.finding .explain').count() === findings, 'each finding is explained');
  check(await page.locator('.finding details.dismiss-help').count() === findings, 'each finding says how to dismiss it');
  check((await texts(page.locator('.finding .where'))).every((w) => /^SKILL\.md:\d+/.test(w)), 'each finding has a line');
  await page.locator('.finding details.dismiss-help summary').first().click();
  check((await page.locator('.finding details.dismiss-help pre').first().textContent()).includes(`id: ${rules[0]}`),
    'the dismissal snippet names the rule');
  await shoot(a, 'guard-report');
  log(`readiness (setup needed, the missing variable) and the guard report (${rules.join(', ')})`);
}

async function narrowShots(browser) {
  const d = await open(browser, 'D', { width: 360, height: 740 });
  await d.page.goto(`${base}/`);
  await d.page.locator('#signin').waitFor({ state: 'visible' });
  await shoot(d, 'signin');
  await signIn(d, alice, 'alice');
  await d.page.locator('.skill-item').first().waitFor();
  await shoot(d, 'skills');
  await goHash(d.page, '#/skill/rotate-logs?layer=shared');
  await d.page.getByRole('button', { name: 'references/options.md' }).click();
  await d.page.locator('.file-view').waitFor();
  await until(async () => d.page.locator('.guard .verdict-safe').count(), 'the guard report at 360 px');
  await shoot(d, 'skill');
  // Nothing may be wider than the screen.
  const overflow = await d.page.evaluate(() => document.documentElement.scrollWidth);
  check(overflow <= 360, `the skill page fits 360 px (scrollWidth ${overflow})`);
  log('360 px: sign-in, skills and skill page fit');
  return d;
}

async function inboxShots(a, d) {
  for (const tab of [a, d]) {
    await goHash(tab.page, `#/inbox/${editProposal}`);
    await tab.page.locator('.proposal-detail .diff .d-add').first().waitFor();
    await shoot(tab, 'inbox');
  }
  const added = await texts(a.page.locator('.proposal-detail .diff .d-add'));
  const removed = await texts(a.page.locator('.proposal-detail .diff .d-del'));
  check(added.some((l) => l.includes('approved in the browser')) && removed.some((l) => l.includes('end-to-end test skill')),
    `the diff's lines are marked: +${added} -${removed}`);
  check(await a.page.locator('.proposal').count() === 2, 'two pending proposals');
  log('inbox: the proposal opens with a coloured unified diff');
}

async function liveChecks(browser, a) {
  const b = await open(browser, 'B');
  const c = await open(browser, 'C');
  await signIn(b, alice, 'alice');
  await signIn(c, bob, 'bob');

  await goHash(b.page, '#/skill/staged-skill?layer=user');
  await until(async () => (await b.page.locator('.markdown').textContent()).includes('Steps for the end-to-end test skill.'),
    "B shows the skill's current text");
  await goHash(c.page, '#/skill/staged-skill?layer=user');
  await until(async () => /no skill by this name/i.test(await c.page.locator('.lead').textContent()),
    "bob cannot open alice's skill");
  await goHash(c.page, '#/inbox');
  await until(async () => /No pending proposals/.test(await summary(c.page)), "bob's empty inbox");
  await Promise.all([waitLive(a), waitLive(b), waitLive(c)]);
  await until(async () => (await badgeCount(b.page)) === 2, "B's inbox badge shows 2");
  check(await badgeCount(c.page) === 0, "C's inbox badge is empty");
  await b.page.evaluate(() => { window.__noReload = 'still here'; });
  const bFramesBefore = b.frames.length;

  // A approves the edit from the inbox.
  await goHash(a.page, `#/inbox/${editProposal}`);
  const detail = a.page.locator('.proposal-detail');
  await detail.locator('.diff').waitFor();
  await detail.getByLabel('Reason (optional)').fill('reviewed in the browser');
  await detail.getByRole('button', { name: 'Approve' }).click();
  await until(async () => (await a.page.locator('#toasts').textContent()).includes('Approved'), "A's confirmation");
  const approvedAt = Date.now();

  await until(async () => (await b.page.locator('.markdown').textContent()).includes('Steps approved in the browser.'),
    "B's skill page showing the approved text without a reload");
  check(await b.page.evaluate(() => window.__noReload) === 'still here', 'B was not reloaded');
  check(/Updated live/.test(await b.page.locator('.live-note').textContent()), 'B says the page was updated live');
  await until(async () => (await badgeCount(b.page)) === 1, "B's badge down to 1");
  const bEvents = b.frames.slice(bFramesBefore);
  check(bEvents.some((e) => e.type === 'proposal.decided' && e.id === editProposal),
    `B received proposal.decided: ${JSON.stringify(bEvents)}`);
  log(`live: B's skill page and badge updated ${Date.now() - approvedAt} ms after A approved`);

  // Give C every chance to receive something, then check it did not.
  await sleep(1500);
  check(/No pending proposals/.test(await summary(c.page)), "C's inbox stays empty");
  check(await c.page.locator('.proposal').count() === 0, 'C lists no proposal');
  check(await badgeCount(c.page) === 0, "C's badge stays empty");
  check(c.frames.some((e) => e.type === 'hello'), `C's socket was connected: ${JSON.stringify(c.frames)}`);
  const leaked = c.frames.filter((e) => JSON.stringify(e).includes(editProposal) || JSON.stringify(e).includes('staged-skill'));
  check(leaked.length === 0, `C received alice's events: ${JSON.stringify(leaked)}`);
  const approved = await rest('GET', `/proposals/${editProposal}`, { token: alice });
  check(approved.body.proposal.state === 'applied', `the proposal is applied: ${JSON.stringify(approved.body)}`);
  log(`live: C (bob) saw nothing of it (its frames: ${c.frames.map((e) => `${e.type}${e.layer ? ` ${e.layer}` : ''}`).join(', ')}; none about alice)`);
  await b.context.close();
  await c.context.close();
}

async function rollbackCheck(a) {
  const { page } = a;
  await goHash(page, '#/skill/staged-skill?layer=user');
  await until(async () => (await page.locator('.history .entry').count()) === 2, 'the skill\'s two ledger entries');
  const newest = page.locator('.history .entry').first();
  check((await newest.locator('.entry-head').textContent()).includes('approve'), 'the newest entry is the approval');
  check((await newest.locator('.file-changes').textContent()).includes('SKILL.md'), 'the entry lists the changed file');
  // Its diff is fetched when it is opened, and shows the approved line.
  await newest.locator('.entry-diff summary').click();
  await until(async () => (await newest.locator('.entry-diff pre.diff').count()) === 1, 'the entry\'s diff');
  const entryDiff = await newest.locator('.entry-diff pre.diff').textContent();
  check(entryDiff.includes('-Steps for the end-to-end test skill.') && entryDiff.includes('+Steps approved in the browser.'),
    `the entry's diff shows the change: ${entryDiff}`);
  await newest.getByRole('button', { name: /Roll back/ }).click();
  await page.locator('#confirm-dialog').waitFor({ state: 'visible' });
  check((await page.locator('#confirm-text').textContent()).includes('staged-skill'), 'the rollback asks first');
  await page.locator('#confirm-ok').click();
  await until(async () => (await page.locator('.markdown').textContent()).includes('Steps for the end-to-end test skill.'),
    'the skill as it was before the approval');
  await until(async () => (await page.locator('.history .entry').count()) === 3, 'the rollback in the history');
  check((await page.locator('.history .entry').first().locator('.entry-head').textContent()).includes('rollback'),
    'the newest entry is the rollback');
  const now = await rest('GET', '/skills/staged-skill', { token: alice });
  check(now.body.content.includes('Steps for the end-to-end test skill.'), 'the rollback is on disk');
  await shoot(a, 'skill-history');
  log('history: the approval listed with its file change and its diff, rolled back after a confirmation');
}

async function xssChecks(a, beacon) {
  const beaconUrl = `http://127.0.0.1:${beacon.port}`;
  const payload = [
    'Before the payload.',
    '',
    '<script>window.__pwned=1</script>',
    '',
    '[x](javascript:window.__pwned=2)',
    '',
    '<img src=x onerror="window.__pwned=3">',
    '',
    '<iframe src="data:text/html,<script>parent.__pwned=4</script>"></iframe>',
    '',
    `<div style="background:url(${beaconUrl}/beacon-css)">styled block</div>`,
    '',
    `![beacon image](${beaconUrl}/beacon-img)`,
    '',
    '<a href="javascript:window.__pwned=5">raw link</a>',
    '',
    'After the payload.',
    '',
  ].join('\n');
  let created = await rest('POST', '/skills', { token: alice, body: { name: 'xss-probe', content: skillMd('xss-probe', 'Every trick in the book', payload) } });
  if (created.status === 409) {
    created = await rest('POST', '/skills', { token: alice, body: { name: 'xss-probe', confirm: true, content: skillMd('xss-probe', 'Every trick in the book', payload) } });
  }
  check(created.status === 201, `the XSS probe skill was created: ${created.status} ${JSON.stringify(created.body)}`);

  const { page } = a;
  await goHash(page, '#/skill/xss-probe?layer=user');
  await until(async () => (await page.locator('.markdown').textContent()).includes('After the payload.'), 'the probe rendered');
  check(await page.locator('.markdown.raw').count() === 0, 'the probe is rendered Markdown');
  const link = page.locator('.markdown a', { hasText: /^x$/ });
  if (await link.count()) await link.first().click();
  const rawLink = page.locator('.markdown a', { hasText: 'raw link' });
  if (await rawLink.count()) await rawLink.first().click();
  await sleep(800);

  for (const frame of page.frames()) {
    const flag = await frame.evaluate(() => window.__pwned).catch(() => undefined);
    check(flag === undefined, `window.__pwned is ${flag} in ${frame.url()}`);
  }
  check(page.frames().length === 1, `no frame was created: ${page.frames().map((f) => f.url())}`);
  check(beacon.hits.length === 0, `the beacon was hit: ${beacon.hits}`);
  const active = await page.locator('.markdown :is(script, iframe, img, object, embed, style, [style], [onerror], [src])').count();
  check(active === 0, `${active} active elements in the rendered container`);
  check(await page.locator('a[href^="javascript:" i]').count() === 0, 'no javascript: link in the page');
  const shown = await page.locator('.markdown').textContent();
  check(shown.includes('<script>window.__pwned=1</script>'), `raw HTML is shown as text: ${shown.slice(0, 400)}`);
  check(page.url().includes('#/skill/xss-probe'), `still on the probe's page: ${page.url()}`);
  await shoot(a, 'xss-probe');

  // The server's rendering on its own, without the page's second pass.
  const serverHtml = await page.evaluate(async () => {
    const r = await fetch('/api/v1/skills/xss-probe?render=html&layer=user');
    const data = await r.json();
    const html = data.html ?? data.skill?.html;
    const doc = new DOMParser().parseFromString(html, 'text/html');
    return {
      html,
      active: doc.body.querySelectorAll('script, iframe, img, object, embed, style, [style], [onerror], [src]').length,
      jsLinks: [...doc.body.querySelectorAll('a[href]')].filter((el) => !/^(https?:|mailto:|#|\/|\.|[^:]*$)/i.test(el.getAttribute('href').trim())).length,
    };
  });
  check(typeof serverHtml.html === 'string', 'the server renders html');
  check(serverHtml.active === 0 && serverHtml.jsLinks === 0, `the server's html is inert: ${serverHtml.html}`);
  await sleep(200);
  check(beacon.hits.length === 0, `the beacon was hit: ${beacon.hits}`);
  log('XSS: script, javascript: links, onerror, a data: iframe and a CSS url() beacon changed nothing (flag unset, beacon 0 hits)');
}

async function csrfChecks(a) {
  const { page } = a;
  const body = { name: 'csrf-probe', content: skillMd('csrf-probe', 'Should never be written', 'Nope.\n') };
  const pageFetch = (headers) => page.evaluate(async ([b, h]) => {
    const r = await fetch('/api/v1/skills', { method: 'POST', headers: { 'Content-Type': 'application/json', ...h }, body: JSON.stringify(b) });
    return r.status;
  }, [body, headers]);
  let status = await pageFetch({});
  check(status === 403, `a write from the page without X-CSRF-Token: ${status}`);
  status = await pageFetch({ 'X-CSRF-Token': 'not-the-token' });
  check(status === 403, `a write with a wrong X-CSRF-Token: ${status}`);
  const gone = await rest('GET', '/skills/csrf-probe', { token: alice });
  check(gone.status === 404, `nothing was written: ${gone.status}`);
  const csrf = await page.evaluate(async () => (await (await fetch('/api/v1/session')).json()).csrf_token);
  check(typeof csrf === 'string' && csrf.length >= 16, `the session has a CSRF token: ${csrf}`);
  status = await pageFetch({ 'X-CSRF-Token': csrf });
  check(status === 201, `the same write with the token: ${status}`);

  let r = await rest('GET', '/skills');
  check(r.status === 401, `no cookie and no token: ${r.status}`);
  r = await rest('POST', '/skills', { body: { name: 'anon', content: skillMd('anon', 'x', 'x\n') } });
  check(r.status === 401, `a write with no cookie and no token: ${r.status}`);

  const cookie = (await a.context.cookies()).find((c) => c.name === 'skillrt_session');
  const cookieHeader = `skillrt_session=${cookie.value}`;
  r = await rest('GET', '/session', { headers: { Cookie: cookieHeader } });
  check(r.status === 200 && r.body.csrf_token === csrf, `the cookie alone reads the session: ${r.status}`);
  const write = (name, origin) => rest('POST', '/skills', {
    headers: { Cookie: cookieHeader, 'X-CSRF-Token': csrf, Origin: origin },
    body: { name, content: skillMd(name, 'Cross-origin probe', 'x\n') },
  });
  r = await write('evil-probe', 'http://evil.example');
  check(r.status === 403, `a write with Origin http://evil.example: ${r.status} ${JSON.stringify(r.body)}`);
  check((await rest('GET', '/skills/evil-probe', { token: alice })).status === 404, 'the cross-origin write did nothing');
  r = await write('origin-control', base);
  check(r.status === 201, `the same write from the page's own origin: ${r.status} ${JSON.stringify(r.body)}`);
  log('CSRF: no or a wrong X-CSRF-Token 403, no cookie 401, a foreign Origin 403 (and the controls pass)');
}

async function installChecks(a, d) {
  // 360 px: scan, look, discard.
  await goHash(d.page, '#/install');
  await d.page.getByLabel('Source').fill(installSource);
  await d.page.getByRole('button', { name: 'Scan' }).click();
  await d.page.locator('.install-skill').nth(1).waitFor();
  await shoot(d, 'install');
  await d.page.getByRole('button', { name: 'Discard' }).click();
  await until(async () => d.page.locator('.install-report').isHidden(), 'the discarded report to close');
  check((await rest('GET', '/skills/pack-clean', { token: alice })).status === 404, 'a discarded install installs nothing');

  const { page } = a;
  await goHash(page, '#/install');
  await page.getByLabel('Source').fill(installSource);
  await page.getByRole('button', { name: 'Scan' }).click();
  await page.locator('.install-skill').nth(1).waitFor();
  const clean = page.locator('.install-skill', { has: page.locator('h3', { hasText: 'pack-clean' }) });
  const risky = page.locator('.install-skill', { has: page.locator('h3', { hasText: 'pack-risky' }) });
  check((await clean.locator('.install-skill-head .badge').textContent()) === 'will install', 'pack-clean will install');
  check((await risky.locator('.install-skill-head .badge').textContent()) === 'blocked', 'pack-risky is blocked');
  check((await texts(risky.locator('.finding .rule'))).includes('curl_pipe_shell'), "pack-risky's report names its rule");
  check((await rest('GET', '/skills/pack-clean', { token: alice })).status === 404, 'nothing is installed before confirming');
  await shoot(a, 'install');
  await page.getByRole('button', { name: /^Install/ }).click();
  await until(async () => /Installed 1 skill/.test(await page.locator('.install-result').textContent()), 'the install result');
  const installed = await rest('GET', '/skills/pack-clean', { token: alice });
  check(installed.status === 200, `pack-clean is installed: ${installed.status}`);
  check((await rest('GET', '/skills/pack-risky', { token: alice })).status === 404, 'pack-risky is not');
  log('install: the scan report first (allowed and blocked), discard installs nothing, confirm installs the allowed skill');
}

async function bulkRejectCheck(a) {
  const { page } = a;
  await goHash(page, '#/inbox');
  const box = page.locator(`input[data-id="${createProposal}"]`);
  await box.waitFor();
  check(await page.locator('.proposal').count() === 1, 'one proposal left after the approval');
  await box.check();
  await page.locator('.bulk').getByLabel('Reason (optional)').fill('not needed');
  await page.getByRole('button', { name: 'Reject 1' }).click();
  await page.locator('#confirm-dialog').waitFor({ state: 'visible' });
  await page.locator('#confirm-ok').click();
  await until(async () => /No pending proposals/.test(await summary(page)), 'the inbox emptied');
  await until(async () => (await badgeCount(page)) === 0, 'the badge emptied');
  const rejected = await rest('GET', `/proposals/${createProposal}`, { token: alice });
  check(rejected.body.proposal.state === 'rejected' && rejected.body.proposal.reason === 'not needed',
    `rejected in bulk with its reason: ${JSON.stringify(rejected.body.proposal)}`);
  log('inbox: bulk reject with a reason, behind a confirmation');
}

async function signOutCheck(a) {
  const { page } = a;
  const cookie = (await a.context.cookies()).find((c) => c.name === 'skillrt_session');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.locator('#signin').waitFor({ state: 'visible' });
  check(await page.locator('#app-header').isHidden(), 'signed out: the header is gone');
  const r = await rest('GET', '/session', { headers: { Cookie: `skillrt_session=${cookie.value}` } });
  check(r.status === 401, `the old session cookie no longer works: ${r.status}`);
  await page.reload();
  await page.locator('#signin').waitFor({ state: 'visible' });
  log('sign-out ends the session on the server');
}

async function main() {
  fs.mkdirSync(shots, { recursive: true });
  const beacon = await startBeacon();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  const tabs = [];
  try {
    const a = await signInChecks(browser);
    tabs.push(a);
    await browseChecks(a);
    const d = await narrowShots(browser);
    tabs.push(d);
    await inboxShots(a, d);
    await liveChecks(browser, a);
    await rollbackCheck(a);
    await xssChecks(a, beacon);
    await csrfChecks(a);
    await installChecks(a, d);
    await bulkRejectCheck(a);
    await signOutCheck(a);
    check(cspViolations.length === 0, `Content-Security-Policy violations: ${cspViolations.join('\n')}`);
    check(pageErrors.length === 0, `uncaught errors in the page: ${pageErrors.join('\n')}`);
    log(`done; screenshots in ${shots}`);
  } catch (error) {
    for (const tab of tabs) {
      await tab.page.screenshot({ path: path.join(shots, `failure-${tab.label}.png`), fullPage: true }).catch(() => {});
    }
    if (pageErrors.length) process.stderr.write(`page errors:\n${pageErrors.join('\n')}\n`);
    throw error;
  } finally {
    await browser.close();
    beacon.server.close();
  }
}

await runChecks(main);
