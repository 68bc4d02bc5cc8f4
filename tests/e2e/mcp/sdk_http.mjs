// The official TypeScript SDK client against `skillrt serve` over Streamable
// HTTP, with bearer tokens from `skillrt token create`: requests without a
// valid token are refused with 401; alice walks the whole surface (tools,
// prompts, resources, the skills extension, list_changed after a file
// change); bob, connected at the same time with his own token, never sees
// alice's skills nor receives the notifications her changes cause, but does
// receive those of the shared layer. SIGTERM stops the server with exit 0.
//
//   node sdk_http.mjs WORK_DIR        (SKILLRT_BIN names the binary)
import fs from 'node:fs';
import path from 'node:path';

import { Client, ResultSchema, StreamableHTTPClientTransport } from './sdk.mjs';

import {
  check, eq, log, main, makeHome, watchNotifications, checkCapabilities, checkTools, checkToolCalls,
  checkPrompts, checkResources, checkSkillsExtension, checkUtilities, checkChangeNotifications,
  checkNoSanitizerReport, checkReadsAreQuiet, createToken, runSkillrt, startServe, rpcErrorCode, settle, sleep, waitFor, writeSkill, toolJson,
} from './lib.mjs';

const work = process.argv[2];
check(work && process.env.SKILLRT_BIN, 'usage: SKILLRT_BIN=... node sdk_http.mjs WORK_DIR');
const home = path.join(work, 'home');
const fx = makeHome(home, ['alice', 'bob']);

const INIT = (id, version) => ({
  jsonrpc: '2.0', id, method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'skillrt-e2e-raw', version: '1.0.0' } },
});

// One POST; the answer may come as JSON or as an SSE stream holding it.
async function post(url, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10000),
  });
  const text = await res.text();
  let message = null;
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    for (const line of text.split(/\r?\n/)) {
      if (!line.startsWith('data:')) continue;
      const data = JSON.parse(line.slice(5));
      if (data.id === body.id) message = data;
    }
  } else if (text.trim()) {
    try { message = JSON.parse(text); } catch { message = null; }
  }
  return { status: res.status, headers: res.headers, message, text };
}

function connectAs(url, bearer, name) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  const seen = watchNotifications(client);
  return { transport, client, seen };
}

let server;
const clients = [];

