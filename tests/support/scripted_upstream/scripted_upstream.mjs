// A stand-in for an OpenAI-compatible chat-completions server, for tests.
// It answers POST /v1/chat/completions from a script, one step per request,
// in OpenAI's exact wire format (check_with_openai_client.mjs proves that
// with the official `openai` client), and records every request it received
// so a test can assert what the client under test sent.
//
//   node scripted_upstream.mjs --script SCRIPT.json --log REQUESTS.jsonl [--exit-with-stdin]
//
// It listens on 127.0.0.1 with a port the kernel picks and prints that port
// alone on a line of stdout once it is listening. With --exit-with-stdin it
// exits when its stdin closes (the test that started it is gone).
//
// The script is {"model": "...", "steps": [STEP, ...]} or just [STEP, ...].
// Every step may carry "delay_ms" (wait before answering: timeouts and
// cancellation) and "times" (answer that many requests, default 1). Steps:
//
//   {"type": "completion", "content": "text" | null,
//    "tool_calls": [{"id": "call_1", "name": "skill_view", "arguments": "{...}"}],
//    "finish_reason": "stop" | "tool_calls" | ...   (default: by tool_calls),
//    "usage": {"prompt_tokens": 12, "completion_tokens": 3},
//    "stream_options": {"content_piece_chars": 4, "argument_pieces": 3,
//                       "line_ending": "\n" | "\r\n", "comments": true,
//                       "write_piece_bytes": 7}}   (body written in pieces this big)
//      A normal answer: a chat.completion object, or chat.completion.chunk
//      events when the request asked for "stream": true.
//   {"type": "stream", ...}        the same, streamed whatever the request asked
//   {"type": "error", "status": 429, "retry_after": "1", "headers": {...},
//    "body": {"error": {...}} | "raw text"}
//      An HTTP error (default body: an OpenAI error object).
//   {"type": "delay", "ms": 5000, "then": STEP}
//      Waits, then answers with `then` (default: a short completion).
//   {"type": "malformed", "status": 200, "body": "..."}
//      A body that is not JSON (default: a reply cut in the middle).
//   {"type": "raw", "status": 200, "headers": {...}, "body": "..."}
//      Exactly these bytes.
//
// A request past the last step gets a 500 naming the request's number.
// GET /v1/models lists the script's model. The log has one JSON line per
// request, written before it is answered: {"seq", "method", "path",
// "headers": {authorization, content-type, accept, user-agent}, "body"
// (the parsed JSON; "raw" instead when it was not JSON), "step"}.
import fs from 'node:fs';
import http from 'node:http';

const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

function usage(message) {
  process.stderr.write(`scripted_upstream: ${message}\n` +
    'usage: node scripted_upstream.mjs --script SCRIPT.json --log REQUESTS.jsonl [--exit-with-stdin]\n');
  process.exit(2);
}

function parseArguments(argv) {
  const options = { script: null, log: null, exitWithStdin: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--script' || arg === '--log') {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      options[arg.slice(2)] = argv[++i];
    } else if (arg === '--exit-with-stdin') {
      options.exitWithStdin = true;
    } else {
      usage(`unknown argument ${arg}`);
    }
  }
  if (!options.script || !options.log) usage('--script and --log are required');
  return options;
}

// The script's steps, each repeated "times" times, in the order they answer.
function loadScript(file) {
  const script = JSON.parse(fs.readFileSync(file, 'utf8'));
  const steps = Array.isArray(script) ? script : script.steps;
  if (!Array.isArray(steps)) throw new Error(`${file}: expected an array of steps or {"steps": [...]}`);
  const queue = [];
  steps.forEach((step, index) => {
    if (step === null || typeof step !== 'object' || typeof step.type !== 'string') {
      throw new Error(`${file}: step ${index} has no "type"`);
    }
    const times = step.times ?? 1;
    for (let n = 0; n < times; n++) queue.push({ step, index });
  });
  return { model: (!Array.isArray(script) && script.model) || 'scripted-model', queue };
}

const options = parseArguments(process.argv.slice(2));
const script = loadScript(options.script);
fs.writeFileSync(options.log, '');

let sequence = 0;
let next = 0;
const created = Math.floor(Date.now() / 1000);

