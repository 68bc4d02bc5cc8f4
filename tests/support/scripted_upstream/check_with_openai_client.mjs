// Proof that the scripted upstream speaks the real chat-completions wire
// format: the official `openai` Node client (pinned in tests/tools) drives
// it and must parse every shape the C++ tests rely on: a non-streaming
// answer with tool calls, a streamed answer whose tool-call deltas are split
// across chunks (assembled by the client's own stream helper, which checks
// every field), a 429 with Retry-After that the client retries, an error
// status the client surfaces as an APIError with the server's message, and
// the model list. It also checks the request log.
//
//   node check_with_openai_client.mjs        (exit 0: every check passed)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
// The tests live outside tests/tools, where a bare 'openai' import would not
// resolve; the pinned copy is imported by path.
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

// Starts the scripted upstream on `steps`; resolves to {baseURL, requests(), stop()}.
async function startUpstream(dir, steps) {
  const scriptFile = path.join(dir, 'script.json');
  const logFile = path.join(dir, 'requests.jsonl');
  fs.writeFileSync(scriptFile, JSON.stringify({ model: 'scripted-model', steps }));
  const child = spawn(process.execPath,
    [path.join(here, 'scripted_upstream.mjs'), '--script', scriptFile, '--log', logFile, '--exit-with-stdin'],
    { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new CheckFailed('the scripted upstream printed no port within 20 s')), 20000);
    child.stdout.on('data', (data) => {
      out += data;
      const line = out.split('\n');
      if (line.length > 1) {
        clearTimeout(timer);
        resolve(Number(line[0]));
      }
    });
    child.on('exit', (code) => reject(new CheckFailed(`the scripted upstream exited (${code}) before listening`)));
  });
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: () => fs.readFileSync(logFile, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)),
    stop: () => new Promise((resolve) => {
      child.on('exit', resolve);
      child.stdin.end();
    }),
  };
}

