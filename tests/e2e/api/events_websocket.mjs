// /api/v1/events, the live per-user push (issue 3/6 item 2), with Node's
// own WebSocket client (undici, not written here). Driven by
// tests/e2e/api_events_websocket.sh.
//
// Environment: BASE_URL (http://127.0.0.1:PORT), ALICE, BOB, OWNER (tokens;
// alice and bob are org1 users, owner is org 0), BOB_TOKEN_ID (to revoke).
import { CheckFailed, check, env, log, runChecks } from '../checks.mjs';

const base = env('BASE_URL');
const wsBase = base.replace(/^http/, 'ws');
const alice = env('ALICE');
const bob = env('BOB');
const owner = env('OWNER');

// A socket that records every message and its close.
function connect(token, query = '') {
  const ws = new WebSocket(`${wsBase}/api/v1/events${query}`, { headers: { Authorization: `Bearer ${token}` } });
  const client = { ws, messages: [], closed: null, waiters: [] };
  ws.onmessage = (event) => {
    client.messages.push(JSON.parse(event.data));
    client.waiters = client.waiters.filter((w) => !w());
  };
  ws.onclose = (event) => {
    client.closed = { code: event.code, reason: event.reason };
    client.waiters = client.waiters.filter((w) => !w());
  };
  // A refused handshake is an error event, then a close once the server
  // ends the connection.
  ws.onerror = () => {
    client.errored = true;
    client.waiters = client.waiters.filter((w) => !w());
  };
  return client;
}

// Resolves when `predicate(client)` holds; fails after `ms`.
function until(client, predicate, what, ms = 15000) {
  return new Promise((resolve, reject) => {
    if (predicate(client)) return resolve();
    const timer = setTimeout(() => reject(new CheckFailed(`timed out waiting for ${what}; got ` +
      `${JSON.stringify(client.messages)} closed ${JSON.stringify(client.closed)}`)), ms);
    client.waiters.push(() => {
      if (!predicate(client)) return false;
      clearTimeout(timer);
      resolve();
      return true;
    });
  });
}
const has = (type, key, value) => (c) => c.messages.some((m) => m.type === type && m[key] === value);

async function rest(method, path, token, body) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await response.json();
  check(response.status < 300, `${method} ${path}: ${response.status} ${JSON.stringify(parsed)}`);
  return parsed;
}
const skillMd = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nSteps.\n`;

async function main() {
  // Refusals before the upgrade.
  let response = await fetch(`${base}/api/v1/events`, { headers: { Authorization: `Bearer ${alice}` } });
  check(response.status === 426, `a plain GET: ${response.status}`);
  const refused = connect('skrt_not_a_token');
  await until(refused, (c) => c.closed || c.errored, 'the refused socket to fail');
  check(refused.messages.length === 0, 'a bad token gets no events');
  const badSince = connect(alice, '?since=abc');
  await until(badSince, (c) => c.closed || c.errored, 'the bad ?since= socket to fail');
  log('a plain GET is 426; a bad token and a bad ?since= never open');

  const alice1 = connect(alice);
  const alice2 = connect(alice);
  const bob1 = connect(bob);
  for (const [client, who] of [[alice1, 'alice'], [alice2, "alice's second tab"], [bob1, 'bob']]) {
    await until(client, (c) => c.messages.some((m) => m.type === 'hello'), `${who}'s hello`);
  }

  await rest('POST', '/skills', alice, { name: 'alice-live', content: skillMd('alice-live', 'Pushed to alice') });
  await until(alice1, has('skill.created', 'name', 'alice-live'), "alice's event");
  await until(alice2, has('skill.created', 'name', 'alice-live'), "alice's second tab's event");
  // A shared write reaches everyone, after everything published before it:
  // once bob has it, anything of alice's he would have got is already here.
  await rest('POST', '/skills', owner, { name: 'shared-live', layer: 'shared', content: skillMd('shared-live', 'For all') });
  await until(bob1, has('skill.created', 'name', 'shared-live'), "bob's shared event");
  await until(alice1, has('skill.created', 'name', 'shared-live'), "alice's shared event");
  // The second tab too, so the number it resumes from below is after it.
  await until(alice2, has('skill.created', 'name', 'shared-live'), "alice's second tab's shared event");
  check(!bob1.messages.some((m) => m.name === 'alice-live'), `bob got alice's event: ${JSON.stringify(bob1.messages)}`);
  const seqs = alice1.messages.filter((m) => m.type !== 'hello').map((m) => m.seq);
  check(seqs.every((s, i) => i === 0 || s > seqs[i - 1]), `rising numbers: ${seqs}`);
  log("alice's two tabs get her event, bob does not; a shared event reaches all; numbers rise");

  // Resume: alice's second tab goes away, misses two events, comes back.
  const lastSeen = Math.max(...alice2.messages.map((m) => m.seq));
  alice2.ws.close();
  await until(alice2, (c) => c.closed, 'the tab to close');
  await rest('PUT', '/skills/alice-live', alice, { content: skillMd('alice-live', 'Changed while away') });
  await rest('POST', '/skills', bob, { name: 'bob-live', content: skillMd('bob-live', 'Bob only') });
  await rest('DELETE', '/skills/alice-live', alice);
  const resumed = connect(alice, `?since=${lastSeen}`);
  await until(resumed, has('skill.deleted', 'name', 'alice-live'), 'the missed events after resuming');
  // skills.changed (the watcher saw alice's files change) may come too; the
  // writes themselves are the skill.* events.
  const replayed = resumed.messages.filter((m) => m.type.startsWith('skill.')).map((m) => `${m.type}:${m.name}`);
  check(!resumed.messages.some((m) => m.layer === 'user' && m.name === 'bob-live'), "the replay holds bob's event");
  check(JSON.stringify(replayed) === JSON.stringify(['skill.updated:alice-live', 'skill.deleted:alice-live']),
    `the replay holds exactly alice's missed events: ${replayed}`);
  const future = connect(alice, '?since=999999999');
  await until(future, (c) => c.messages.some((m) => m.type === 'resync'), 'a resync for a number from the future');
  log('?since=N replays exactly what was missed; a number the server never issued is a resync');

  // Revocation: bob's token goes; his socket closes with 4001 within the window.
  const started = Date.now();
  await rest('DELETE', `/tokens/${env('BOB_TOKEN_ID')}`, owner);
  await until(bob1, (c) => c.closed, "bob's socket to close after revocation", 15000);
  check(bob1.closed.code === 4001, `close code ${JSON.stringify(bob1.closed)}`);
  log(`a revoked token's socket closed with 4001 after ${Date.now() - started} ms`);

  for (const client of [alice1, resumed, future]) client.ws.close();
}

await runChecks(main);
