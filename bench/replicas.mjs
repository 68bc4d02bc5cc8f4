// The client side of bench/replicas.sh: shared-skill writes through replica
// A, each timed from just before its POST until the WebSocket on replica B
// (through the change log's NOTIFY) and the one on A itself have the event.
// Prints one JSON object per measurement.
import { print, summary } from './stats.mjs';

const baseA = process.env.BASE_A;
const baseB = process.env.BASE_B;
const owner = process.env.OWNER;
const writes = Number(process.env.WRITES ?? 200);


// A socket that resolves a waiter when the named skill's event arrives.
function socket(base) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/events`, { headers: { Authorization: `Bearer ${owner}` } });
  const client = { ws, arrived: new Map(), waiters: new Map(), hello: null };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'hello') client.hello = message;
    if (message.type !== 'skill.created') return;
    client.arrived.set(message.name, performance.now());
    client.waiters.get(message.name)?.();
  };
  return client;
}
const arrival = (client, name) => new Promise((resolve) => {
  if (client.arrived.has(name)) return resolve(client.arrived.get(name));
  client.waiters.set(name, () => resolve(client.arrived.get(name)));
});

const onA = socket(baseA);
const onB = socket(baseB);
while (!onA.hello || !onB.hello) await new Promise((r) => setTimeout(r, 20));

const local = [];
const remote = [];
const between = [];
for (let i = 0; i < writes; ++i) {
  const name = `replica-bench-${Date.now()}-${i}`;
  const t0 = performance.now();
  const response = await fetch(`${baseA}/api/v1/skills`, {
    method: 'POST', headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, layer: 'shared', content: `---\nname: ${name}\ndescription: Bench ${i}\n---\n# ${name}\n` }),
  });
  if (response.status !== 201) throw new Error(`POST: ${response.status} ${await response.text()}`);
  const [a, b] = await Promise.all([arrival(onA, name), arrival(onB, name)]);
  local.push(a - t0);
  remote.push(b - t0);
  between.push(b - a);
}
print(summary('write on A until the event reaches a WebSocket on A (same replica)', local));
print(summary('write on A until the event reaches a WebSocket on B (through NOTIFY)', remote));
// A's socket has the event once A logged and delivered it; the rest is the
// NOTIFY, B's read of the log and B's delivery: the propagation itself.
print(summary('the event on A\'s socket until it is on B\'s socket (propagation between replicas)', between));
onA.ws.close();
onB.ws.close();
process.exit(0);
