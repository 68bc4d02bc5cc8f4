// Setting up a skill's secrets over MCP (issue 18 item 3), with the official
// clients and a real browser. A skill declares a required variable that is
// missing; `skillrt serve` hands the client a URL-mode elicitation to its
// setup page (the MCP spec forbids form mode for secrets):
// - the v2 client (@modelcontextprotocol/client) on 2026-07-28 gets an
//   input_required result, fulfils it through its elicitation handler, in
//   which headless Chromium opens the page and a person's typing is played,
//   and its automatic retry gets the skill `available`;
// - the v1 client (@modelcontextprotocol/sdk) on 2025-11-25 is sent an
//   elicitation/create request, answers it, and hears
//   notifications/elicitation/complete once the page saved the value;
// - a client without URL elicitation gets the setup note and nothing else;
// - the page's API refuses what it should, and no secret ever lands anywhere
//   but the user's own .env (0600): not the home's other files, not the
//   server's output, not a tool result.
// Screenshots of the page go to SCREENSHOT_DIR.
//
//   node setup_elicitation.mjs WORK_DIR        (SKILLRT_BIN names the binary)
import fs from 'node:fs';
import path from 'node:path';

import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from './sdk2.mjs';
import { Client as V1Client, StreamableHTTPClientTransport as V1Http } from './sdk.mjs';
import { check, eq, log, main, createToken, startServe, checkNoSanitizerReport, sleep, waitFor } from './lib.mjs';

const esm = new URL('../../tools/node_modules/@modelcontextprotocol/sdk/dist/esm/', import.meta.url);
const { ElicitRequestSchema, ElicitationCompleteNotificationSchema } = await import(new URL('types.js', esm));
const tools = new URL('../../tools/node_modules/', import.meta.url);
const { chromium } = await import(new URL('playwright-core/index.mjs', tools));

const work = process.argv[2];
check(work && process.env.SKILLRT_BIN, 'usage: SKILLRT_BIN=... node setup_elicitation.mjs WORK_DIR');
const home = path.join(work, 'home');
const shots = process.env.SCREENSHOT_DIR || path.join(work, 'screenshots');
const SECRETS = { WEATHER_KEY: 'wk-7f3a#secret value', MAPS_TOKEN: 'mt-91c2-other-secret' };

function needsSetup(name, variable, prompt) {
  const dir = path.join(home, 'skills', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), [
    '---', `name: ${name}`, `description: The ${name} skill, which needs ${variable}`,
    'required_environment_variables:', `  - name: ${variable}`, `    prompt: ${prompt}`,
    '    help: https://keys.example/where', '---', '', `# ${name}`, '', `Use ${variable}.`, ''].join('\n'));
}

function structured(result, what) {
  check(result && result.structuredContent, `${what}: no structuredContent in ${JSON.stringify(result)}`);
  return result.structuredContent;
}

function filesUnder(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

let server;
let browser;
const closers = [];

async function connect(Client, Http, url, bearer, capabilities, options = {}) {
  const client = new Client({ name: 'setup-e2e', version: '1.0.0' }, { capabilities, ...options });
  const transport = new Http(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } });
  await client.connect(transport);
  closers.push(() => client.close());
  return client;
}

// What a person does on the page: reads it, types the value, saves.
async function fillPage(url, variable, shotName) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  const input = page.locator(`input[name="${variable}"]`);
  await input.waitFor({ state: 'visible' });
  eq(await input.getAttribute('type'), 'password', 'the value field hides what is typed');
  const lead = await page.locator('#setup-lead').textContent();
  check(lead.includes('needs a value'), `page lead: ${lead}`);
  check((await page.locator('.hint a').getAttribute('href')) === 'https://keys.example/where', 'help link');
  await page.screenshot({ path: path.join(shots, `${shotName}-form.png`), fullPage: true });
  await input.fill(SECRETS[variable]);
  await page.locator('#setup-submit').click();
  await page.locator('#setup-done').waitFor({ state: 'visible' });
  await page.screenshot({ path: path.join(shots, `${shotName}-saved.png`), fullPage: true });
  check(!(await page.content()).includes(SECRETS[variable]), 'the page shows the value after saving');
  await page.close();
}

