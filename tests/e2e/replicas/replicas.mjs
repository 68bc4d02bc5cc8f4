// Replicas over one PostgreSQL (issue 4/6), real processes on loopback:
// three `skillrt serve` on one shared HOME and one database, driven by the
// official MCP SDK client and Node's own WebSocket client. Driven by
// tests/e2e/replicas.sh, which starts the test's own PostgreSQL cluster.
//
// Environment: SKILLRT_BIN, HOME_DIR (config.yaml names the database),
// PG_URL, PG_CLUSTER (scripts/pg-test-cluster, with SKILLRT_PG_STATE set).
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { Client, StdioClientTransport, StreamableHTTPClientTransport } from '../mcp/sdk.mjs';
import {
  Client as ClientV2, SkillsClient, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '../mcp/sdk2.mjs';
import {
  check, checkNoSanitizerReport, createToken, log, main, sleep, startServe, waitFor,
  watchNotifications,
} from '../mcp/lib.mjs';

const home = process.env.HOME_DIR;
const pgUrl = process.env.PG_URL;
const pgCluster = process.env.PG_CLUSTER;
const SWEEP_MS = 500;

const replicas = {};
const sockets = [];
const clients = [];

function psql(sql) {
  return execFileSync('psql', [pgUrl, '-XAtqc', sql], { encoding: 'utf8' }).trim();
}
const logRows = (where) => psql(`SELECT seq FROM skill_changes WHERE ${where} ORDER BY seq`)
  .split('\n').filter(Boolean).map(Number);

async function startReplica(name, extra = []) {
  // --allow-anonymous: the conformance suite connects without a token
  // (read-only, shared skills only); every other client here has one.
  const proc = await startServe(['--home', home, 'serve', '--listen', '127.0.0.1:0', '--threads', '2',
    '--allow-anonymous', '--sweep-interval-ms', String(SWEEP_MS), ...extra]);
  proc.name = name;
  proc.base = proc.url.replace(/\/mcp$/, '');
  replicas[name] = proc;
  await waitFor(async () => (await fetch(`${proc.base}/readyz`).catch(() => ({ status: 0 }))).status === 200,
    15000, `replica ${name} to be ready`);
  return proc;
}

// A WebSocket on /api/v1/events that records every message.
function socket(replica, token, who, query = '') {
  const ws = new WebSocket(`${replica.base.replace(/^http/, 'ws')}/api/v1/events${query}`,
    { headers: { Authorization: `Bearer ${token}` } });
  const client = { ws, who, messages: [], closed: null, at: new Map() };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    client.messages.push(message);
    if (message.name) client.at.set(`${message.type}:${message.name}`, Date.now());
  };
  ws.onclose = (event) => { client.closed = { code: event.code }; };
  sockets.push(client);
  return client;
}
const got = (client, type, name) => client.messages.some((m) => m.type === type && m.name === name);

