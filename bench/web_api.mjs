// The client side of bench/web_api.sh: REST page latencies, then 1,000
// WebSocket users. Prints one JSON object per measurement.
import { readFileSync } from 'node:fs';

import { print, summary } from './stats.mjs';

const base = process.env.BASE_URL;
const owner = process.env.OWNER;
const users = Number(process.env.USERS ?? 1000);
const serverPid = process.env.SERVER_PID;

const rssKib = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${serverPid}/status`, 'utf8'))[1]);

async function call(method, path, token, body) {
  const headers = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function timed(path, token) {
  const t0 = performance.now();
  const body = await call('GET', path, token);
  return [performance.now() - t0, body];
}

const skillMd = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nSteps.\n`;

// --- the skills browser's requests at 10k skills ---
const [, first] = await timed('/api/v1/skills?limit=50', owner);
const total = first.total;
const category = first.categories.find((c) => !c.includes('/')) ?? first.categories[0];
for (let i = 0; i < 10; ++i) await timed(`/api/v1/skills?limit=50&offset=${i * 50}`, owner);  // warm-up
const pages = [], deep = [], filtered = [], searches = [];
const words = ['deploy', 'review', 'pdf', 'docker', 'test', 'data', 'logs', 'api', 'security', 'migrate'];
for (let i = 0; i < 200; ++i) {
  pages.push((await timed(`/api/v1/skills?limit=50&offset=${(i * 50) % 1000}`, owner))[0]);
  deep.push((await timed(`/api/v1/skills?limit=50&offset=${Math.max(0, total - 50 - ((i * 50) % 1000))}`, owner))[0]);
  filtered.push((await timed(`/api/v1/skills?limit=50&category=${encodeURIComponent(category)}`, owner))[0]);
  searches.push((await timed(`/api/v1/search?q=${words[i % words.length]}&limit=20`, owner))[0]);
}
print({ skills: total, category });
print(summary('skills page (offset 0-950, limit 50)', pages));
print(summary('skills page (the last 1,000, limit 50)', deep));
print(summary(`skills page (category ${category})`, filtered));
print(summary('search (limit 20)', searches));

// --- 1,000 users on WebSockets ---
const tokens = [];
for (let u = 0; u < users; ++u) {
  const created = await call('POST', '/api/v1/tokens', owner, { user_id: `u${u}`, org_id: '1', label: 'bench' });
  tokens.push(created.bearer);
}
const rssBefore = rssKib();
const sockets = [];
const received = new Map();  // key → receipt times (performance.now())
const delivery = new Map();  // key → ms from the server's publication to receipt
let stray = 0;
await Promise.all(tokens.map((token, index) => new Promise((resolve, reject) => {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v1/events`, { headers: { Authorization: `Bearer ${token}` } });
  ws.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.type === 'hello') return resolve();
    if (event.type !== 'skill.created') return;
    const key = event.name;
    if (key.startsWith(`own-${index}-`) || key.startsWith('shared-')) {
      if (!received.has(key)) received.set(key, []);
      received.get(key).push(performance.now());
      // From the server's publication (`at`, Unix ms; same host, same clock) to here.
      if (!delivery.has(key)) delivery.set(key, []);
      delivery.get(key).push(Date.now() - event.at);
    } else {
      ++stray;  // another user's event: must never happen
    }
  };
  ws.onerror = () => reject(new Error(`socket ${index} failed`));
  sockets.push(ws);
})));
await new Promise((r) => setTimeout(r, 1000));
const rssAfter = rssKib();
print({ idle_sockets: users, rss_before_kib: rssBefore, rss_after_kib: rssAfter,
  bytes_per_socket: Math.round(((rssAfter - rssBefore) * 1024) / users) });

const waitFor = async (key, count, timeoutMs = 10000) => {
  const deadline = performance.now() + timeoutMs;
  while ((received.get(key)?.length ?? 0) < count) {
    if (performance.now() > deadline) throw new Error(`${key}: ${received.get(key)?.length ?? 0} of ${count} deliveries`);
    await new Promise((r) => setImmediate(r));
  }
};

// One user's write → that user's socket.
const own = [], writes = [];
for (let i = 0; i < 200; ++i) {
  const u = (i * 37) % users;
  const name = `own-${u}-${i}`;
  const t0 = performance.now();
  await call('POST', '/api/v1/skills', tokens[u], { name, content: skillMd(name, 'A bench skill') });
  writes.push(performance.now() - t0);
  await waitFor(name, 1);
  own.push(received.get(name)[0] - t0);
}
print(summary('one user: REST write answered', writes));
print(summary("one user: write sent → event on the user's socket", own));
print(summary("one user: event published → on the user's socket", [...delivery.entries()]
  .filter(([key]) => key.startsWith('own-')).flatMap(([, times]) => times)));

// A shared write → every socket.
const shared = [], last = [];
for (let i = 0; i < 10; ++i) {
  const name = `shared-${i}`;
  const t0 = performance.now();
  await call('POST', '/api/v1/skills', owner, { name, layer: 'shared', content: skillMd(name, 'A shared bench skill') });
  await waitFor(name, users, 30000);
  const times = received.get(name).map((t) => t - t0);
  shared.push(...times);
  last.push(Math.max(...times));
}
print(summary(`shared: write sent → event on each of ${users} sockets`, shared));
print(summary(`shared: event published → on each of ${users} sockets`, [...delivery.entries()]
  .filter(([key]) => key.startsWith('shared-')).flatMap(([, times]) => times)));
print(summary('shared: write sent → the last socket has it', last));
print({ stray_events: stray });
for (const ws of sockets) ws.close();
if (stray !== 0) process.exit(1);
