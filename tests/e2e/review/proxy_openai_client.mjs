// The OpenAI-compatible proxy of `skillrt serve --upstream`, driven by the
// official `openai` client (pinned in tests/tools) with a skillrt token as its
// API key, against the scripted upstream (tests/support/scripted_upstream).
// tests/e2e/review_proxy_openai_client.sh runs it in three modes:
//
//   node proxy_openai_client.mjs script FILE   writes the upstream's script (the steps below, in order)
//   node proxy_openai_client.mjs run           every check while the upstream runs
//   node proxy_openai_client.mjs down          the upstream is gone: the client gets a 502
//
// Environment: PROXY_URL (http://127.0.0.1:PORT/v1), API_URL (.../api/v1),
// UPSTREAM_URL, UPSTREAM_LOG, UPSTREAM_KEY (what serve sends upstream),
// AGENT_TOKEN (the agent whose conversation gets a review), OTHER_TOKEN.
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

const { default: OpenAI, APIError } = await import(new URL('../../tools/node_modules/openai/index.mjs',
  import.meta.url));

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

function eq(actual, expected, what) {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new CheckFailed(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function log(message) {
  process.stderr.write(`  - ${message}\n`);
}

// A chat.completion with two tool calls, spelt the way no serializer would
// (spaces, an escaped é, a raw ✓, a trailing newline): what arrives must be
// these bytes, not a re-serialization.
const rawCompletion = '{"id": "chatcmpl-raw-1", "object": "chat.completion", "created": 1700000000, ' +
  '"model": "gpt-test", "choices": [{"index": 0, "message": {"role": "assistant", "content": null, ' +
  '"refusal": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "skill_view", ' +
  '"arguments": "{\\"name\\":\\"deploy\\"}"}}, {"id": "call_2", "type": "function", "function": ' +
  '{"name": "skill_view", "arguments": "{\\"name\\":\\"rollback\\"}"}}]}, "logprobs": null, ' +
  '"finish_reason": "tool_calls"}], "usage": {"prompt_tokens": 31, "completion_tokens": 9, "total_tokens": 40}, ' +
  '"system_fingerprint": "caf\\u00e9 \u2713"}\n';

const streamedStep = {
  type: 'completion', content: 'Checking the skill.',
  tool_calls: [
    { id: 'call_s1', name: 'skill_view', arguments: '{"name":"deploy","file_path":"references/checklist.md"}' },
    { id: 'call_s2', name: 'skills_list', arguments: '{"category":"devops"}' },
  ],
  usage: { prompt_tokens: 50, completion_tokens: 20 },
  stream_options: { content_piece_chars: 3, argument_pieces: 5, write_piece_bytes: 7 },
};

const terminal = (id) => ({ id, name: 'terminal', arguments: '{"command":"make smoke"}' });

const skillMd = ['---', 'name: release-checklist', 'description: Steps before tagging a release', '---',
  '# Release checklist', '', '1. Run the smoke tests.', '2. Update the changelog.'].join('\n');

// The upstream's steps, in the order the requests below reach it.
const steps = [
  // other: non-streamed tool calls, parsed by the client, then the same bytes through fetch
  { type: 'raw', status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'req_raw' },
    body: rawCompletion },
  { type: 'raw', status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'req_raw' },
    body: rawCompletion },
  // other: a streamed answer through the proxy, then the same directly
  streamedStep,
  streamedStep,
  // other: a rate limit
  { type: 'error', status: 429, retry_after: '2',
    body: { error: { message: 'Rate limit reached for gpt-test', type: 'requests', param: null,
      code: 'rate_limit_exceeded' } } },
  // agent: two tool-calling iterations (the second streamed), then the final answer
  { type: 'completion', content: null, tool_calls: [terminal('t1')] },
  { type: 'completion', content: null, tool_calls: [terminal('t2')], stream_options: { write_piece_bytes: 11 } },
  { type: 'completion', content: 'Tagged v1.2 after the smoke tests.' },
  // the background review that starts: it saves a skill, then says so
  { type: 'completion', content: null, tool_calls: [{ id: 'r1', name: 'skill_manage',
    arguments: JSON.stringify({ action: 'create', name: 'release-checklist', content: skillMd }) }] },
  { type: 'completion', content: 'Saved a release checklist.' },
  // agent, second turn: two more iterations and a final answer start a second review...
  { type: 'completion', content: null, tool_calls: [terminal('t3')] },
  { type: 'completion', content: null, tool_calls: [terminal('t4')] },
  { type: 'completion', content: 'Published the release notes.' },
  // ...which hangs in its first model call until the agent's next turn cancels it
  { type: 'delay', ms: 60000, then: { type: 'completion', content: 'too late' } },
  // agent, third turn
  { type: 'completion', content: 'You are welcome.' },
];

