// The official v2 client (@modelcontextprotocol/client) against skillrt, over
// Streamable HTTP with bearer tokens and over stdio:
// - with version negotiation on, it negotiates 2026-07-28 (server/discover,
//   no session id), and its SkillsClient lists, gets and reads every skill
//   the caller may see, verifying each file's size and digest and the
//   frontmatter; a second user's listing holds none of the first user's;
// - a subscriptions/listen stream carries list_changed for the caller's own
//   change, tagged with the subscription id, and nothing for another user's;
// - left to its default (legacy) mode it still connects, on 2025-11-25;
// - the raw wire: a version header that disagrees with _meta is 400 -32020,
//   an unknown version 400 -32022 naming what we speak, initialize under the
//   2026 envelope 404 -32601, GET with the 2026 header 405;
// - `skillrt mcp` (stdio) negotiates 2026-07-28 too and listens.
//
//   node sdk2_peers.mjs WORK_DIR        (SKILLRT_BIN names the binary)
import path from 'node:path';

import { Client, SkillsClient, StdioClientTransport, StreamableHTTPClientTransport } from './sdk2.mjs';
import {
  check, eq, log, main, makeHome, createToken, startServe, checkNoSanitizerReport, waitFor, writeSkill, sleep,
} from './lib.mjs';

const work = process.argv[2];
check(work && process.env.SKILLRT_BIN, 'usage: SKILLRT_BIN=... node sdk2_peers.mjs WORK_DIR');
const home = path.join(work, 'home');
const fx = makeHome(home, ['alice', 'bob']);
const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'skillrt-e2e-raw', version: '1.0.0' },
};

let server;
const closers = [];

function modernClient(name, options = {}) {
  return new Client({ name, version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' }, ...options });
}

async function connectHttp(url, bearer, name, options) {
  const client = options?.legacy ? new Client({ name, version: '1.0.0' }, { capabilities: {} }) : modernClient(name);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
  });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport };
}

// Lists, gets, reads and walks the directories of every skill through the
// SkillsClient; returns the URIs.
async function walkSkills(client, who) {
  const skills = new SkillsClient(client);
  check(skills.supported, `${who}: SkillsClient sees no skills extension`);
  const listing = await skills.list();
  eq(listing.invalid.length, 0, `${who}: invalid skills/list entries`);
  check(Number.isInteger(listing.ttlMs) && listing.ttlMs >= 0, `${who}: skills/list ttlMs ${listing.ttlMs}`);
  eq(listing.cacheScope, 'private', `${who}: skills/list cacheScope for a token's caller`);
  const uris = [];
  for (const entry of listing.skills) {
    const got = await skills.get(entry.uri);
    eq(got.skill.uri, entry.uri, `${who}: skills/get answers for the skill asked`);
    const manifest = await skills.read(got.skill);
    check(manifest.verified, `${who}: ${entry.uri} was not verified against its digest`);
    eq(manifest.frontmatter.name, entry.frontmatter.name, `${who}: frontmatter name of ${entry.uri}`);
    for (const file of got.skill.resources ?? []) {
      const read = await skills.read(got.skill, file.uri);
      check(read.verified, `${who}: ${file.uri} was not verified`);
    }
    // resources/directory/read, walked from the skill's directory down,
    // reaches exactly the files of the manifest, each with its size.
    check(skills.directoryRead, `${who}: SkillsClient reports directoryRead: false`);
    const walked = new Map();
    const pending = [entry.uri.slice(0, -'/SKILL.md'.length)];
    while (pending.length > 0) {
      const dir = pending.pop();
      const page = await skills.readDirectory(dir);
      check(Number.isInteger(page.ttlMs), `${who}: resources/directory/read ttlMs for ${dir}`);
      for (const child of page.resources) {
        check(child.uri.startsWith(`${dir}/`), `${who}: ${child.uri} is not a child of ${dir}`);
        if (child.mimeType === 'inode/directory') pending.push(child.uri);
        else walked.set(child.uri, child.size);
      }
    }
    const manifestFiles = new Map((got.skill.resources ?? []).map(file => [file.uri, file.size]));
    eq(JSON.stringify([...walked].sort()), JSON.stringify([...manifestFiles].sort()),
      `${who}: the directory tree of ${entry.uri} against its manifest`);
    uris.push(entry.uri);
  }
  return uris.sort();
}