async function body() {
  fs.mkdirSync(path.join(home, 'skills'), { recursive: true });
  fs.mkdirSync(shots, { recursive: true });
  needsSetup('weather', 'WEATHER_KEY', 'Your weather API key');
  needsSetup('maps', 'MAPS_TOKEN', 'Your maps token');
  needsSetup('plain', 'PLAIN_KEY', 'Your plain key');
  const alice = await createToken(home, 'alice', 'org1', 'setup-e2e');
  server = await startServe(['--home', home, 'serve', '--listen', '127.0.0.1:0']);
  const base = server.url.replace(/\/mcp$/, '');
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox'] });

  // --- 2026-07-28: input_required, fulfilled in the browser, retried by the SDK.
  const modern = await connect(V2Client, V2Http, server.url, alice.bearer, { elicitation: { url: {} } },
    { versionNegotiation: { mode: 'auto' } });
  const asked = [];
  modern.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    await fillPage(request.params.url, 'WEATHER_KEY', 'setup-page');
    return { action: 'accept' };
  });
  const weather = structured(await modern.callTool({ name: 'skill_view', arguments: { name: 'weather' } }), 'weather');
  eq(asked.length, 1, 'elicitations the v2 client fulfilled');
  eq(asked[0].mode, 'url', 'elicitation mode');
  check(asked[0].url.startsWith(`${base}/ui/setup.html#`), `setup url ${asked[0].url}`);
  check(asked[0].message.includes('WEATHER_KEY') && !asked[0].message.includes(SECRETS.WEATHER_KEY), 'message');
  eq(weather.readiness_status, 'available', 'weather after the page');
  eq(weather.setup_needed, false, 'weather setup_needed after the page');
  const env = path.join(home, 'users', 'alice', '.env');
  check(fs.readFileSync(env, 'utf8').includes('WEATHER_KEY='), 'WEATHER_KEY in alice\'s .env');
  eq(fs.statSync(env).mode & 0o777, 0o600, '.env mode');
  log('2026-07-28: input_required → setup page in Chromium → retried view is available');

  // --- 2025-11-25: elicitation/create request, then notifications/elicitation/complete.
  const legacy = await connect(V1Client, V1Http, server.url, alice.bearer, { elicitation: { url: {} } });
  eq(legacy.getServerVersion()?.name, 'skillrt', 'v1 server info');
  const requests = [];
  const completed = [];
  let release;
  const personArrives = new Promise((resolve) => { release = resolve; });
  legacy.setRequestHandler(ElicitRequestSchema, async (request) => {
    requests.push(request.params);
    await personArrives;
    // The person opens the link and saves; here through the page's own API.
    const id = new URL(request.params.url).hash.slice(1);
    const described = await (await fetch(`${base}/api/v1/setup/${id}`)).json();
    eq(described.skill, 'maps', 'described skill');
    eq(described.variables.map((v) => v.name), ['MAPS_TOKEN'], 'described variables');
    const saved = await fetch(`${base}/api/v1/setup/${id}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base },
      body: JSON.stringify({ values: { MAPS_TOKEN: SECRETS.MAPS_TOKEN } }),
    });
    eq(saved.status, 200, 'the page saved');
    return { action: 'accept' };
  });
  legacy.setNotificationHandler(ElicitationCompleteNotificationSchema, (note) => completed.push(note.params.elicitationId));
  const first = structured(await legacy.callTool({ name: 'skill_view', arguments: { name: 'maps' } }), 'maps');
  eq(first.readiness_status, 'setup_needed', 'maps answers at once');
  check(first.setup_note.includes('setup page'), `setup note: ${first.setup_note}`);
  const offered = first.setup_elicitation?.elicitationId;
  check(/^[0-9a-f]{64}$/.test(offered ?? ''), 'setup_elicitation id');
  check(!JSON.stringify(first).includes('/ui/setup.html'), 'the tool result does not carry the link');
  // Viewed again while the person has not come yet: the same request, no second elicitation.
  await waitFor(() => requests.length === 1, 15000, 'the elicitation/create request');
  const second = structured(await legacy.callTool({ name: 'skill_view', arguments: { name: 'maps' } }), 'maps');
  eq(second.setup_elicitation?.elicitationId, offered, 'a second view names the same request');
  await sleep(300);
  eq(requests.length, 1, 'elicitation/create requests after two views');
  release();
  await waitFor(() => completed.includes(offered), 15000, 'notifications/elicitation/complete');
  eq(requests[0].mode, 'url', 'v1 elicitation mode');
  const again = structured(await legacy.callTool({ name: 'skill_view', arguments: { name: 'maps' } }), 'maps again');
  eq(again.readiness_status, 'available', 'maps after the page');
  log('2025-11-25: elicitation/create → page saved → elicitation/complete → view is available');

  // --- A client without URL elicitation: the setup note, no request made.
  const before = fs.readdirSync(path.join(home, 'setup-requests')).length;
  const plainClient = await connect(V2Client, V2Http, server.url, alice.bearer, { elicitation: { form: {} } },
    { versionNegotiation: { mode: 'auto' } });
  const plain = structured(await plainClient.callTool({ name: 'skill_view', arguments: { name: 'plain' } }), 'plain');
  eq(plain.readiness_status, 'setup_needed', 'plain');
  check(plain.setup_note.includes('missing env $PLAIN_KEY'), `plain setup note: ${plain.setup_note}`);
  check(!('setup_elicitation' in plain), 'no setup_elicitation for a form-only client');
  eq(fs.readdirSync(path.join(home, 'setup-requests')).length, before, 'no setup request for a form-only client');
  log('a form-only client gets the setup note');

  // --- The page's API refuses what it should.
  let r = await fetch(`${base}/api/v1/setup/${'0'.repeat(64)}`);
  eq(r.status, 404, 'unknown id');
  r = await fetch(`${base}/api/v1/setup/${offered}`);
  eq(r.status, 404, 'a used link');
  const fresh = structured(await plainClient.callTool({ name: 'skill_view', arguments: { name: 'plain' } }), 'plain');
  eq(fresh.readiness_status, 'setup_needed', 'plain still');
  // A request made for alice cannot set another variable, and a refusal never echoes a value.
  const modern2 = await connect(V2Client, V2Http, server.url, alice.bearer, { elicitation: { url: {} } },
    { versionNegotiation: { mode: 'auto' } });
  let link = null;
  modern2.setRequestHandler('elicitation/create', async (request) => {
    link = request.params.url;
    return { action: 'decline' };
  });
  const declined = structured(await modern2.callTool({ name: 'skill_view', arguments: { name: 'plain' } }), 'declined');
  eq(declined.readiness_status, 'setup_needed', 'a declined elicitation leaves the view as it was');
  const id = new URL(link).hash.slice(1);
  r = await fetch(`${base}/api/v1/setup/${id}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ values: { PATH: 'leak-this-value' } }),
  });
  eq(r.status, 400, 'an undeclared variable');
  const refusal = await r.text();
  check(refusal.includes('PATH') && !refusal.includes('leak-this-value'), `refusal: ${refusal}`);
  r = await fetch(`${base}/api/v1/setup/${id}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
    body: JSON.stringify({ values: { PLAIN_KEY: 'x' } }),
  });
  eq(r.status, 403, 'a cross-origin post');
  log('the setup API refuses unknown, used, undeclared and cross-origin');

  // Narrow screenshot of a fresh form (the declined link still works).
  const narrow = await browser.newPage({ viewport: { width: 360, height: 740 } });
  await narrow.goto(link);
  await narrow.locator('input[name="PLAIN_KEY"]').waitFor({ state: 'visible' });
  await narrow.screenshot({ path: path.join(shots, 'setup-page-narrow.png'), fullPage: true });
  await narrow.goto(`${base}/ui/setup.html#${'f'.repeat(64)}`);
  await narrow.locator('#setup-lead').filter({ hasText: 'unknown' }).waitFor();
  await narrow.screenshot({ path: path.join(shots, 'setup-page-unknown.png'), fullPage: true });
  await narrow.close();

  // --- No secret anywhere but alice's .env.
  for (const file of filesUnder(home)) {
    if (file === env) continue;
    const text = fs.readFileSync(file, 'latin1');
    for (const secret of Object.values(SECRETS)) {
      check(!text.includes(secret), `a secret leaked into ${file}`);
    }
  }
  for (const secret of Object.values(SECRETS)) {
    check(!server.stderr.includes(secret) && !server.stdout.includes(secret), 'a secret in the server output');
  }
  log('no secret outside alice\'s .env');
}

async function cleanup() {
  for (const close of closers.reverse()) await close().catch(() => {});
  if (browser) await browser.close();
  if (server) {
    await server.stop();
    checkNoSanitizerReport(server.stderr, 'serve');
  }
}

await main('setup_elicitation', body, cleanup, () => (server ? `serve stderr:\n${server.stderr}` : ''));