const tools = [{
  type: 'function',
  function: { name: 'terminal', description: 'Run a command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
}];

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new CheckFailed(`${name} is not set`);
  return value;
};

const upstreamLog = () => fs.readFileSync(env('UPSTREAM_LOG'), 'utf8').split('\n').filter((l) => l !== '')
  .map((l) => JSON.parse(l));

// The proxy's client for a token; no retries, so every status is seen as sent.
const proxied = (token) => new OpenAI({ baseURL: env('PROXY_URL'), apiKey: token, maxRetries: 0 });

const withoutId = (completion) => {
  const copy = JSON.parse(JSON.stringify(completion));
  delete copy.id;
  return copy;
};

async function expectApiError(promise, status, what) {
  let error = null;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  check(error instanceof APIError, `${what}: expected an APIError, got ${error}`);
  eq(error.status, status, `${what}: status`);
  return error;
}

async function nonStreamed(other) {
  const messages = [{ role: 'system', content: 'You deploy.' }, { role: 'user', content: 'Deploy the app.' }];
  const reply = await other.chat.completions.create({ model: 'gpt-test', messages, tools },
    { headers: { 'X-Skillrt-Conversation-Id': 'other-1' } });
  eq(JSON.parse(JSON.stringify(reply)), JSON.parse(rawCompletion), 'the parsed answer');

  const response = await fetch(`${env('PROXY_URL')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${env('OTHER_TOKEN')}`,
      'x-skillrt-conversation-id': 'other-1' },
    body: JSON.stringify({ model: 'gpt-test', messages, tools }),
  });
  eq(response.status, 200, 'fetch status');
  eq(response.headers.get('content-type'), 'application/json', 'content-type');
  eq(response.headers.get('x-request-id'), 'req_raw', 'x-request-id');
  const bytes = Buffer.from(await response.arrayBuffer());
  check(bytes.equals(Buffer.from(rawCompletion, 'utf8')),
    `the body differs from the upstream's bytes: ${JSON.stringify(bytes.toString('utf8'))}`);

  const models = await other.models.list();
  eq(models.data.map((m) => m.id), ['scripted-model'], 'GET /v1/models passed through');
  log('non-streamed tool calls: the same object as the upstream sent, the same bytes through fetch; models');
}

async function streamed(other) {
  const request = { model: 'gpt-test', messages: [{ role: 'user', content: 'Open the deploy skill.' }],
    tools, stream_options: { include_usage: true } };
  const throughProxy = other.chat.completions.stream(request, { headers: { 'X-Skillrt-Conversation-Id': 'other-2' } });
  const deltas = [];
  throughProxy.on('tool_calls.function.arguments.delta', (event) => deltas.push(event.arguments_delta));
  const viaProxy = await throughProxy.finalChatCompletion();
  const direct = new OpenAI({ baseURL: env('UPSTREAM_URL'), apiKey: env('UPSTREAM_KEY'), maxRetries: 0 });
  const viaUpstream = await direct.chat.completions.stream(request).finalChatCompletion();
  eq(withoutId(viaProxy), withoutId(viaUpstream), 'the streamed answer through the proxy and directly');
  eq(viaProxy.choices[0].message.tool_calls.map((c) => [c.id, c.function.name, c.function.arguments]),
    streamedStep.tool_calls.map((c) => [c.id, c.name, c.arguments]), 'assembled tool calls');
  eq(viaProxy.choices[0].message.content, 'Checking the skill.', 'assembled content');
  check(deltas.length >= 5, `the arguments arrived in ${deltas.length} deltas, expected several`);
  log(`streamed tool-call deltas (${deltas.length} argument deltas) assemble as they do directly`);
}