// Raw POST of one 2026-07-28 request; the parsed answer and status.
async function post(url, bearer, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json', accept: 'application/json, text/event-stream',
      authorization: `Bearer ${bearer}`, 'mcp-protocol-version': MODERN, 'mcp-method': body.method, ...headers,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10000),
  });
  const text = await res.text();
  let message = null;
  try { message = JSON.parse(text); } catch { message = null; }
  return { status: res.status, message, headers: res.headers };
}

await main('sdk2_peers', async () => {
  const alice = (await createToken(home, 'alice', 'acme', 'e2e-alice')).bearer;
  const bob = (await createToken(home, 'bob', 'acme', 'e2e-bob')).bearer;
  server = await startServe(['--home', home, 'serve', '--listen', '127.0.0.1:0']);
  const url = server.url;

  // --- negotiation and the Skills extension ------------------------------------
  const a = await connectHttp(url, alice, 'skillrt-e2e-v2-alice');
  eq(a.client.getNegotiatedProtocolVersion(), MODERN, 'version the v2 client negotiated');
  eq(a.transport.sessionId, undefined, 'a 2026-07-28 connection has no session id');
  const aliceUris = await walkSkills(a.client, 'alice');
  for (const uri of [fx.deploy.uri, 'skill://notes/journal/SKILL.md', fx.own.alice.uri]) {
    check(aliceUris.includes(uri), `alice's listing lacks ${uri}: ${aliceUris}`);
  }
  const b = await connectHttp(url, bob, 'skillrt-e2e-v2-bob');
  const bobUris = await walkSkills(b.client, 'bob');
  check(!bobUris.includes(fx.own.alice.uri), `bob sees alice's skill: ${bobUris}`);
  check(bobUris.includes(fx.own.bob.uri), `bob's listing lacks his own skill: ${bobUris}`);
  const tools = await a.client.listTools();
  eq(tools.tools.map((t) => t.name).sort().join(','), 'skill_manage,skill_view,skills_list,skills_match,skills_search', 'tools');
  log(`v2 client negotiated ${MODERN} statelessly; SkillsClient listed, got and verified ${aliceUris.length} skills`);

  // --- subscriptions/listen ------------------------------------------------------
  const heard = { alice: [], bob: [] };
  a.client.setNotificationHandler('notifications/resources/list_changed', (n) => heard.alice.push(n));
  b.client.setNotificationHandler('notifications/resources/list_changed', (n) => heard.bob.push(n));
  const aliceListen = await a.client.listen({ resourcesListChanged: true });
  const bobListen = await b.client.listen({ resourcesListChanged: true });
  const created = await a.client.callTool({
    name: 'skill_manage',
    arguments: { action: 'create', name: 'v2-made', content: '---\nname: v2-made\ndescription: Made over 2026-07-28\n---\n# Made\n' },
  });
  check(!created.isError, `skill_manage create over 2026-07-28: ${JSON.stringify(created.content)}`);
  await waitFor(async () => heard.alice.length > 0, 5000, 'alice to hear list_changed on her listen stream');
  const tag = heard.alice[0].params?._meta?.['io.modelcontextprotocol/subscriptionId'];
  check(tag !== undefined, `list_changed on a listen stream carries no subscription id: ${JSON.stringify(heard.alice[0])}`);
  await sleep(500);
  eq(heard.bob.length, 0, "notifications bob heard about alice's own skill");
  check((await walkSkills(a.client, 'alice again')).includes('skill://v2-made/SKILL.md'), 'the new skill is listed');
  writeSkill(path.join(home, 'skills', 'notes', 'standup'), 'standup', 'Run the daily standup');
  await waitFor(async () => heard.bob.length > 0, 5000, 'bob to hear list_changed for a shared skill');
  await aliceListen.close?.();
  await bobListen.close?.();
  log('listen streams carry the caller\'s changes, tagged, and nothing of another user\'s');

  // --- the default (legacy) mode still works ---------------------------------------
  const legacy = await connectHttp(url, alice, 'skillrt-e2e-v2-legacy', { legacy: true });
  eq(legacy.client.getNegotiatedProtocolVersion(), '2025-11-25', 'version of the v2 client in legacy mode');
  check(legacy.transport.sessionId, 'a 2025-11-25 connection has a session id');
  check((await walkSkills(legacy.client, 'alice (legacy)')).includes(fx.own.alice.uri), 'legacy listing');

  // --- the raw wire --------------------------------------------------------------
  const mismatch = await post(url, alice, { jsonrpc: '2.0', id: 11, method: 'tools/list',
    params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
  eq(mismatch.status, 400, 'status when the version header and _meta disagree');
  eq(mismatch.message?.error?.code, -32020, 'code when the version header and _meta disagree');
  eq(mismatch.message?.id, 11, 'the refusal echoes the request id');
  const unknown = await post(url, alice, { jsonrpc: '2.0', id: 12, method: 'tools/list',
    params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } },
  { 'mcp-protocol-version': '2099-01-01' });
  eq(unknown.status, 400, 'status for an unknown version');
  eq(unknown.message?.error?.code, -32022, 'code for an unknown version');
  check(unknown.message?.error?.data?.supported?.includes(MODERN), `supported versions: ${JSON.stringify(unknown.message)}`);
  eq(unknown.message?.error?.data?.requested, '2099-01-01', 'the refusal echoes the version asked for');
  const init = await post(url, alice, { jsonrpc: '2.0', id: 13, method: 'initialize', params: { _meta: ENVELOPE } });
  eq(init.status, 404, 'status of initialize under the 2026 envelope');
  eq(init.message?.error?.code, -32601, 'code of initialize under the 2026 envelope');
  const noMeta = await post(url, alice, { jsonrpc: '2.0', id: 14, method: 'tools/list', params: {} });
  eq(noMeta.status, 400, 'status of a 2026 request without _meta');
  eq(noMeta.message?.error?.code, -32602, 'code of a 2026 request without _meta');
  const get = await fetch(url, { headers: { authorization: `Bearer ${alice}`, accept: 'text/event-stream',
    'mcp-protocol-version': MODERN } });
  eq(get.status, 405, 'GET under the 2026 header');
  await get.body?.cancel();
  const unauthorized = await post(url, 'not-a-token', { jsonrpc: '2.0', id: 15, method: 'server/discover', params: { _meta: ENVELOPE } });
  eq(unauthorized.status, 401, 'server/discover without a valid token');
  log('raw wire: -32020, -32022, 404 for removed methods, 400 for a missing envelope, 405 for GET, 401 without a token');

  // --- stdio ---------------------------------------------------------------------
  const stdio = modernClient('skillrt-e2e-v2-stdio');
  await stdio.connect(new StdioClientTransport({
    command: process.env.SKILLRT_BIN, args: ['--home', home, '--user', 'alice', 'mcp'], stderr: 'pipe',
  }));
  closers.push(() => stdio.close());
  eq(stdio.getNegotiatedProtocolVersion(), MODERN, 'version negotiated over stdio');
  const stdioUris = await walkSkills(stdio, 'stdio');
  check(stdioUris.includes(fx.own.alice.uri), `stdio listing lacks alice's skill: ${stdioUris}`);
  const stdioHeard = [];
  stdio.setNotificationHandler('notifications/resources/list_changed', (n) => stdioHeard.push(n));
  const stdioListen = await stdio.listen({ resourcesListChanged: true });
  writeSkill(path.join(home, 'users', 'alice', 'skills', 'tools', 'stdio-new'), 'stdio-new', 'Seen over stdio');
  await waitFor(async () => stdioHeard.length > 0, 5000, 'the stdio listen stream to carry list_changed');
  await stdioListen.close?.();
  log('skillrt mcp (stdio) negotiates 2026-07-28 and listens');
}, async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  if (server) {
    const exit = await server.stop();
    checkNoSanitizerReport(server.stderr, 'skillrt serve');
    eq(exit.code, 0, `serve exit after SIGTERM (signal ${exit.signal})`);
  }
}, () => (server ? `serve stderr:\n${server.stderr.slice(-4000)}` : ''));