const tools = [{
  type: 'function',
  function: {
    name: 'skill_view',
    description: 'Read a skill',
    parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
}];
const messages = [
  { role: 'system', content: 'You review conversations.' },
  { role: 'user', content: 'Deploy the app.' },
];

async function nonStreaming(dir) {
  const upstream = await startUpstream(dir, [{
    type: 'completion',
    content: null,
    tool_calls: [
      { id: 'call_1', name: 'skill_view', arguments: '{"name":"deploy"}' },
      { id: 'call_2', name: 'skill_view', arguments: '{"name":"rollback"}' },
    ],
    usage: { prompt_tokens: 31, completion_tokens: 9 },
  }]);
  try {
    const client = new OpenAI({ baseURL: upstream.baseURL, apiKey: 'sk-scripted', maxRetries: 0 });
    const reply = await client.chat.completions.create({ model: 'gpt-test', messages, tools });
    eq(reply.object, 'chat.completion', 'object');
    eq(reply.model, 'gpt-test', 'model echoed');
    const choice = reply.choices[0];
    eq(choice.finish_reason, 'tool_calls', 'finish_reason');
    eq(choice.message.role, 'assistant', 'role');
    eq(choice.message.content, null, 'content');
    eq(choice.message.tool_calls.map((c) => [c.id, c.type, c.function.name, JSON.parse(c.function.arguments)]), [
      ['call_1', 'function', 'skill_view', { name: 'deploy' }],
      ['call_2', 'function', 'skill_view', { name: 'rollback' }],
    ], 'tool calls');
    eq([reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.total_tokens], [31, 9, 40], 'usage');
    const [sent] = upstream.requests();
    eq(sent.path, '/v1/chat/completions', 'path');
    eq(sent.headers.authorization, 'Bearer sk-scripted', 'authorization');
    eq(sent.body.messages, messages, 'messages logged');
    eq(sent.body.tools, tools, 'tools logged');
    const models = await client.models.list();
    eq(models.data.map((m) => m.id), ['scripted-model'], 'models');
    log('non-streaming answer with two tool calls, usage, request log, model list');
  } finally {
    await upstream.stop();
  }
}

async function streaming(dir) {
  const args = '{"name":"deploy","file":"references/checklist.md"}';
  const upstream = await startUpstream(dir, [
    { type: 'completion', content: 'Let me look at that skill.', tool_calls: [
      { id: 'call_a', name: 'skill_view', arguments: args },
      { id: 'call_b', name: 'skills_list', arguments: '{}' },
    ], usage: { prompt_tokens: 50, completion_tokens: 20 },
    stream_options: { content_piece_chars: 5, argument_pieces: 4, write_piece_bytes: 7 } },
    { type: 'completion', content: 'Plain streamed text.', stream_options: { line_ending: '\r\n', comments: true } },
  ]);
  try {
    const client = new OpenAI({ baseURL: upstream.baseURL, apiKey: 'sk-scripted', maxRetries: 0 });
    // The client's stream helper assembles the deltas and throws on any
    // missing or mistyped field of a chunk.
    const runner = client.chat.completions.stream({ model: 'gpt-test', messages, tools,
      stream_options: { include_usage: true } });
    const argumentDeltas = [];
    runner.on('tool_calls.function.arguments.delta', (event) => argumentDeltas.push(event.arguments_delta));
    const final = await runner.finalChatCompletion();
    const choice = final.choices[0];
    eq(choice.finish_reason, 'tool_calls', 'streamed finish_reason');
    eq(choice.message.content, 'Let me look at that skill.', 'streamed content');
    eq(choice.message.tool_calls.map((c) => [c.id, c.function.name, c.function.arguments]),
      [['call_a', 'skill_view', args], ['call_b', 'skills_list', '{}']], 'streamed tool calls');
    check(argumentDeltas.length >= 4, `arguments arrived in ${argumentDeltas.length} deltas, expected several`);
    eq([final.usage?.prompt_tokens, final.usage?.completion_tokens], [50, 20], 'streamed usage');

    // The raw iterator: every chunk is a chat.completion.chunk, the last one
    // carries the usage with no choices, CRLF line ends and comments are fine.
    const raw = await client.chat.completions.create({ model: 'gpt-test', messages, stream: true,
      stream_options: { include_usage: true } });
    let text = '';
    const chunks = [];
    for await (const chunk of raw) {
      chunks.push(chunk);
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    check(chunks.every((c) => c.object === 'chat.completion.chunk'), 'every chunk is a chat.completion.chunk');
    eq(text, 'Plain streamed text.', 'raw streamed text');
    eq(chunks.at(-1).choices, [], 'the usage chunk has no choices');
    check(chunks.at(-1).usage?.total_tokens > 0, 'the usage chunk has a usage');
    eq(chunks.at(-2).choices[0].finish_reason, 'stop', 'the last choice chunk finishes');

    const sent = upstream.requests();
    eq(sent.map((r) => [r.body.stream, r.body.stream_options]),
      [[true, { include_usage: true }], [true, { include_usage: true }]], 'stream flags logged');
    log('streamed answer: tool-call deltas split across chunks and writes, usage chunk, CRLF, comments');
  } finally {
    await upstream.stop();
  }
}

async function retries(dir) {
  const upstream = await startUpstream(dir, [
    { type: 'error', status: 429, retry_after: '1',
      body: { error: { message: 'Rate limit reached for gpt-test', type: 'requests', param: null,
        code: 'rate_limit_exceeded' } } },
    { type: 'completion', content: 'after the wait' },
    { type: 'error', status: 400,
      body: { error: { message: "Invalid 'messages[0].role': 'robot'", type: 'invalid_request_error',
        param: 'messages[0].role', code: null } } },
  ]);
  try {
    const client = new OpenAI({ baseURL: upstream.baseURL, apiKey: 'sk-scripted', maxRetries: 2 });
    const started = Date.now();
    const reply = await client.chat.completions.create({ model: 'gpt-test', messages });
    const waited = Date.now() - started;
    eq(reply.choices[0].message.content, 'after the wait', 'content after the retry');
    check(waited >= 900, `the client retried after ${waited} ms, before the 1 s Retry-After`);
    eq(upstream.requests().length, 2, 'requests after the 429');

    let error = null;
    try {
      await client.chat.completions.create({ model: 'gpt-test', messages });
    } catch (caught) {
      error = caught;
    }
    check(error instanceof APIError, `a 400 is an APIError, got ${error}`);
    eq(error.status, 400, 'status of the APIError');
    check(error.message.includes("Invalid 'messages[0].role'"), `the APIError names the server's message: ${error.message}`);
    eq(upstream.requests().length, 3, 'a 400 is not retried');
    log(`429 with Retry-After: 1 retried after ${waited} ms; 400 surfaced with its message`);
  } finally {
    await upstream.stop();
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillrt-scripted-upstream-'));
try {
  for (const [name, run] of [['non-streaming', nonStreaming], ['streaming', streaming], ['retries', retries]]) {
    const sub = path.join(dir, name);
    fs.mkdirSync(sub);
    await run(sub);
  }
  process.stderr.write('the official openai client parsed every scripted shape\n');
} catch (error) {
  process.stderr.write(`FAILED: ${error instanceof CheckFailed ? error.message : error.stack}\n`);
  process.exitCode = 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