async function refusals(other) {
  const before = upstreamLog().length;
  const stranger = proxied('sk-not-a-skillrt-token');
  const error = await expectApiError(stranger.chat.completions.create({ model: 'gpt-test',
    messages: [{ role: 'user', content: 'hi' }] }), 401, 'an unknown token');
  eq(error.code, 'invalid_api_key', 'the 401 error code');
  const bare = await fetch(`${env('PROXY_URL')}/chat/completions`, { method: 'POST',
    headers: { 'content-type': 'application/json' }, body: '{"messages":[]}' });
  eq(bare.status, 401, 'no Authorization at all');
  const body = await bare.json();
  check(typeof body?.error?.message === 'string', `the 401 body is an OpenAI error: ${JSON.stringify(body)}`);
  eq(upstreamLog().length, before, 'requests the upstream saw from refused callers');

  const limited = await expectApiError(other.chat.completions.create({ model: 'gpt-test',
    messages: [{ role: 'user', content: 'again' }] }), 429, 'the rate limit');
  eq(limited.headers?.get?.('retry-after') ?? limited.headers?.['retry-after'], '2', 'Retry-After passed through');
  check(limited.message.includes('Rate limit reached for gpt-test'), `the 429's message: ${limited.message}`);
  log('401 for an unknown or missing token (the upstream saw nothing); 429 with Retry-After passed through');
}