async function rest(replica, method, route, token, body) {
  const response = await fetch(`${replica.base}/api/v1${route}`, {
    method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => null) };
}
const skillMd = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nSteps.\n`;
const create = (replica, token, name, extra = {}) =>
  rest(replica, 'POST', '/skills', token, { name, content: skillMd(name, `About ${name}`), ...extra });

async function mcpClient(replica, token, name) {
  const transport = new StreamableHTTPClientTransport(new URL(replica.url),
    { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name, version: '1.0.0' });
  const seen = watchNotifications(client);
  await client.connect(transport);
  clients.push(client);
  return { client, seen, transport };
}

// The official v2 client on the stateless 2026-07-28 revision.
async function mcpClientV2(replica, token, name) {
  const transport = new StreamableHTTPClientTransportV2(new URL(replica.url),
    { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new ClientV2({ name, version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

// Conformance scenarios of both revisions against one replica; throws on a
// FAILURE check other than those needing the suite's own fixture tools. The
// suite runs as a child without blocking this process: a blocked event loop
// would not notice the replicas closing idle keep-alive sockets, and the
// next request would be sent on a closed one.
async function conformance(replica) {
  const fixtureChecks = new Set(['sep-2575-server-rejects-undeclared-capability', 'sep-2575-missing-capability-http-400',
    'sep-2575-http-server-no-independent-requests-on-stream', 'sep-2575-server-no-log-without-loglevel']);
  const target = replica.url.replace('127.0.0.1', 'localhost');
  let checks = 0;
  for (const [scenario, version] of [['server-stateless', '2026-07-28'], ['tools-list', '2026-07-28'],
    ['server-initialize', '2025-11-25'], ['sep-2640-skills-enumeration', '2026-07-28']]) {
    const out = fs.mkdtempSync(path.join(home, '..', `conformance-${replica.name}-`));
    // Exit 1 on any FAILURE check: judged from checks.json below.
    await new Promise((resolve) => execFile(process.execPath, [process.env.CONFORMANCE, 'server', '--url', target,
      '--scenario', scenario, '--spec-version', version, '--force', '-o', out], { timeout: 60000 }, () => resolve()));
    const file = fs.readdirSync(out, { recursive: true }).find((f) => f.endsWith('checks.json'));
    check(file, `conformance ${scenario} against ${replica.name} wrote no checks.json`);
    const results = JSON.parse(fs.readFileSync(path.join(out, file), 'utf8'));
    const failures = results.filter((c) => c.status === 'FAILURE' &&
      !(fixtureChecks.has(c.id) && (c.errorMessage ?? '').startsWith('Not testable:')));
    check(failures.length === 0, `conformance ${scenario}@${version} against ${replica.name}: ` +
      failures.map((f) => `${f.id}: ${f.errorMessage}`).join('; '));
    checks += results.length;
  }
  return checks;
}

// Every row of the log that `user` may see after `after` reached the socket,
// with the log's own number, and nothing the log does not hold.
function checkNoEventMissed(client, user, after) {
  const seen = client.messages.filter((m) => m.type !== 'hello' && m.type !== 'resync').map((m) => m.seq);
  const expected = logRows(`(owner = '${user}' OR layer = 'shared') AND seq > ${after}`);
  const missing = expected.filter((seq) => !seen.includes(seq));
  const invented = seen.filter((seq) => !expected.includes(seq));
  check(missing.length === 0, `${client.who} missed log rows ${missing} (saw ${seen}; numbers the log does not ` +
    `hold: ${invented}; rows: ${psql(`SELECT string_agg(seq || ':' || subject || ':' || owner || ':' || name, ' ' ORDER BY seq) FROM skill_changes WHERE seq > ${after}`)})`);
  check(invented.length === 0, `${client.who} got numbers the log does not hold: ${invented}`);
  check(seen.every((s, i) => i === 0 || s > seen[i - 1]), `${client.who}: numbers do not rise: ${seen}`);
  return expected.length;
}

async function body() {
  const alice = (await createToken(home, 'alice', 'org1', 'alice')).bearer;
  const bob = (await createToken(home, 'bob', 'org1', 'bob')).bearer;
  const owner = (await createToken(home, 'root', '0', 'owner')).bearer;

  const a = await startReplica('A');
  // B and C use the sweep alone, as replicas on other machines of a shared volume would.
  const b = await startReplica('B', ['--no-inotify']);
  const c = await startReplica('C', ['--no-inotify']);
  log('three replicas ready on one HOME and one PostgreSQL (B and C without inotify)');

  // --- a write on A reaches an MCP client on B and a WebSocket on C within 1 s ---
  const aliceOnB = await mcpClient(b, alice, 'alice-on-b');
  const bobOnB = await mcpClient(b, bob, 'bob-on-b');
  const aliceOnC = socket(c, alice, 'alice@C');
  const bobOnC = socket(c, bob, 'bob@C');
  await waitFor(() => aliceOnC.messages.length > 0 && bobOnC.messages.length > 0, 5000, 'hello on C');
  const aliceStart = aliceOnC.messages[0].seq;
  await sleep(SWEEP_MS * 3);  // the startup sweeps and their events settle
  aliceOnB.seen.reset();
  bobOnB.seen.reset();
  const sent = Date.now();
  const made = await create(a, alice, 'written-on-a');
  check(made.status === 201, `create on A: ${made.status} ${JSON.stringify(made.json)}`);
  await waitFor(() => aliceOnB.seen.resources > 0 && got(aliceOnC, 'skill.created', 'written-on-a'), 3000,
    'the write to reach B and C');
  const mcpLatency = Date.now() - sent;
  const wsLatency = aliceOnC.at.get('skill.created:written-on-a') - sent;
  check(wsLatency <= 1000, `the WebSocket on C heard of A's write after ${wsLatency} ms`);
  check(mcpLatency <= 1000, `the MCP client on B heard of A's write after ${mcpLatency} ms`);
  const listed = await aliceOnB.client.callTool({ name: 'skill_view', arguments: { name: 'written-on-a' } });
  check(!listed.isError && JSON.stringify(listed).includes('About written-on-a'), 'B serves the skill written on A');
  const row = logRows("owner = 'alice' AND name = 'written-on-a' AND subject = 'skill'");
  const event = aliceOnC.messages.find((m) => m.type === 'skill.created' && m.name === 'written-on-a');
  check(row.length === 1 && event.seq === row[0], `the event's number ${event.seq} is the log's ${row}`);
  log(`A's write reached B's MCP client in ${mcpLatency} ms and C's WebSocket in ${wsLatency} ms, numbered as in the log`);

  // --- the 2026-07-28 revision on every replica ------------------------------
  let conformanceChecks = 0;
  for (const replica of [a, b, c]) {
    // The v1 client (2025-11-25 sessions) and the v2 client (2026-07-28) on each replica.
    const v1 = await mcpClient(replica, alice, `v1-on-${replica.name}`);
    check(v1.transport.sessionId, `the v1 client got no session on ${replica.name}`);
    const v1View = await v1.client.callTool({ name: 'skill_view', arguments: { name: 'written-on-a' } });
    check(JSON.parse(v1View.content[0].text).success === true, `the v1 client's view on ${replica.name}`);
    const v2 = await mcpClientV2(replica, alice, `v2-on-${replica.name}`);
    check(v2.client.getNegotiatedProtocolVersion() === '2026-07-28',
      `the v2 client negotiated ${v2.client.getNegotiatedProtocolVersion()} with ${replica.name}`);
    const skills = new SkillsClient(v2.client);
    const listing = await skills.list();
    const entry = listing.skills.find((s) => s.uri === 'skill://written-on-a/SKILL.md');
    check(entry, `the v2 SkillsClient on ${replica.name} does not list written-on-a: ${listing.skills.map((s) => s.uri)}`);
    const file = await skills.read((await skills.get(entry.uri)).skill);
    check(file.verified && file.frontmatter.name === 'written-on-a', `verified read on ${replica.name}`);
    conformanceChecks += await conformance(replica);
  }
  // A write on A reaches a subscriptions/listen stream on B within 1 s.
  const listenerOnB = await mcpClientV2(b, alice, 'v2-listener-on-b');
  const heardOnB = [];
  listenerOnB.client.setNotificationHandler('notifications/resources/list_changed', () => heardOnB.push(Date.now()));
  await listenerOnB.client.listen({ resourcesListChanged: true });
  await sleep(SWEEP_MS * 2);
  heardOnB.length = 0;
  const listenSent = Date.now();
  check((await create(a, alice, 'heard-by-listen')).status === 201, 'create on A for the listen stream');
  await waitFor(() => heardOnB.length > 0, 3000, "A's write on B's listen stream");
  const listenLatency = heardOnB[0] - listenSent;
  check(listenLatency <= 1000, `B's listen stream heard of A's write after ${listenLatency} ms`);
  log(`on A, B and C the v1 client kept a 2025-11-25 session and the v2 client negotiated 2026-07-28 and verified skills through its SkillsClient; ` +
      `${conformanceChecks} conformance checks of both revisions passed against the three; B's listen stream ` +
      `heard A's write in ${listenLatency} ms`);

  // --- a token revoked through one replica's database is refused by all within 1 s
  const spare = await createToken(home, 'alice', 'org1', 'revoked-soon');
  for (const replica of [a, b, c]) {
    check((await rest(replica, 'GET', '/skills', spare.bearer)).status === 200, `the spare token on ${replica.name}`);
  }
  const revoked = spawnSync(process.env.SKILLRT_BIN, ['--home', home, 'token', 'revoke', spare.id], { encoding: 'utf8' });
  check(revoked.status === 0, `token revoke: ${revoked.stderr}`);
  const revokedAt = Date.now();
  const refusedAfter = {};
  await waitFor(async () => {
    for (const replica of [a, b, c]) {
      if (refusedAfter[replica.name] === undefined &&
          (await rest(replica, 'GET', '/skills', spare.bearer)).status === 401) {
        refusedAfter[replica.name] = Date.now() - revokedAt;
      }
    }
    return Object.keys(refusedAfter).length === 3;
  }, 5000, 'every replica to refuse the revoked token');
  const slowest = Math.max(...Object.values(refusedAfter));
  check(slowest <= 1000, `a replica accepted the revoked token for ${slowest} ms: ${JSON.stringify(refusedAfter)}`);
  log(`a revoked token was refused by every replica within ${slowest} ms (${JSON.stringify(refusedAfter)})`);

  // --- isolation across replicas ------------------------------------------
  const shared = await create(b, owner, 'shared-sentinel', { layer: 'shared' });
  check(shared.status === 201, `shared create: ${shared.status} ${JSON.stringify(shared.json)}`);
  await waitFor(() => got(bobOnC, 'skill.created', 'shared-sentinel'), 3000, "bob's shared event");
  check(!bobOnC.messages.some((m) => m.name === 'written-on-a'), `bob got alice's event: ${JSON.stringify(bobOnC.messages)}`);
  check(bobOnB.seen.resources === 0 || bobOnB.seen.resources <= aliceOnB.seen.resources,
    'bob was told of a change only with the shared write');
  const bobView = await bobOnB.client.callTool({ name: 'skill_view', arguments: { name: 'written-on-a' } });
  const bobAnswer = JSON.parse(bobView.content[0].text);
  check(bobAnswer.success === false, `bob can read alice's skill on B: ${JSON.stringify(bobView)}`);
  log("bob on C never got alice's event; the shared write reached him; bob cannot view alice's skill on B");

  // --- a 2025-revision session started on A continues on B -------------------
  const moving = await mcpClient(a, alice, 'moving-client');
  const sessionId = moving.transport.sessionId;
  check(typeof sessionId === 'string' && sessionId.length > 0, 'A gave the session an id');
  await moving.client.setLoggingLevel('warning');
  // The same session, its next request sent to B: no initialize again.
  const toB = new StreamableHTTPClientTransport(new URL(b.url),
    { sessionId, requestInit: { headers: { Authorization: `Bearer ${alice}` } } });
  const movedClient = new Client({ name: 'moving-client', version: '1.0.0' });
  await movedClient.connect(toB);
  clients.push(movedClient);
  const movedView = await movedClient.callTool({ name: 'skill_view', arguments: { name: 'written-on-a' } });
  check(JSON.parse(movedView.content[0].text).success === true, `the session on B: ${JSON.stringify(movedView)}`);
  // Another caller cannot take the session over on any replica.
  const stolen = await fetch(c.url, {
    method: 'POST', headers: { Authorization: `Bearer ${bob}`, 'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
  });
  check(stolen.status === 404, `bob with alice's session id on C: ${stolen.status}`);
  const storedRows = psql('SELECT count(*) FROM mcp_sessions');
  check(Number(storedRows) >= 1, `sessions in the database: ${storedRows}`);
  check(psql(`SELECT count(*) FROM mcp_sessions WHERE id_hash = '${sessionId}'`) === '0', 'the id itself is not stored');
  await toB.terminateSession();
  const ended = await fetch(b.url, {
    method: 'POST', headers: { Authorization: `Bearer ${alice}`, 'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/list' }),
  });
  check(ended.status === 404, `the session after DELETE on B: ${ended.status}`);
  log('an MCP session initialized on A went on on B without a new initialize; bob could not use its id; DELETE ended it');

  // --- kill -9 of a replica in the middle of writes ------------------------
  const acknowledged = [];
  let killed = false;
  const writes = [];
  for (let i = 0; i < 24; ++i) {
    writes.push((async () => {
      await sleep(i * 15);
      const name = `burst-${i}`;
      const answer = await create(a, alice, name).catch(() => ({ status: 0 }));
      if (answer.status === 201) acknowledged.push(name);
    })());
  }
  // SIGKILL once a few writes were answered, with the rest still on their way
  // (however slow this machine is).
  writes.push((async () => {
    await waitFor(() => acknowledged.length >= 3, 60000, 'the first acknowledged writes');
    a.child.kill('SIGKILL');
    killed = true;
  })());
  await Promise.all(writes);
  await a.exited;
  check(killed && a.exit.signal === 'SIGKILL', `A was killed: ${JSON.stringify(a.exit)}`);
  check(acknowledged.length > 0, 'some writes were acknowledged before the kill');
  for (const name of acknowledged) {
    const viewed = await rest(b, 'GET', `/skills/${name}`, alice);
    check(viewed.status === 200, `acknowledged write ${name} is lost: ${viewed.status}`);
  }
  await waitFor(() => acknowledged.every((name) => got(aliceOnC, 'skill.created', name)), 5000,
    'C to announce every acknowledged write');
  for (const replica of [b, c]) {
    check((await fetch(`${replica.base}/readyz`)).status === 200, `${replica.name} still ready after A died`);
  }
  log(`A killed with SIGKILL mid-burst: all ${acknowledged.length} acknowledged writes are served by B and were announced on C`);

  // --- an edit straight on the shared volume, seen by the sweep -------------
  // A (the one replica with inotify) is gone: B and C can only sweep.
  const direct = path.join(home, 'skills', 'direct-edit');
  fs.mkdirSync(direct, { recursive: true });
  const before = aliceOnC.messages.length;
  const edited = Date.now();
  fs.writeFileSync(path.join(direct, 'SKILL.md'), skillMd('direct-edit', 'Written behind the servers\' backs'));
  await waitFor(async () => {
    const viewed = await rest(c, 'GET', '/skills/direct-edit', alice);
    return viewed.status === 200;
  }, SWEEP_MS * 4 + 2000, 'C (no inotify) to serve the file written on the volume');
  await waitFor(() => aliceOnC.messages.slice(before).some((m) => m.type === 'skills.changed'), 3000,
    'a skills.changed event on C');
  const sweepLatency = Date.now() - edited;
  check(sweepLatency <= SWEEP_MS * 2 + 1500, `the sweep took ${sweepLatency} ms (interval ${SWEEP_MS} ms)`);
  const viewedOnB = await rest(b, 'GET', '/skills/direct-edit', alice);
  check(viewedOnB.status === 200, `B serves the direct edit: ${viewedOnB.status}`);
  log(`a SKILL.md written straight into HOME, with no replica watching by inotify, was served by B and C ` +
      `within ${sweepLatency} ms (sweep every ${SWEEP_MS} ms)`);

  // --- PostgreSQL restarted under load ---------------------------------------
  let stop = false;
  let okBefore = 0;
  let okAfter = 0;
  let failed = 0;
  let restarted = false;
  const load = (async () => {
    for (let i = 0; !stop; ++i) {
      const answer = await create(b, alice, `load-${i}`).catch(() => ({ status: 0 }));
      if (answer.status === 201) { if (restarted) ++okAfter; else ++okBefore; } else ++failed;
      await sleep(20);
    }
  })();
  await waitFor(() => okBefore >= 5, 10000, 'writes before the restart');
  execFileSync(pgCluster, ['restart'], { stdio: 'inherit' });
  restarted = true;
  await waitFor(() => okAfter >= 10, 20000, 'writes after the restart');
  stop = true;
  await load;
  for (const replica of [b, c]) {
    await waitFor(async () => (await fetch(`${replica.base}/readyz`)).status === 200, 15000,
      `${replica.name} ready again after the restart`);
  }
  await sleep(1500);  // the relays' outboxes and catch-up settle
  const checked = checkNoEventMissed(aliceOnC, 'alice', aliceStart);
  const queued = (b.stderr.match(/the shared change log cannot be reached/g) ?? []).length;
  log(`PostgreSQL restarted under load (${okBefore} writes before, ${okAfter} after, ${failed} failed, ` +
      `${queued} outage(s) bridged by B's outbox): B and C reconnected; alice's socket on C holds all ` +
      `${checked} rows of the log she may see`);

  // --- `skillrt mcp` (stdio) over the same database takes part too -----------
  const stdio = new StdioClientTransport({
    command: process.env.SKILLRT_BIN,
    args: ['--home', home, '--user', 'alice', '--org', 'org1', 'mcp'],
    env: { ...process.env },
    stderr: 'pipe',
  });
  let stdioErr = '';
  stdio.stderr.on('data', (d) => { stdioErr += d; });
  const desktop = new Client({ name: 'desktop-agent', version: '1.0.0' });
  const desktopSeen = watchNotifications(desktop);
  await desktop.connect(stdio);
  clients.push(desktop);
  await sleep(300);
  desktopSeen.reset();
  // A database row: no file changes, so only the change log can tell the
  // stdio server (its own inotify sees nothing, and its database poll is off).
  const toDesktop = await create(b, alice, 'seen-on-stdio', { layer: 'database' });
  check(toDesktop.status === 201, `create on B: ${toDesktop.status} ${JSON.stringify(toDesktop.json)}`);
  await waitFor(() => desktopSeen.resources > 0, 3000, 'list_changed on the stdio client for a row written on B');
  const fromDesktop = await desktop.callTool({ name: 'skill_manage', arguments: {
    action: 'create', name: 'made-on-stdio',
    content: skillMd('made-on-stdio', 'Written by a desktop agent') } });
  check(JSON.parse(fromDesktop.content[0].text).success === true, `stdio create: ${JSON.stringify(fromDesktop)}`);
  await waitFor(() => got(aliceOnC, 'skill.created', 'made-on-stdio'), 3000, "the stdio write on C's WebSocket");
  checkNoSanitizerReport(stdioErr, 'skillrt mcp');
  log('skillrt mcp (stdio) on the same database heard a write on B, and its own write reached C');

  // --- a replica started late catches up --------------------------------------
  const lastSeen = Math.max(...aliceOnC.messages.map((m) => m.seq));
  const d = await startReplica('D');
  const aliceOnD = socket(d, alice, 'alice@D', `?since=${lastSeen}`);
  await waitFor(() => aliceOnD.messages.length > 0, 5000, 'hello on D');
  check(aliceOnD.messages[0].type === 'hello' && aliceOnD.messages[0].seq >= lastSeen,
    `D's hello: ${JSON.stringify(aliceOnD.messages[0])}`);
  const onD = await rest(d, 'GET', '/skills/load-0', alice);
  check(onD.status === 200, `D serves a skill written before it started: ${onD.status}`);
  const late = await create(b, alice, 'after-d-started');
  check(late.status === 201, `create on B: ${late.status}`);
  await waitFor(() => got(aliceOnD, 'skill.created', 'after-d-started') && got(aliceOnC, 'skill.created', 'after-d-started'),
    3000, 'the late write on C and D');
  const onC = aliceOnC.messages.find((m) => m.name === 'after-d-started' && m.type === 'skill.created');
  const onDMessage = aliceOnD.messages.find((m) => m.name === 'after-d-started' && m.type === 'skill.created');
  check(onC.seq === onDMessage.seq, `C and D number the same event ${onC.seq} and ${onDMessage.seq}`);
  log(`D started late: serves everything, resumes from seq ${lastSeen}, and numbers new events as C does`);
}

async function cleanup() {
  for (const client of clients) await client.close().catch(() => {});
  for (const s of sockets) s.ws.close();
  for (const replica of Object.values(replicas)) {
    const exit = await replica.stop();
    if (replica.name !== 'A') {
      check(exit.code === 0, `replica ${replica.name} exited ${JSON.stringify(exit)}: ${replica.stderr.slice(-2000)}`);
    }
    checkNoSanitizerReport(replica.stderr, `replica ${replica.name}`);
  }
}

await main('replicas', body, cleanup, () =>
  Object.values(replicas).map((r) => `--- ${r.name} stderr:\n${r.stderr.slice(-3000)}`).join('\n'));
