// Shared pieces of the real-peer MCP tests: assertions, the skills home the
// tests serve, and the one walk through the whole MCP surface that both the
// stdio and the HTTP test run with the official TypeScript SDK client.
//
// Every check throws on the first mismatch with a message naming what was
// expected; the driver scripts print it and exit 1.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { McpError, ResultSchema, ResourceListChangedNotificationSchema,
  PromptListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from './sdk.mjs';

export const TOOL_NAMES = ['skill_manage', 'skill_view', 'skills_list', 'skills_match', 'skills_search'];
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

export class CheckFailed extends Error {}

export function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

export function eq(actual, expected, what) {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new CheckFailed(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

export function log(message) {
  process.stderr.write(`  - ${message}\n`);
}

// A JSON-RPC error from the server, as the SDK surfaces it: returns its code.
export async function rpcErrorCode(promise, what) {
  try {
    const value = await promise;
    throw new CheckFailed(`${what}: expected a JSON-RPC error, got ${JSON.stringify(value).slice(0, 300)}`);
  } catch (error) {
    if (error instanceof CheckFailed) throw error;
    check(error instanceof McpError, `${what}: expected an McpError, got ${error}`);
    return error.code;
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(predicate, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > deadline) throw new CheckFailed(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

export function sha256Digest(bytes) {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

// --- the skills home ---------------------------------------------------------

export function writeSkill(dir, name, description, body = `Steps of ${name}.`) {
  fs.mkdirSync(dir, { recursive: true });
  const text = `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${name}\n\n${body}\n`;
  fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
  return text;
}

// Files below `dir`, relative, '/'-separated, sorted.
export function filesUnder(dir) {
  const out = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk('');
  return out.sort();
}

// The home both tests serve: shared skills (one with a support file), one
// private skill for each of two users.
export function makeHome(home, users) {
  const shared = path.join(home, 'skills');
  writeSkill(path.join(shared, 'devops', 'deploy'), 'deploy',
    'Roll out the service to the kubernetes cluster', 'Run the checklist in references/checklist.md first.');
  fs.mkdirSync(path.join(shared, 'devops', 'deploy', 'references'), { recursive: true });
  fs.writeFileSync(path.join(shared, 'devops', 'deploy', 'references', 'checklist.md'),
    '# Checklist\n\n- tests are green\n- the changelog is written\n');
  writeSkill(path.join(shared, 'notes', 'journal'), 'journal', 'Keep a daily work journal');
  const own = {};
  for (const user of users) {
    const name = `${user}-tool`;
    const dir = path.join(home, 'users', user, 'skills', 'tools', name);
    writeSkill(dir, name, `Private helper of ${user}`);
    own[user] = { name, dir, uri: `skill://tools/${name}/SKILL.md` };
  }
  return {
    home,
    deploy: { dir: path.join(shared, 'devops', 'deploy'), uri: 'skill://devops/deploy/SKILL.md',
      fileUri: 'skill://devops/deploy/references/checklist.md' },
    own,
  };
}

// --- notifications -------------------------------------------------------------

// Counts the change notifications a client receives (reset between phases).
export function watchNotifications(client) {
  const seen = { resources: 0, prompts: 0, updated: [] };
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => { seen.resources += 1; });
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => { seen.prompts += 1; });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { seen.updated.push(n.params.uri); });
  seen.reset = () => { seen.resources = 0; seen.prompts = 0; seen.updated = []; };
  return seen;
}

// Waits until no notification arrived for `quietMs` (the watcher's debounce
// settles after the test's own writes), then resets the counters.
export async function settle(seen, quietMs = 1500, limitMs = 10000) {
  const deadline = Date.now() + limitMs;
  let last = -1;
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    const now = seen.resources + seen.prompts + seen.updated.length;
    if (now !== last) { last = now; stableSince = Date.now(); }
    if (Date.now() - stableSince >= quietMs) break;
    await sleep(50);
  }
  seen.reset();
}

// --- tool results ------------------------------------------------------------

// A tools/call result must carry the same JSON as text and as structuredContent.
export function toolJson(result, what) {
  check(Array.isArray(result.content) && result.content.length >= 1, `${what}: content is not a non-empty array`);
  eq(result.content[0].type, 'text', `${what}: content[0].type`);
  let parsed;
  try {
    parsed = JSON.parse(result.content[0].text);
  } catch {
    throw new CheckFailed(`${what}: content[0].text is not JSON: ${result.content[0].text.slice(0, 200)}`);
  }
  check(result.structuredContent && typeof result.structuredContent === 'object',
    `${what}: no structuredContent object`);
  eq(parsed, result.structuredContent, `${what}: text JSON vs structuredContent`);
  eq(Boolean(result.isError), parsed.success !== true, `${what}: isError vs success`);
  return parsed;
}

async function callOk(client, name, args, what) {
  const result = await client.callTool({ name, arguments: args });
  const json = toolJson(result, what);
  check(json.success === true, `${what}: expected success, got ${JSON.stringify(json).slice(0, 400)}`);
  return json;
}

async function callFails(client, name, args, what) {
  const result = await client.callTool({ name, arguments: args });
  const json = toolJson(result, what);
  eq(result.isError, true, `${what}: isError`);
  return json;
}

// --- the walk through the surface --------------------------------------------

export function checkCapabilities(client) {
  const caps = client.getServerCapabilities();
  check(caps, 'no server capabilities after initialize');
  eq(caps.prompts?.listChanged, true, 'capabilities.prompts.listChanged');
  eq(caps.resources?.listChanged, true, 'capabilities.resources.listChanged');
  eq(caps.resources?.subscribe, true, 'capabilities.resources.subscribe');
  check(caps.tools, 'capabilities.tools missing');
  check(caps.logging, 'capabilities.logging missing');
  check(caps.completions, 'capabilities.completions missing');
  check(caps.extensions?.[SKILLS_EXTENSION], `capabilities.extensions["${SKILLS_EXTENSION}"] missing`);
  const info = client.getServerVersion();
  check(info && typeof info.name === 'string' && info.name.length > 0, 'serverInfo.name missing');
  check(typeof info.version === 'string' && info.version.length > 0, 'serverInfo.version missing');
}

export async function checkTools(client) {
  const { tools } = await client.listTools();
  eq(tools.map((t) => t.name).sort(), TOOL_NAMES, 'tool names');
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  for (const tool of tools) {
    check(typeof tool.description === 'string' && tool.description.length > 0, `${tool.name}: no description`);
    eq(tool.inputSchema?.type, 'object', `${tool.name}: inputSchema.type`);
  }
  const props = (name) => Object.keys(byName[name].inputSchema.properties ?? {}).sort();
  const required = (name) => [...(byName[name].inputSchema.required ?? [])].sort();
  check(props('skills_list').includes('category'), 'skills_list has no category parameter');
  eq(required('skills_list'), [], 'skills_list required');
  check(props('skill_view').includes('name') && props('skill_view').includes('file_path'),
    `skill_view parameters: ${props('skill_view')}`);
  eq(required('skill_view'), ['name'], 'skill_view required');
  for (const p of ['action', 'name', 'content', 'old_string', 'new_string', 'file_path', 'file_content']) {
    check(props('skill_manage').includes(p), `skill_manage has no ${p} parameter`);
  }
  eq(required('skill_manage'), ['action', 'name'], 'skill_manage required');
  const actions = byName.skill_manage.inputSchema.properties.action.enum;
  check(Array.isArray(actions), 'skill_manage.action has no enum');
  for (const a of ['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file']) {
    check(actions.includes(a), `skill_manage.action enum lacks ${a}`);
  }
  check(props('skills_search').includes('query') && props('skills_search').includes('limit'),
    `skills_search parameters: ${props('skills_search')}`);
  eq(required('skills_search'), ['query'], 'skills_search required');
  eq(props('skills_match'), ['limit', 'message', 'paths'], 'skills_match parameters');
  eq(required('skills_match'), ['message'], 'skills_match required');
  eq(byName.skills_match.inputSchema.properties.paths.type, 'array', 'skills_match.paths type');
  log('tools/list: the five tools with input schemas');
}

// Calls every tool as `user` (who owns fx.own[user]).
export async function checkToolCalls(client, fx, user) {
  const mine = fx.own[user];
  const listed = await callOk(client, 'skills_list', {}, 'skills_list');
  const names = listed.skills.map((s) => s.name);
  for (const n of ['deploy', 'journal', mine.name]) check(names.includes(n), `skills_list lacks ${n}: ${names}`);
  for (const other of Object.values(fx.own)) {
    if (other !== mine) check(!names.includes(other.name), `skills_list shows another user's ${other.name}`);
  }
  const devops = await callOk(client, 'skills_list', { category: 'devops' }, 'skills_list(category)');
  eq(devops.skills.map((s) => s.name), ['deploy'], 'skills_list(category=devops)');

  const viewed = await callOk(client, 'skill_view', { name: 'deploy' }, 'skill_view');
  eq(viewed.name, 'deploy', 'skill_view name');
  eq(viewed.content, fs.readFileSync(path.join(fx.deploy.dir, 'SKILL.md'), 'utf8'), 'skill_view content');
  const file = await callOk(client, 'skill_view', { name: 'deploy', file_path: 'references/checklist.md' },
    'skill_view(file_path)');
  eq(file.content, fs.readFileSync(path.join(fx.deploy.dir, 'references', 'checklist.md'), 'utf8'),
    'support file content');
  await callFails(client, 'skill_view', { name: 'no-such-skill' }, 'skill_view of a missing skill');
  await callFails(client, 'skill_view', { name: 42 }, 'skill_view with a number for name');
  eq(await rpcErrorCode(client.callTool({ name: 'no_such_tool', arguments: {} }), 'unknown tool'), -32602,
    'unknown tool error code');

  // create → patch → delete of a skill in the caller's own layer.
  const userSkills = path.join(fx.home, 'users', user, 'skills');
  const made = await callOk(client, 'skill_manage', {
    action: 'create', name: 'sdk-made',
    content: '---\nname: sdk-made\ndescription: Made through MCP\n---\n\n# sdk-made\n\nOriginal body.\n',
  }, 'skill_manage create');
  const madePath = path.join(userSkills, 'sdk-made', 'SKILL.md');
  check(fs.existsSync(madePath), `skill_manage create did not write ${madePath} (result ${JSON.stringify(made)})`);
  await callOk(client, 'skill_manage', {
    action: 'patch', name: 'sdk-made', old_string: 'Original body.', new_string: 'Patched body.',
  }, 'skill_manage patch');
  check(fs.readFileSync(madePath, 'utf8').includes('Patched body.'), 'the patch did not reach the file');
  const reread = await callOk(client, 'skill_view', { name: 'sdk-made' }, 'skill_view after patch');
  check(reread.content.includes('Patched body.'), 'skill_view does not show the patch');
  await callOk(client, 'skill_manage', { action: 'delete', name: 'sdk-made' }, 'skill_manage delete');
  check(!fs.existsSync(path.dirname(madePath)), 'skill_manage delete left the skill directory');
  await callFails(client, 'skill_view', { name: 'sdk-made' }, 'skill_view after delete');

  const found = await callOk(client, 'skills_search', { query: 'kubernetes' }, 'skills_search');
  check(Array.isArray(found.results) && found.results.length >= 1, 'skills_search found nothing');
  eq(found.results[0].name, 'deploy', 'skills_search best hit');
  const limited = await callOk(client, 'skills_search', { query: 'helper', limit: 1 }, 'skills_search(limit)');
  check(limited.results.length <= 1, 'skills_search ignores limit');
  const matched = await callOk(client, 'skills_match', { message: 'please use the deploy skill now' }, 'skills_match');
  eq(matched.results.map((r) => r.name), ['deploy'], 'skills_match fired');
  eq(matched.results[0].reasons[0].kind, 'name', 'skills_match reason');
  const quiet = await callOk(client, 'skills_match', { message: 'what is the weather like' }, 'skills_match(off-topic)');
  eq(quiet.count, 0, 'skills_match on an off-topic message');
  log('tools/call: skills_list, skill_view (+file), skill_manage create/patch/delete, skills_search, skills_match');
}

export async function checkPrompts(client, fx, user) {
  const { prompts } = await client.listPrompts();
  const names = prompts.map((p) => p.name);
  for (const n of ['deploy', 'journal', fx.own[user].name]) check(names.includes(n), `prompts/list lacks ${n}: ${names}`);
  for (const other of Object.values(fx.own)) {
    if (other !== fx.own[user]) check(!names.includes(other.name), `prompts/list shows another user's ${other.name}`);
  }
  const deploy = prompts.find((p) => p.name === 'deploy');
  check(typeof deploy.description === 'string' && deploy.description.length > 0, 'prompt deploy: no description');
  check((deploy.arguments ?? []).some((a) => a.name === 'instruction'), 'prompt deploy has no instruction argument');
  const got = await client.getPrompt({ name: 'deploy', arguments: { instruction: 'ship build 42 to staging' } });
  eq(got.messages.length, 1, 'prompts/get message count');
  eq(got.messages[0].role, 'user', 'prompts/get role');
  eq(got.messages[0].content.type, 'text', 'prompts/get content type');
  const text = got.messages[0].content.text;
  check(text.includes('ship build 42 to staging'), 'the invocation message lacks the instruction');
  check(text.includes('"deploy"'), 'the invocation message does not name the skill');
  check(text.includes('Run the checklist in references/checklist.md first.'), 'the invocation message lacks the body');
  const code = await rpcErrorCode(client.getPrompt({ name: 'no-such-prompt', arguments: {} }), 'unknown prompt');
  eq(code, -32602, 'prompts/get of an unknown prompt');
  const completion = await client.complete({
    ref: { type: 'ref/prompt', name: 'deploy' }, argument: { name: 'instruction', value: '' },
  });
  check(Array.isArray(completion.completion?.values), 'completion/complete: no values array');
  log('prompts: list, get with an instruction, completion');
}

export async function checkResources(client, fx, user) {
  const { resources } = await client.listResources();
  const byUri = Object.fromEntries(resources.map((r) => [r.uri, r]));
  const skillMd = byUri[fx.deploy.uri];
  check(skillMd, `resources/list lacks ${fx.deploy.uri}`);
  eq(skillMd.mimeType, 'text/markdown', 'SKILL.md mimeType');
  eq(skillMd.name, 'deploy', 'SKILL.md resource name');
  check(byUri[fx.deploy.fileUri], `resources/list lacks ${fx.deploy.fileUri}`);
  check(byUri[fx.own[user].uri], `resources/list lacks the user's own ${fx.own[user].uri}`);
  for (const other of Object.values(fx.own)) {
    if (other !== fx.own[user]) check(!byUri[other.uri], `resources/list shows another user's ${other.uri}`);
  }
  for (const r of resources) {
    check(r.uri.startsWith('skill://'), `resource outside skill://: ${r.uri}`);
    check(typeof r.name === 'string' && r.name.length > 0, `resource without a name: ${r.uri}`);
  }
  const { resourceTemplates } = await client.listResourceTemplates();
  check(resourceTemplates.length >= 1, 'resources/templates/list is empty');
  for (const t of resourceTemplates) {
    check(t.uriTemplate.startsWith('skill://'), `template outside skill://: ${t.uriTemplate}`);
  }

  const read = await client.readResource({ uri: fx.deploy.uri });
  eq(read.contents.length, 1, 'resources/read content count');
  eq(read.contents[0].uri, fx.deploy.uri, 'resources/read uri');
  eq(read.contents[0].text, fs.readFileSync(path.join(fx.deploy.dir, 'SKILL.md'), 'utf8'), 'SKILL.md resource text');
  const support = await client.readResource({ uri: fx.deploy.fileUri });
  eq(support.contents[0].text, fs.readFileSync(path.join(fx.deploy.dir, 'references', 'checklist.md'), 'utf8'),
    'support file resource text');
  eq(await rpcErrorCode(client.readResource({ uri: 'skill://no/such/SKILL.md' }), 'unknown resource'), -32002,
    'resources/read of an unknown URI');
  log('resources: list, templates, read of SKILL.md and a support file');
}

// The skills extension: digests and sizes must match the bytes on disk.
export async function checkSkillsExtension(client, fx, user) {
  const listed = await client.request({ method: 'skills/list', params: {} }, ResultSchema);
  check(Array.isArray(listed.skills), 'skills/list: no skills array');
  for (const s of listed.skills) {
    const segments = s.uri.replace(/^skill:\/\//, '').split('/');
    eq(segments.at(-1), 'SKILL.md', `skills/list entry uri ${s.uri}`);
    eq(segments.at(-2), s.frontmatter?.name, `last skill-path segment of ${s.uri} vs frontmatter.name`);
    check(typeof s.frontmatter.description === 'string', `${s.uri}: frontmatter.description missing`);
    check(Array.isArray(s.resources), `${s.uri}: resources is not a manifest array`);
    for (const r of s.resources) check(/^sha256:[0-9a-f]{64}$/.test(r.digest), `${r.uri}: bad digest ${r.digest}`);
  }
  const entry = listed.skills.find((s) => s.uri === fx.deploy.uri);
  check(entry, `skills/list lacks ${fx.deploy.uri}`);
  eq(entry.frontmatter.name, 'deploy', 'frontmatter.name');
  eq(entry.frontmatter.description, 'Roll out the service to the kubernetes cluster', 'frontmatter.description');
  check(listed.skills.some((s) => s.uri === fx.own[user].uri), `skills/list lacks the user's own ${fx.own[user].uri}`);
  for (const other of Object.values(fx.own)) {
    if (other !== fx.own[user]) check(!listed.skills.some((s) => s.uri === other.uri), `skills/list shows ${other.uri}`);
  }
  // Every entry: a complete manifest whose digests and sizes are those of the
  // bytes on disk (the user's layer first, as resolution does, then shared).
  const roots = [path.join(fx.home, 'users', user, 'skills'), path.join(fx.home, 'skills')];
  for (const skill of listed.skills) {
    const skillPath = skill.uri.slice('skill://'.length, -'/SKILL.md'.length);
    const dir = roots.map((r) => path.join(r, skillPath)).find((d) => fs.existsSync(path.join(d, 'SKILL.md')));
    check(dir, `no folder on disk for ${skill.uri}`);
    eq(skill.resources.map((r) => r.uri).sort(), filesUnder(dir).map((f) => `skill://${skillPath}/${f}`).sort(),
      `manifest of ${skill.uri} (complete, one entry per file)`);
    for (const r of skill.resources) {
      const bytes = fs.readFileSync(path.join(dir, r.uri.slice(`skill://${skillPath}/`.length)));
      eq(r.digest, sha256Digest(bytes), `digest of ${r.uri}`);
      eq(r.size, bytes.length, `size of ${r.uri}`);
    }
  }
  const got = await client.request({ method: 'skills/get', params: { uri: fx.deploy.uri } }, ResultSchema);
  eq(got.skill, entry, 'skills/get entry vs skills/list entry');
  eq(await rpcErrorCode(client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } },
    ResultSchema), 'skills/get of an unknown skill'), -32602, 'skills/get unknown uri');
  log('skills extension: skills/list + skills/get, digests and sizes match the files');
}