function record(entry) {
  fs.appendFileSync(options.log, `${JSON.stringify(entry)}\n`);
}

function send(res, status, headers, body) {
  if (res.destroyed || res.writableEnded) return; // the client went away (timeout, cancellation)
  res.writeHead(status, { 'x-request-id': `req_scripted_${sequence}`, ...headers });
  res.end(body);
}

function sendJson(res, status, value, headers = {}) {
  send(res, status, { 'content-type': 'application/json', ...headers }, JSON.stringify(value));
}

function errorObject(message, type = 'invalid_request_error', code = null) {
  return { error: { message, type, param: null, code } };
}

const estimate = (text) => Math.max(1, Math.ceil(text.length / 4));

function usageOf(step, request, rawLength) {
  const answered = (step.content ?? '') + (step.tool_calls ?? []).map((c) => c.name + (c.arguments ?? '')).join('');
  const prompt = step.usage?.prompt_tokens ?? Math.max(1, Math.ceil(rawLength / 4));
  const completion = step.usage?.completion_tokens ?? estimate(answered);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: step.usage?.total_tokens ?? prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0,
    },
  };
}

function toolCallsOf(step) {
  return (step.tool_calls ?? []).map((call, i) => ({
    id: call.id ?? `call_scripted_${sequence}_${i}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments ?? '{}' },
  }));
}

function finishReasonOf(step) {
  if (step.finish_reason !== undefined) return step.finish_reason;
  return (step.tool_calls ?? []).length > 0 ? 'tool_calls' : 'stop';
}

function modelOf(request) {
  return typeof request?.model === 'string' && request.model !== '' ? request.model : script.model;
}

function completion(res, step, request, rawLength) {
  const toolCalls = toolCallsOf(step);
  const message = { role: 'assistant', content: step.content === undefined ? null : step.content, refusal: null,
    annotations: [] };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  sendJson(res, 200, {
    id: `chatcmpl-scripted-${sequence}`,
    object: 'chat.completion',
    created,
    model: modelOf(request),
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(step) }],
    usage: usageOf(step, request, rawLength),
    service_tier: 'default',
    system_fingerprint: 'fp_scripted',
  });
}

function pieces(text, count) {
  if (text.length === 0 || count <= 1) return [text];
  const size = Math.ceil(text.length / count);
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

// The answer as OpenAI streams it: a first chunk with the role, content in
// pieces, each tool call as a first delta (id, type, name, empty arguments)
// and its arguments in pieces, a last delta with the finish reason, the usage
// chunk (choices empty) when the request asked for it, then [DONE].
function stream(res, step, request, rawLength) {
  const settings = step.stream_options ?? {};
  const eol = settings.line_ending ?? '\n';
  const includeUsage = request?.stream_options?.include_usage === true;
  const id = `chatcmpl-scripted-${sequence}`;
  const model = modelOf(request);
  const events = [];
  const chunk = (delta, finishReason = null) => {
    const value = { id, object: 'chat.completion.chunk', created, model, service_tier: 'default',
      system_fingerprint: 'fp_scripted', choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] };
    if (includeUsage) value.usage = null;
    events.push(value);
  };
  const toolCalls = toolCallsOf(step);
  const content = step.content ?? null;
  chunk({ role: 'assistant', content: toolCalls.length > 0 && content === null ? null : '', refusal: null });
  if (content !== null && content !== '') {
    const size = settings.content_piece_chars ?? 4;
    for (let i = 0; i < content.length; i += size) chunk({ content: content.slice(i, i + size) });
  }
  toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name,
      arguments: '' } }] });
    for (const piece of pieces(call.function.arguments, settings.argument_pieces ?? 3)) {
      if (piece !== '') chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  chunk({}, finishReasonOf(step));
  if (includeUsage) {
    events.push({ id, object: 'chat.completion.chunk', created, model, service_tier: 'default',
      system_fingerprint: 'fp_scripted', choices: [], usage: usageOf(step, request, rawLength) });
  }
  let body = '';
  if (settings.comments) body += `: scripted upstream${eol}${eol}`;
  for (const event of events) body += `data: ${JSON.stringify(event)}${eol}${eol}`;
  body += `data: [DONE]${eol}${eol}`;
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache',
    'x-request-id': `req_scripted_${sequence}` });
  // Written in small pieces, so a reader meets events cut anywhere.
  const piece = settings.write_piece_bytes ?? 0;
  if (piece > 0) {
    const bytes = Buffer.from(body, 'utf8');
    for (let i = 0; i < bytes.length; i += piece) res.write(bytes.subarray(i, i + piece));
    res.end();
  } else {
    res.end(body);
  }
}

function answer(res, step, request, rawLength) {
  switch (step.type) {
    case 'completion':
      if (request?.stream === true) return stream(res, step, request, rawLength);
      return completion(res, step, request, rawLength);
    case 'stream':
      return stream(res, step, request, rawLength);
    case 'error': {
      const headers = { ...(step.headers ?? {}) };
      if (step.retry_after !== undefined) headers['retry-after'] = String(step.retry_after);
      const body = step.body ?? errorObject(`scripted error ${step.status ?? 500}`,
        (step.status ?? 500) === 429 ? 'rate_limit_error' : 'server_error');
      if (typeof body === 'string') return send(res, step.status ?? 500, { 'content-type': 'text/plain', ...headers }, body);
      return sendJson(res, step.status ?? 500, body, headers);
    }
    case 'delay': {
      const then = step.then ?? { type: 'completion', content: 'delayed answer' };
      return later(res, step.ms ?? 0, () => answer(res, then, request, rawLength));
    }
    case 'malformed':
      return send(res, step.status ?? 200, { 'content-type': 'application/json' },
        step.body ?? '{"id":"chatcmpl-cut","object":"chat.completion","choices":[{"index":0,"message":{"role":"assi');
    case 'raw':
      return send(res, step.status ?? 200, step.headers ?? {}, step.body ?? '');
    default:
      return sendJson(res, 500, errorObject(`scripted upstream: unknown step type ${JSON.stringify(step.type)}`,
        'server_error'));
  }
}

function later(res, ms, then) {
  if (ms <= 0) return then();
  const timer = setTimeout(then, ms);
  res.on('close', () => clearTimeout(timer));
}

function handle(req, res, raw) {
  const path = new URL(req.url, 'http://127.0.0.1').pathname;
  const entry = {
    seq: ++sequence,
    method: req.method,
    path,
    headers: {
      authorization: req.headers.authorization ?? null,
      'content-type': req.headers['content-type'] ?? null,
      accept: req.headers.accept ?? null,
      'user-agent': req.headers['user-agent'] ?? null,
    },
  };
  if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
    record(entry);
    return sendJson(res, 200, { object: 'list', data: [{ id: script.model, object: 'model', created,
      owned_by: 'skillrt-tests' }] });
  }
  if (req.method !== 'POST' || !(path === '/v1/chat/completions' || path === '/chat/completions')) {
    record(entry);
    return sendJson(res, 404, errorObject(`scripted upstream: no route ${req.method} ${path}`));
  }
  let request = null;
  try {
    request = JSON.parse(raw.toString('utf8'));
    entry.body = request;
  } catch {
    entry.raw = raw.toString('utf8');
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    entry.step = null;
    record(entry);
    return sendJson(res, 400, errorObject('We could not parse the JSON body of your request.'));
  }
  if (next >= script.queue.length) {
    entry.step = null;
    record(entry);
    return sendJson(res, 500, errorObject(`scripted upstream: no step left for request ${entry.seq} ` +
      `(the script answers ${script.queue.length})`, 'server_error'));
  }
  const { step, index } = script.queue[next++];
  entry.step = index;
  record(entry);
  later(res, step.delay_ms ?? 0, () => answer(res, step, request, raw.length));
}

const server = http.createServer((req, res) => {
  res.on('error', () => {});
  req.on('error', () => {});
  const parts = [];
  let size = 0;
  req.on('data', (part) => {
    size += part.length;
    if (size > MAX_REQUEST_BYTES) {
      sendJson(res, 413, errorObject('request body too large'));
      req.destroy();
      return;
    }
    parts.push(part);
  });
  req.on('end', () => {
    if (size <= MAX_REQUEST_BYTES) handle(req, res, Buffer.concat(parts));
  });
});
server.on('clientError', (error, socket) => socket.destroy());
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});

if (options.exitWithStdin) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('close', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
}
process.on('SIGTERM', () => process.exit(0));