await main('sdk_http', async () => {
  const aliceToken = (await createToken(home, 'alice', 'acme', 'e2e-alice')).bearer;
  const bobToken = (await createToken(home, 'bob', 'acme', 'e2e-bob')).bearer;
  const spare = await createToken(home, 'alice', 'acme', 'e2e-revoked');
  server = await startServe(['--home', home, 'serve', '--listen', '127.0.0.1:0']);
  const url = server.url;
  check(/^http:\/\/127\.0\.0\.1:[1-9][0-9]*\/mcp$/.test(url), `listening URL: ${url}`);
  log(`serve listening at ${url}`);

  // --- who may call --------------------------------------------------------
  const noToken = await post(url, INIT(1, '2025-11-25'));
  eq(noToken.status, 401, 'status without a token');
  check(/^Bearer\b/i.test(noToken.headers.get('www-authenticate') ?? ''),
    `WWW-Authenticate without a token: ${noToken.headers.get('www-authenticate')}`);
  const badToken = await post(url, INIT(2, '2025-11-25'), { authorization: 'Bearer not-a-real-token' });
  eq(badToken.status, 401, 'status with an unknown token');
  const stranger = connectAs(url, 'not-a-real-token', 'skillrt-e2e-stranger');
  let refused = null;
  try {
    await stranger.client.connect(stranger.transport);
  } catch (error) {
    refused = error;
  }
  check(refused, 'the SDK client connected with an invalid token');
  check(/401|nauthorized/.test(`${refused.code ?? ''} ${refused.message}`), `SDK refusal: ${refused.message}`);
  await stranger.client.close().catch(() => {});
  log('no token and a bad token: 401 with WWW-Authenticate: Bearer');

  // A revoked token stops working within the server's 5 s memory of good tokens.
  const spareAuth = { authorization: `Bearer ${spare.bearer}` };
  const spareInit = await post(url, INIT(7, '2025-11-25'), spareAuth);
  eq(spareInit.status, 200, 'initialize with a fresh token');
  const spareSession = { ...spareAuth, 'mcp-session-id': spareInit.headers.get('mcp-session-id'),
    'mcp-protocol-version': '2025-11-25' };
  eq((await post(url, { jsonrpc: '2.0', id: 8, method: 'ping' }, spareSession)).status, 200, 'ping before revoke');
  const revoked = await runSkillrt(['--home', home, 'token', 'revoke', spare.id]);
  eq(revoked.code, 0, `token revoke exit code (${revoked.stderr})`);
  await waitFor(async () => (await post(url, { jsonrpc: '2.0', id: 9, method: 'ping' }, spareSession)).status === 401,
    7000, 'a revoked token to be refused with 401');
  log('a revoked token is refused within seconds');

  // --- version negotiation, raw --------------------------------------------
  const auth = { authorization: `Bearer ${aliceToken}` };
  const old = await post(url, INIT(3, '2025-06-18'), auth);
  eq(old.status, 200, 'initialize 2025-06-18 status');
  eq(old.message?.result?.protocolVersion, '2025-06-18', 'negotiated version for a 2025-06-18 client');
  const oldSession = old.headers.get('mcp-session-id');
  check(oldSession, 'initialize answered without Mcp-Session-Id');
  const future = await post(url, INIT(4, '2099-01-01'), auth);
  eq(future.message?.result?.protocolVersion, '2025-11-25', 'negotiated version for an unknown client version');
  const futureSession = future.headers.get('mcp-session-id');
  for (const session of [oldSession, futureSession]) {
    const del = await fetch(url, { method: 'DELETE', headers: { ...auth, 'mcp-session-id': session } });
    check(del.status >= 200 && del.status < 300, `DELETE of a session: ${del.status}`);
  }
  const gone = await post(url, { jsonrpc: '2.0', id: 5, method: 'ping' },
    { ...auth, 'mcp-session-id': oldSession, 'mcp-protocol-version': '2025-06-18' });
  eq(gone.status, 404, 'a request on a deleted session');
  log('initialize negotiates 2025-06-18 and falls back to 2025-11-25; DELETE ends a session');

  // --- alice, the whole surface ----------------------------------------------
  const alice = connectAs(url, aliceToken, 'skillrt-e2e-alice');
  clients.push(alice);
  await alice.client.connect(alice.transport);
  check(alice.transport.sessionId, 'no Mcp-Session-Id after the SDK initialize');
  eq(alice.transport.protocolVersion, '2025-11-25', 'negotiated protocol version');
  // Another token's client must not be able to use alice's session.
  const hijack = await post(url, { jsonrpc: '2.0', id: 6, method: 'ping' },
    { authorization: `Bearer ${bobToken}`, 'mcp-session-id': alice.transport.sessionId, 'mcp-protocol-version': '2025-11-25' });
  check(hijack.status === 403 || hijack.status === 404, `bob's token on alice's session: status ${hijack.status}`);
  log('initialize over HTTP (SDK), session bound to its token');

  const bob = connectAs(url, bobToken, 'skillrt-e2e-bob');
  clients.push(bob);
  await bob.client.connect(bob.transport);

  checkCapabilities(alice.client);
  await checkUtilities(alice.client);
  await checkTools(alice.client);
  await checkToolCalls(alice.client, fx, 'alice');
  await checkPrompts(alice.client, fx, 'alice');
  await checkResources(alice.client, fx, 'alice');
  await checkSkillsExtension(alice.client, fx, 'alice');

  // Alice's skill_manage writes above changed only her layer, and bob was
  // idle: once the watcher has settled, bob must have received nothing.
  await waitFor(() => alice.seen.resources > 0, 10000, "alice's list_changed after her skill_manage writes");
  await sleep(2000);
  eq({ resources: bob.seen.resources, prompts: bob.seen.prompts, updated: bob.seen.updated },
    { resources: 0, prompts: 0, updated: [] }, "notifications bob received for alice's skill_manage writes");
  log("alice's skill_manage writes notify alice only");

  // --- bob never meets alice's skill ------------------------------------------
  const aliceTool = fx.own.alice;
  const view = await bob.client.callTool({ name: 'skill_view', arguments: { name: aliceTool.name } });
  const viewJson = toolJson(view, "bob's skill_view of alice's skill");
  eq(view.isError, true, "bob's skill_view of alice's skill: isError");
  check(!JSON.stringify(viewJson).includes('Private helper of alice'), "bob's skill_view leaks alice's text");
  eq(await rpcErrorCode(bob.client.readResource({ uri: aliceTool.uri }), "bob's read of alice's resource"), -32002,
    "bob's resources/read of alice's SKILL.md");
  eq(await rpcErrorCode(bob.client.request({ method: 'skills/get', params: { uri: aliceTool.uri } }, ResultSchema),
    "bob's skills/get of alice's skill"), -32602, "bob's skills/get of alice's skill");
  eq(await rpcErrorCode(bob.client.getPrompt({ name: aliceTool.name, arguments: { instruction: 'x' } }),
    "bob's prompts/get of alice's command"), -32602, "bob's prompts/get of alice's command");
  const bobSkills = await bob.client.request({ method: 'skills/list', params: {} }, ResultSchema);
  check(!bobSkills.skills.some((s) => s.uri === aliceTool.uri), "bob's skills/list shows alice's skill");
  const bobSearch = toolJson(await bob.client.callTool({ name: 'skills_search',
    arguments: { query: 'private helper alice' } }), "bob's skills_search");
  check(!JSON.stringify(bobSearch).includes(aliceTool.name), "bob's skills_search finds alice's skill");
  await checkPrompts(bob.client, fx, 'bob');
  await checkResources(bob.client, fx, 'bob');
  log("bob's token: alice's skill is invisible to every tool, prompt, resource and extension method");

  // --- notifications reach only the entitled sessions --------------------------
  await Promise.all([settle(alice.seen), settle(bob.seen)]);
  writeSkill(path.join(home, 'users', 'alice', 'skills', 'alice-fresh'), 'alice-fresh', 'Written for alice only');
  await waitFor(() => alice.seen.resources > 0 && alice.seen.prompts > 0, 10000,
    "alice's list_changed notifications after her new SKILL.md");
  await sleep(2000);
  eq({ resources: bob.seen.resources, prompts: bob.seen.prompts }, { resources: 0, prompts: 0 },
    "notifications bob received for alice's change");
  const { prompts: bobPrompts } = await bob.client.listPrompts();
  check(!bobPrompts.some((p) => p.name === 'alice-fresh'), "bob's prompts/list shows alice's new skill");
  log("alice's change notifies alice only");

  // Alice subscribes to the shared journal; only her session hears of its update.
  await alice.client.subscribeResource({ uri: 'skill://notes/journal/SKILL.md' });
  await Promise.all([settle(alice.seen), settle(bob.seen)]);
  fs.appendFileSync(path.join(home, 'skills', 'notes', 'journal', 'SKILL.md'), '\nOne more line.\n');
  await waitFor(() => alice.seen.updated.includes('skill://notes/journal/SKILL.md'), 10000,
    "resources/updated for alice's subscribed journal");
  await waitFor(() => bob.seen.resources > 0, 10000, "bob's list_changed after a shared file changed");
  eq(bob.seen.updated, [], 'resources/updated sent to bob, who did not subscribe');
  log('resources/updated reaches the subscribed session only');

  await Promise.all([settle(alice.seen), settle(bob.seen)]);
  writeSkill(path.join(home, 'skills', 'team-fresh'), 'team-fresh', 'Written into the shared layer');
  await waitFor(() => bob.seen.resources > 0 && bob.seen.prompts > 0, 10000,
    "bob's list_changed notifications after a shared SKILL.md");
  await waitFor(() => alice.seen.resources > 0 && alice.seen.prompts > 0, 10000,
    "alice's list_changed notifications after a shared SKILL.md");
  log('a shared-layer change notifies both');

  // A database skill written by another process (the CLI) reaches its owner only.
  await Promise.all([settle(alice.seen), settle(bob.seen)]);
  const dbMd = '---\nname: db-pelican\ndescription: Stored in the database for alice\n---\n\nPelicans migrate in spring.\n';
  const dbFile = path.join(home, 'db-pelican.md');
  fs.writeFileSync(dbFile, dbMd);
  const dbRun = await runSkillrt(['--home', home, '--user', 'alice', '--org', 'acme', '--json', 'db', 'create', 'db-pelican',
    '--content', dbFile]);
  eq(dbRun.code, 0, `db create exit code (${dbRun.stdout} ${dbRun.stderr})`);
  await waitFor(() => alice.seen.resources > 0 || alice.seen.prompts > 0, 10000,
    "alice's list_changed after a database skill of hers was created");
  await sleep(2000);
  eq({ resources: bob.seen.resources, prompts: bob.seen.prompts }, { resources: 0, prompts: 0 },
    "notifications bob received for alice's database skill");
  const aliceFinds = toolJson(await alice.client.callTool({ name: 'skills_search', arguments: { query: 'pelicans' } }),
    "alice's search for her database skill");
  check(aliceFinds.results.some((r) => r.name === 'db-pelican'), "alice's skills_search misses her database skill");
  const bobFinds = toolJson(await bob.client.callTool({ name: 'skills_search', arguments: { query: 'pelicans' } }),
    "bob's search for alice's database skill");
  check(!bobFinds.results.some((r) => r.name === 'db-pelican'), "bob's skills_search finds alice's database skill");
  log("a database change notifies its owner only, and only the owner finds it");
  await checkChangeNotifications(alice.client, alice.seen, path.join(home, 'users', 'alice', 'skills'), 'alice-later');

  await checkReadsAreQuiet(alice.client, alice.seen, fx);

  // --- shutdown ---------------------------------------------------------------
  await alice.transport.terminateSession();
  for (const c of clients.splice(0)) await c.client.close();
  const exit = await server.stop();
  eq(exit, { code: 0, signal: null }, 'exit status of skillrt serve after SIGTERM');
  checkNoSanitizerReport(server.stderr, 'skillrt serve');
  log('SIGTERM: exit 0');

  // --- anonymous loopback ------------------------------------------------------
  server = await startServe(['--home', home, 'serve', '--allow-anonymous', '--listen', '127.0.0.1:0']);
  const anonymous = new Client({ name: 'skillrt-e2e-anonymous', version: '1.0.0' });
  clients.push({ client: anonymous });
  await anonymous.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  const anonList = toolJson(await anonymous.callTool({ name: 'skills_list', arguments: {} }), 'anonymous skills_list');
  const anonNames = anonList.skills.map((x) => x.name);
  check(anonNames.includes('deploy'), `anonymous skills_list lacks the shared deploy: ${anonNames}`);
  for (const own of Object.values(fx.own)) {
    check(!anonNames.includes(own.name), `anonymous skills_list shows ${own.name}`);
  }
  const { resources: anonResources } = await anonymous.listResources();
  check(!anonResources.some((r) => Object.values(fx.own).some((own) => r.uri === own.uri)),
    "anonymous resources/list shows a user's skill");
  eq((await post(server.url, INIT(10, '2025-11-25'), { authorization: 'Bearer not-a-real-token' })).status, 401,
    'a bad token on an anonymous server');
  for (const c of clients.splice(0)) await c.client.close();
  eq(await server.stop(), { code: 0, signal: null }, 'exit status of the anonymous serve after SIGTERM');
  checkNoSanitizerReport(server.stderr, 'skillrt serve --allow-anonymous');
  log('--allow-anonymous: no token needed, shared layer only; a bad token is still 401');
}, async () => {
  for (const c of clients) await c.client.close().catch(() => {});
  if (server && !server.exit) server.child.kill('SIGKILL');
}, () => `--- skillrt serve stderr (tail):\n${server ? server.stderr.slice(-4000) : '(not started)'}`);