export async function checkUtilities(client) {
  eq(await client.ping(), {}, 'ping result');
  eq(await client.setLoggingLevel('warning'), {}, 'logging/setLevel result');
}

// A new SKILL.md written straight into `skillsDir` must bring both list_changed
// notifications within 10 s, and the new skill must then be listed.
export async function checkChangeNotifications(client, seen, skillsDir, name) {
  await settle(seen);
  writeSkill(path.join(skillsDir, name), name, `Written on disk by the test (${name})`);
  await waitFor(() => seen.resources > 0 && seen.prompts > 0, 10000,
    'notifications/resources/list_changed and notifications/prompts/list_changed');
  const { resources } = await client.listResources();
  check(resources.some((r) => r.uri === `skill://${name}/SKILL.md`), `resources/list lacks the new ${name}`);
  const { prompts } = await client.listPrompts();
  check(prompts.some((p) => p.name === name), `prompts/list lacks the new ${name}`);
  log(`list_changed after writing ${name}/SKILL.md, and it is listed without a restart`);
}

// Reading changes nothing on disk that a client can see, so reads must not
// bring list_changed: a client that re-lists on every list_changed (as MCP
// clients do) would otherwise loop forever.
export async function checkReadsAreQuiet(client, seen, fx) {
  await settle(seen);
  await client.listPrompts();
  await client.listResources();
  await client.readResource({ uri: fx.deploy.uri });
  await client.request({ method: 'skills/list', params: {} }, ResultSchema);
  await client.callTool({ name: 'skills_list', arguments: {} });
  await client.callTool({ name: 'skill_view', arguments: { name: 'deploy' } });
  await client.callTool({ name: 'skills_search', arguments: { query: 'kubernetes' } });
  await sleep(2000);
  eq({ resources: seen.resources, prompts: seen.prompts, updated: seen.updated },
    { resources: 0, prompts: 0, updated: [] }, 'notifications caused by read-only requests');
  log('read-only requests bring no notifications');
}