async function agentConversation(agent) {
  const options = { headers: { 'X-Skillrt-Conversation-Id': 'release-proxy-1' } };
  const messages = [{ role: 'system', content: 'You are a release agent.' }, { role: 'user', content: 'Tag the release.' }];
  const first = await agent.chat.completions.create({ model: 'agent-model', messages, tools }, options);
  eq(first.choices[0].finish_reason, 'tool_calls', 'first iteration');
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: 't1', content: 'smoke tests passed' });
  const second = await agent.chat.completions.stream({ model: 'agent-model', messages, tools }, options)
    .finalChatCompletion();
  eq(second.choices[0].message.tool_calls.map((c) => c.id), ['t2'], 'second iteration (streamed)');
  messages.push(second.choices[0].message, { role: 'tool', tool_call_id: 't2', content: 'tagged' });
  const last = await agent.chat.completions.create({ model: 'agent-model', messages, tools }, options);
  eq(last.choices[0].message.content, 'Tagged v1.2 after the smoke tests.', 'the final answer');

  // Two tool-calling iterations reached skills.creation_nudge_interval: the
  // final answer started a review, which runs against the same upstream.
  let reviews = [];
  for (let i = 0; i < 300 && reviews.length === 0; i++) {
    const response = await fetch(`${env('API_URL')}/reviews`, { headers: { authorization: `Bearer ${env('AGENT_TOKEN')}` } });
    eq(response.status, 200, 'GET /api/v1/reviews');
    reviews = (await response.json()).reviews;
    if (reviews.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  eq(reviews.length, 1, 'finished reviews of the agent');
  eq(reviews[0].conversation_id, 'release-proxy-1', 'the reviewed conversation');
  eq(reviews[0].ending, 'finished', 'the review ended');
  eq(reviews[0].proposals.length, 1, 'the review proposed the skill');
  const others = await (await fetch(`${env('API_URL')}/reviews`,
    { headers: { authorization: `Bearer ${env('OTHER_TOKEN')}` } })).json();
  eq(others.reviews.length, 0, 'the other caller (never a final answer) has no review');

  const review = upstreamLog().filter((entry) => entry.body?.model === 'review-model');
  eq(review.length, 2, 'the review\'s own model calls');
  const snapshot = JSON.stringify(review[0].body.messages);
  check(snapshot.includes('Tagged v1.2 after the smoke tests.'), 'the review read the conversation and its final answer');
  log('2 tool-calling iterations and a final answer started a background review, listed by GET /api/v1/reviews');
  return messages.concat([last.choices[0].message]);
}

const reviewsOf = async (token) => (await (await fetch(`${env('API_URL')}/reviews`,
  { headers: { authorization: `Bearer ${token}` } })).json()).reviews;

// A new user turn cancels the conversation's running review before its
// answer reaches the agent (the review waits in the upstream meanwhile).
async function nextTurnCancels(agent, messages) {
  const options = { headers: { 'X-Skillrt-Conversation-Id': 'release-proxy-1' } };
  messages.push({ role: 'user', content: 'Now publish the release notes.' });
  for (const id of ['t3', 't4']) {
    const reply = await agent.chat.completions.create({ model: 'agent-model', messages, tools }, options);
    eq(reply.choices[0].message.tool_calls.map((c) => c.id), [id], `iteration ${id}`);
    messages.push(reply.choices[0].message, { role: 'tool', tool_call_id: id, content: 'done' });
  }
  const published = await agent.chat.completions.create({ model: 'agent-model', messages, tools }, options);
  eq(published.choices[0].message.content, 'Published the release notes.', 'the second final answer');
  messages.push(published.choices[0].message);
  const reviewCalls = () => upstreamLog().filter((entry) => entry.body?.model === 'review-model').length;
  for (let i = 0; i < 300 && reviewCalls() < 3; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  eq(reviewCalls(), 3, 'the second review is waiting for its model');

  messages.push({ role: 'user', content: 'Thanks.' });
  const started = Date.now();
  const thanks = await agent.chat.completions.create({ model: 'agent-model', messages, tools }, options);
  eq(thanks.choices[0].message.content, 'You are welcome.', 'the third turn\'s answer');
  // turn_started returned before the answer was relayed, and it returns once
  // the review has stopped: it is listed already.
  const reviews = await reviewsOf(env('AGENT_TOKEN'));
  eq(reviews.map((r) => r.ending), ['finished', 'cancelled'], 'the reviews when the answer arrived');
  log(`a new user turn cancelled the running review before its answer (${Date.now() - started} ms)`);
}

function credentials() {
  const entries = upstreamLog();
  const proxiedEntries = entries.filter((entry) => entry.body?.model !== 'review-model');
  check(proxiedEntries.length >= 8, `expected the proxied requests in the log, got ${proxiedEntries.length}`);
  for (const entry of proxiedEntries) {
    eq(entry.headers.authorization, `Bearer ${env('UPSTREAM_KEY')}`, `authorization of request ${entry.seq}`);
  }
  for (const entry of entries) {
    const text = JSON.stringify(entry);
    check(!text.includes(env('AGENT_TOKEN')) && !text.includes(env('OTHER_TOKEN')),
      `request ${entry.seq} carries a skillrt token`);
  }
  log('the upstream got the upstream key on every proxied request and never a skillrt token');
}

async function run() {
  const other = proxied(env('OTHER_TOKEN'));
  await nonStreamed(other);
  await streamed(other);
  await refusals(other);
  const agent = proxied(env('AGENT_TOKEN'));
  await nextTurnCancels(agent, await agentConversation(agent));
  credentials();
}

async function down() {
  const error = await expectApiError(proxied(env('AGENT_TOKEN')).chat.completions.create({ model: 'gpt-test',
    messages: [{ role: 'user', content: 'anyone there?' }] }), 502, 'the upstream is down');
  eq(error.code, 'upstream_unreachable', 'the 502 error code');
  check(error.message.includes(env('UPSTREAM_URL')), `the 502 names the upstream: ${error.message}`);
  log('upstream down: 502 with an OpenAI-shaped error');
}

try {
  const [mode, file] = process.argv.slice(2);
  if (mode === 'script') {
    fs.writeFileSync(file, JSON.stringify({ model: 'scripted-model', steps }));
  } else if (mode === 'run') {
    await run();
  } else if (mode === 'down') {
    await down();
  } else {
    throw new CheckFailed(`unknown mode ${mode}`);
  }
} catch (error) {
  process.stderr.write(`FAILED: ${error instanceof CheckFailed ? error.message : error.stack}\n`);
  process.exitCode = 1;
}
