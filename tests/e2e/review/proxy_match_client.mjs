// skills.match_injection through the OpenAI-compatible proxy, driven by the
// official `openai` client with skillrt tokens as API keys. Sends four
// turns (alice: text content, parts content, an off-topic message; bob: the
// same message as alice's first) and prints the bodies the scripted upstream
// received, one JSON line each, for tests/e2e/proxy_match_injection.sh to check.
//
// Environment: PROXY_URL, ALICE_TOKEN, BOB_TOKEN, UPSTREAM_LOG.
import fs from 'node:fs';

const { default: OpenAI } = await import(new URL('../../tools/node_modules/openai/index.mjs', import.meta.url));

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const client = (token) => new OpenAI({ baseURL: env('PROXY_URL'), apiKey: token, maxRetries: 0 });
const alice = client(env('ALICE_TOKEN'));
const bob = client(env('BOB_TOKEN'));
const system = { role: 'system', content: 'You are a careful assistant.' };

const turns = [
  [alice, [system, { role: 'user', content: 'Please pentest https://shop.example/login before Friday' }]],
  [alice, [system, { role: 'user', content: [{ type: 'text', text: 'Write the song lyrics for our launch' }] }]],
  [bob, [system, { role: 'user', content: 'Please pentest https://shop.example/login before Friday' }]],
  [alice, [system, { role: 'user', content: 'What is the weather in Lisbon?' }]],
];
for (const [who, messages] of turns) {
  const reply = await who.chat.completions.create({ model: 'gpt-test', messages });
  if (reply.choices[0].message.content !== 'Done.') {
    throw new Error(`unexpected reply: ${JSON.stringify(reply)}`);
  }
}
for (const line of fs.readFileSync(env('UPSTREAM_LOG'), 'utf8').split('\n').filter((l) => l !== '')) {
  process.stdout.write(`${JSON.stringify(JSON.parse(line).body)}\n`);
}
