// The official TypeScript SDK client against `skillrt mcp` over stdio: it
// spawns `skillrt --home H --user alice --org acme mcp` with
// StdioClientTransport and walks the whole surface: initialize, the four
// tools, prompts, resources, the skills extension, and list_changed after a
// SKILL.md is written into the home on disk. The server must exit 0 on EOF.
//
//   node sdk_stdio.mjs WORK_DIR        (SKILLRT_BIN names the binary)
import fs from 'node:fs';
import path from 'node:path';

import { Client, StdioClientTransport } from './sdk.mjs';

import {
  check, eq, log, main, makeHome, watchNotifications, checkCapabilities, checkTools, checkToolCalls,
  checkPrompts, checkResources, checkSkillsExtension, checkUtilities, checkChangeNotifications,
  checkNoSanitizerReport, checkReadsAreQuiet, settle, sleep, waitFor, trackChild,
} from './lib.mjs';

const work = process.argv[2];
check(work && process.env.SKILLRT_BIN, 'usage: SKILLRT_BIN=... node sdk_stdio.mjs WORK_DIR');
const home = path.join(work, 'home');
const fx = makeHome(home, ['alice', 'bob']);

let transport;
let client;
let child;
let stderr = '';
let exit = null;

await main('sdk_stdio', async () => {
  transport = new StdioClientTransport({
    command: process.env.SKILLRT_BIN,
    args: ['--home', home, '--user', 'alice', '--org', 'acme', 'mcp'],
    env: { ...process.env },
    stderr: 'pipe',
  });
  transport.stderr.on('data', (d) => { stderr += d; });
  client = new Client({ name: 'skillrt-e2e-stdio', version: '1.0.0' });
  const seen = watchNotifications(client);
  await client.connect(transport);
  // The SDK hides the child process; keep it to check the exit status on EOF.
  child = transport._process;
  check(child, 'StdioClientTransport exposes no child process');
  trackChild(child);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => { exit = { code, signal }; resolve(); }));
  log('initialize over stdio');

  checkCapabilities(client);
  await checkUtilities(client);
  await checkTools(client);
  await checkToolCalls(client, fx, 'alice');
  await checkPrompts(client, fx, 'alice');
  await checkResources(client, fx, 'alice');
  await checkSkillsExtension(client, fx, 'alice');

  // A subscribed resource reports its own update.
  await client.subscribeResource({ uri: 'skill://notes/journal/SKILL.md' });
  await settle(seen);
  const journal = path.join(home, 'skills', 'notes', 'journal', 'SKILL.md');
  fs.appendFileSync(journal, '\nOne more line.\n');
  await waitFor(() => seen.updated.includes('skill://notes/journal/SKILL.md'), 10000,
    'notifications/resources/updated for the subscribed journal SKILL.md');
  await client.unsubscribeResource({ uri: 'skill://notes/journal/SKILL.md' });
  await settle(seen);
  fs.appendFileSync(journal, '\nAnd another.\n');
  await waitFor(() => seen.resources > 0, 10000, 'list_changed after the journal changed again');
  await sleep(1000);
  eq(seen.updated, [], 'resources/updated after unsubscribing');
  log('resources/subscribe: resources/updated after the file changed; none after unsubscribe');

  // A new skill in the user's own layer and one in the shared layer.
  await checkChangeNotifications(client, seen, path.join(home, 'users', 'alice', 'skills'), 'fresh-mine');
  await checkChangeNotifications(client, seen, path.join(home, 'skills'), 'fresh-shared');

  await checkReadsAreQuiet(client, seen, fx);

  // EOF on stdin: the server must exit 0 by itself (the SDK waits 2 s before SIGTERM).
  await client.close();
  client = undefined;
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  check(exit, 'skillrt mcp did not exit after EOF');
  eq(exit, { code: 0, signal: null }, 'exit status of skillrt mcp after EOF');
  checkNoSanitizerReport(stderr, 'skillrt mcp');
  log('EOF: exit 0');
}, async () => {
  if (client) await client.close();
  if (child && child.exitCode === null) child.kill('SIGKILL');
}, () => `--- skillrt mcp stderr (tail):\n${stderr.slice(-4000)}`);