// --- processes ---------------------------------------------------------------

// Every skillrt process a test starts is killed when node exits, however it
// exits (a failed check, `timeout` sending SIGTERM): none may outlive the test.
const children = new Set();
function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}
process.on('exit', () => { for (const child of children) child.kill('SIGKILL'); });
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    process.stderr.write(`FAIL: interrupted by ${signal}\n`);
    process.exit(1);
  });
}
export { track as trackChild };

const SANITIZER_REPORT = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:/;

export function checkNoSanitizerReport(stderr, what) {
  check(!SANITIZER_REPORT.test(stderr), `${what}: a sanitizer reported an error:\n${stderr.slice(-4000)}`);
}

// Runs the binary to completion; returns {code, stdout, stderr}.
export function runSkillrt(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.env.SKILLRT_BIN, args, { env: process.env, ...options }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

export async function createToken(home, user, org, label) {
  const run = await runSkillrt(['--home', home, '--user', user, '--org', org, '--json', 'token', 'create', '--label', label]);
  check(run.code === 0, `token create for ${user} exited ${run.code}: ${run.stdout} ${run.stderr}`);
  const json = JSON.parse(run.stdout);
  check(typeof json.bearer === 'string' && json.bearer.length >= 20, `token create printed no bearer: ${run.stdout}`);
  return { bearer: json.bearer, id: json.token.id };
}

// Starts `skillrt serve` and waits for its "listening http://HOST:PORT/mcp" line.
export async function startServe(args) {
  const child = track(spawn(process.env.SKILLRT_BIN, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const proc = { child, stderr: '', stdout: '', exit: null };
  child.stderr.on('data', (d) => { proc.stderr += d; });
  proc.exited = new Promise((resolve) => child.on('exit', (code, signal) => { proc.exit = { code, signal }; resolve(); }));
  proc.url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new CheckFailed(`serve printed no listening line in 20 s; stderr: ${proc.stderr}`)), 20000);
    child.stdout.on('data', (d) => {
      proc.stdout += d;
      const m = /^listening (http:\/\/[^\s]+\/mcp)\n/m.exec(proc.stdout);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new CheckFailed(`serve exited ${code} before listening; stderr: ${proc.stderr}`)); });
  });
  proc.stop = async () => {
    if (proc.exit) return proc.exit;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
    await proc.exited;
    clearTimeout(timer);
    return proc.exit;
  };
  return proc;
}

// Runs `body`, prints a failure (and `diagnostics()`) and exits 1 on any
// error; always runs `cleanup`.
export async function main(name, body, cleanup = async () => {}, diagnostics = () => '') {
  let failed = null;
  try {
    await body();
  } catch (error) {
    failed = error;
  }
  try {
    await cleanup();
  } catch (error) {
    failed ??= error;
  }
  if (failed) {
    const detail = failed instanceof CheckFailed ? failed.message : (failed.stack ?? String(failed));
    process.stderr.write(`FAIL [${name}]: ${detail}\n${diagnostics()}\n`);
    process.exit(1);
  }
  process.stderr.write(`PASS [${name}]\n`);
  process.exit(0);
}
