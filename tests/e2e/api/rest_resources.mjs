// The REST API of `skillrt serve` (/api/v1), driven with fetch and every
// answer checked against the served OpenAPI document (openapi_check.mjs).
// tests/e2e/api_rest_resources.sh sets up the home and runs it.
//
// Environment: API_URL (http://127.0.0.1:PORT/api/v1), OPENAPI_FILE (the
// document in the tree), ALICE and BOB (org1 users' tokens), OWNER (an owner
// organisation token), PROPOSAL_ID (alice's pending proposal, an edit of her
// skill "staged-skill").
import { ApiClient, CheckFailed, check, loadDocument, log } from './openapi_check.mjs';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const apiUrl = env('API_URL');
const alice = env('ALICE');
const bob = env('BOB');
const owner = env('OWNER');
const proposalId = env('PROPOSAL_ID');

const skillMd = (name, description, body = 'Steps.\n') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${body}`;

async function main() {
  const doc = await loadDocument(apiUrl, env('OPENAPI_FILE'));
  const api = new ApiClient(apiUrl, doc);
  log('the served document is valid OpenAPI 3.1 and equals src/api/openapi.json');

  // --- refusals before any route ---
  let r = await api.call('GET', '/api/v1/skills');
  check(r.status === 401 && r.body.success === false, `no token: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills', { token: 'skrt_nope_nope' });
  check(r.status === 401, `a made-up token: ${r.status}`);
  r = await api.call('GET', '/api/v1/nothing-here', { token: alice });
  check(r.status === 404, `unknown route: ${r.status}`);
  log('no token, a bad token and an unknown route are refused');

  // --- listing and paging ---
  r = await api.call('GET', '/api/v1/skills', { token: alice });
  check(r.status === 200, `list: ${r.status}`);
  const total = r.body.total;
  check(total >= 3, `alice sees the three shared skills: total ${total}`);
  check(r.body.skills.some((s) => s.name === 'rotate-logs' && s.layer === 'shared' && s.category === 'ops'),
    'rotate-logs is listed as a shared ops skill');
  const pages = [];
  for (let offset = 0; offset !== null;) {
    const page = await api.call('GET', `/api/v1/skills?limit=2&offset=${offset}`, { token: alice });
    check(page.status === 200 && page.body.count <= 2, `page at ${offset}: ${page.status}`);
    pages.push(...page.body.skills.map((s) => `${s.layer}:${s.name}`));
    offset = page.body.next_offset;
  }
  check(pages.length === total && new Set(pages).size === total, `paging saw ${pages.length} of ${total}, each once`);
  r = await api.call('GET', `/api/v1/skills?offset=${total + 5}`, { token: alice });
  check(r.status === 200 && r.body.count === 0 && r.body.next_offset === null, 'a page past the end is empty');
  r = await api.call('GET', '/api/v1/skills?limit=501', { token: alice });
  check(r.status === 400, `limit over 500: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills?limit=2&limit=3', { token: alice });
  check(r.status === 400, `a parameter given twice: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills?layer=everything', { token: alice });
  check(r.status === 400, `an unknown layer: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills?category=ops', { token: alice });
  check(r.body.skills.every((s) => s.category === 'ops') && r.body.total >= 1, 'the category filter');
  log('listing, paging (every skill once), filters and bad parameters');

  // --- a person's writes in alice's own layer ---
  r = await api.call('POST', '/api/v1/skills',
    { token: alice, body: { name: 'api-demo', category: 'tools', content: skillMd('api-demo', 'Demo of the REST API') } });
  check(r.status === 201 && r.body.success === true, `create: ${r.status} ${JSON.stringify(r.body)}`);
  r = await api.call('POST', '/api/v1/skills',
    { token: alice, body: { name: 'api-demo', content: skillMd('api-demo', 'Again') } });
  check(r.status >= 400 && r.status < 500 && r.body.success === false, `create twice: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills/api-demo', { token: alice });
  check(r.status === 200 && r.body.content.includes('Demo of the REST API'), `view: ${r.status}`);
  check(r.body.provenance && r.body.provenance.kind === 'user', `provenance: ${JSON.stringify(r.body.provenance)}`);
  r = await api.call('GET', '/api/v1/skills?layer=user', { token: alice });
  check(r.body.skills.some((s) => s.name === 'api-demo' && s.layer === 'user'), 'the new skill is listed at once');
  r = await api.call('GET', '/api/v1/skills/api-demo', { token: bob });
  check(r.status === 404, `bob cannot see alice's skill: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills?layer=user', { token: bob });
  check(!r.body.skills.some((s) => s.name === 'api-demo'), "bob's listing does not hold alice's skill");

  r = await api.call('PUT', '/api/v1/skills/api-demo',
    { token: alice, body: { content: skillMd('api-demo', 'Demo of the REST API, edited', 'Step one.\n') } });
  check(r.status === 200 && r.body.success, `edit: ${r.status} ${JSON.stringify(r.body)}`);
  r = await api.call('PATCH', '/api/v1/skills/api-demo',
    { token: alice, body: { old_string: 'Step one.', new_string: 'Step one, patched.' } });
  check(r.status === 200 && r.body.success, `patch: ${r.status} ${JSON.stringify(r.body)}`);
  r = await api.call('PATCH', '/api/v1/skills/api-demo',
    { token: alice, body: { old_string: 'no such text anywhere', new_string: 'x' } });
  check(r.status >= 400 && r.status < 500 && r.body.success === false, `patch without a match: ${r.status}`);
  r = await api.call('PATCH', '/api/v1/skills/api-demo', { token: alice, body: { old_string: 7, new_string: 'x' } });
  check(r.status === 400, `a number for old_string: ${r.status}`);
  r = await api.call('POST', '/api/v1/skills', { token: alice, raw: '{"name": "x", "name": "y"}' });
  check(r.status === 400, `a duplicate member name: ${r.status}`);
  r = await api.call('POST', '/api/v1/skills', { token: alice, raw: '[1, 2' });
  check(r.status === 400, `malformed JSON: ${r.status}`);
  r = await api.call('PUT', '/api/v1/skills/api-demo', { token: bob, body: { content: skillMd('api-demo', 'Hijack') } });
  check(r.status === 404, `bob cannot edit alice's skill: ${r.status}`);
  r = await api.call('POST', '/api/v1/skills',
    { token: bob, body: { name: 'bob-shared', layer: 'shared', content: skillMd('bob-shared', 'Not his to write') } });
  check(r.status === 403, `bob (org1) cannot write the shared layer: ${r.status}`);
  log('create, edit, patch; refusals for bad bodies, other users and the shared layer');

  // --- support files ---
  r = await api.call('PUT', '/api/v1/skills/api-demo/file?path=references/notes.md',
    { token: alice, body: { content: '# Notes\n\nRead me.\n' } });
  check(r.status === 200 && r.body.success, `write_file: ${r.status} ${JSON.stringify(r.body)}`);
  r = await api.call('GET', '/api/v1/skills/api-demo/file?path=references/notes.md', { token: alice });
  check(r.status === 200 && r.body.content.includes('Read me.'), `read the file: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills/api-demo/file?path=..%2F..%2F..%2Fconfig.yaml', { token: alice });
  check(r.status >= 400 && r.status < 500 && r.body.success === false, `a path out of the skill: ${r.status}`);
  r = await api.call('PUT', '/api/v1/skills/api-demo/file?path=%2Fetc%2Fpasswd', { token: alice, body: { content: 'x' } });
  check(r.status >= 400 && r.status < 500 && r.body.success === false, `an absolute path: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills/api-demo/file', { token: alice });
  check(r.status === 400, `no ?path=: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills/api-demo/file?path=references%2Fbad%00.md', { token: alice });
  check(r.status === 400, `an encoded NUL: ${r.status}`);
  r = await api.call('DELETE', '/api/v1/skills/api-demo/file?path=references/notes.md', { token: alice });
  check(r.status === 200 && r.body.success, `remove_file: ${r.status}`);
  log('support files: write, read, remove; traversal, absolute paths and NUL refused');

  // --- scan and search ---
  r = await api.call('GET', '/api/v1/skills/api-demo/scan', { token: alice });
  check(r.status === 200 && ['safe', 'caution', 'dangerous'].includes(r.body.verdict), `scan: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills/risky-tool/scan', { token: alice });
  check(r.status === 200 && r.body.findings.length > 0 && r.body.findings.every((f) => f.pattern_id),
    `the risky skill's findings carry rule ids: ${JSON.stringify(r.body.findings?.slice(0, 1))}`);
  r = await api.call('GET', '/api/v1/search?q=REST%20API%20demo', { token: alice });
  check(r.status === 200 && r.body.results.some((hit) => hit.name === 'api-demo'), `alice's search: ${JSON.stringify(r.body)}`);
  r = await api.call('GET', '/api/v1/search?q=REST%20API%20demo', { token: bob });
  check(r.status === 200 && !r.body.results.some((hit) => hit.name === 'api-demo'), "bob's search misses alice's skill");
  r = await api.call('GET', '/api/v1/search', { token: alice });
  check(r.status === 400, `search without q: ${r.status}`);
  log('scan reports with rule ids; search sees only what the caller may see');

  // --- database skills ---
  r = await api.call('POST', '/api/v1/skills',
    { token: alice, body: { name: 'db-demo', layer: 'database', category: 'data', content: skillMd('db-demo', 'A database skill') } });
  check(r.status === 201 && r.body.skill.name === 'db-demo', `database create: ${r.status} ${JSON.stringify(r.body)}`);
  r = await api.call('GET', '/api/v1/skills?layer=database', { token: alice });
  check(r.body.skills.length === 1 && r.body.skills[0].name === 'db-demo' && r.body.skills[0].layer === 'database',
    `alice's database layer: ${JSON.stringify(r.body.skills)}`);
  r = await api.call('GET', '/api/v1/skills', { token: alice });
  check(r.body.total === total + 2, `every layer together: ${r.body.total} (shared ${total}, + api-demo, db-demo)`);
  r = await api.call('GET', '/api/v1/skills/db-demo?layer=database', { token: alice });
  check(r.status === 200 && r.body.skill.content.includes('A database skill'), `database view: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills/db-demo?layer=database', { token: bob });
  check(r.status === 404, `bob cannot read alice's row: ${r.status}`);
  r = await api.call('PUT', '/api/v1/skills/db-demo',
    { token: alice, body: { layer: 'database', content: skillMd('db-demo', 'A database skill, v2') } });
  check(r.status === 200 && r.body.skill.version === 2, `database edit: ${JSON.stringify(r.body)}`);
  log('database skills: create, list, view, edit; invisible to bob');

  // --- the approval inbox ---
  r = await api.call('GET', '/api/v1/proposals', { token: alice });
  check(r.status === 200 && r.body.proposals.some((p) => p.id === proposalId && p.state === 'pending'),
    `alice's inbox holds ${proposalId}: ${JSON.stringify(r.body)}`);
  r = await api.call('GET', '/api/v1/proposals', { token: bob });
  check(!r.body.proposals.some((p) => p.id === proposalId), "bob's inbox does not");
  r = await api.call('GET', `/api/v1/proposals/${proposalId}`, { token: bob });
  check(r.status === 404, `bob cannot open alice's proposal: ${r.status}`);
  r = await api.call('POST', `/api/v1/proposals/${proposalId}/approve`, { token: bob });
  check(r.status === 404, `bob cannot approve it: ${r.status}`);
  r = await api.call('GET', `/api/v1/proposals/${proposalId}`, { token: alice });
  check(r.status === 200 && r.body.proposal.diff.includes('+'), `the proposal's diff: ${JSON.stringify(r.body).slice(0, 300)}`);
  r = await api.call('POST', `/api/v1/proposals/${proposalId}/approve`, { token: alice });
  check(r.status === 200 && r.body.proposal.state === 'applied', `approve: ${r.status} ${JSON.stringify(r.body)}`);
  r = await api.call('GET', '/api/v1/skills/staged-skill', { token: alice });
  check(r.body.content.includes('approved over REST'), 'the approved edit is live');
  r = await api.call('POST', `/api/v1/proposals/${proposalId}/reject`, { token: alice, body: { reason: 'late' } });
  check(r.status >= 400 && r.status < 500, `rejecting an applied proposal: ${r.status}`);
  log('the inbox: per user, diff, approve goes live, decided proposals stay decided');

  // --- the ledger ---
  r = await api.call('GET', '/api/v1/ledger?skill=api-demo', { token: alice });
  check(r.status === 200 && r.body.entries.length >= 3, `api-demo's entries: ${r.body.entries?.length}`);
  const editEntry = r.body.entries.filter((e) => e.action === 'edit').pop();
  check(editEntry && editEntry.actor === 'user', `the edit is the user's: ${JSON.stringify(editEntry)}`);
  r = await api.call('POST', `/api/v1/ledger/${editEntry.id}/rollback`, { token: alice });
  check(r.status >= 400 && r.body.success === false, `rolling back past later changes needs force: ${r.status}`);
  r = await api.call('POST', `/api/v1/ledger/${editEntry.id}/rollback`, { token: alice, body: { force: true } });
  check(r.status === 200 && r.body.success, `forced rollback: ${r.status} ${JSON.stringify(r.body)}`);
  r = await api.call('GET', '/api/v1/skills/api-demo', { token: alice });
  check(r.body.content.includes('Steps.') && !r.body.content.includes('Step one'), 'the skill is as created again');
  r = await api.call('GET', '/api/v1/ledger/verify', { token: alice });
  check(r.status === 200 && r.body.success === true, `alice's ledger verifies: ${JSON.stringify(r.body)}`);
  r = await api.call('GET', '/api/v1/ledger?skill=api-demo', { token: bob });
  check(r.status === 200 && r.body.entries.length === 0, "bob's ledger has none of alice's entries");
  log('the ledger: entries by the user, rollback (forced past later changes), verify');

  // --- memory, todo, audit ---
  r = await api.call('GET', '/api/v1/memory', { token: alice });
  check(r.status === 200 && r.body.success, `memory: ${r.status}`);
  r = await api.call('GET', '/api/v1/todo', { token: alice });
  check(r.status === 200 && Array.isArray(r.body.todos), `todo: ${r.status}`);
  r = await api.call('GET', '/api/v1/audit', { token: alice });
  check(r.status === 200, `audit: ${r.status} ${JSON.stringify(r.body)}`);
  log('memory, todo and audit read');

  // --- tokens: the owner organisation only ---
  r = await api.call('GET', '/api/v1/tokens', { token: alice });
  check(r.status === 403, `alice cannot list tokens: ${r.status}`);
  r = await api.call('POST', '/api/v1/tokens', { token: alice, body: { user_id: 'mallory', org_id: '0' } });
  check(r.status === 403, `alice cannot mint an owner token: ${r.status}`);
  r = await api.call('POST', '/api/v1/tokens', { token: owner, body: { user_id: 'carol', org_id: 'org1', label: 'rest' } });
  check(r.status === 201 && r.body.bearer.startsWith('skrt_'), `owner creates a token: ${r.status}`);
  const carol = r.body.bearer;
  const carolId = r.body.token.id;
  r = await api.call('GET', '/api/v1/skills', { token: carol });
  check(r.status === 200, `the new token works: ${r.status}`);
  r = await api.call('GET', '/api/v1/tokens?user=carol', { token: owner });
  check(r.body.tokens.length === 1 && !JSON.stringify(r.body).includes(carol.split('_').pop()),
    'the listing never shows the secret');
  r = await api.call('DELETE', `/api/v1/tokens/${carolId}`, { token: owner });
  check(r.status === 200 && r.body.token.revoked_at, `revoke: ${r.status}`);
  log('tokens: owner-only create, list (no secrets) and revoke');

  // --- delete ---
  r = await api.call('DELETE', '/api/v1/skills/api-demo', { token: alice });
  check(r.status === 200 && r.body.success, `delete: ${r.status}`);
  r = await api.call('GET', '/api/v1/skills/api-demo', { token: alice });
  check(r.status === 404, `gone: ${r.status}`);
  r = await api.call('DELETE', '/api/v1/skills/db-demo?layer=database', { token: alice });
  check(r.status === 200, `database delete: ${r.status}`);
  r = await api.call('PATCH', '/api/v1/skills', { token: alice, body: {} });
  check(r.status === 405 && r.headers.get('allow') === 'GET, POST', `405 with Allow: ${r.status} ${r.headers.get('allow')}`);
  log(`delete; 405 with Allow. ${api.checked.size} operation/status pairs checked against the document`);
}

try {
  await main();
} catch (error) {
  if (error instanceof CheckFailed) {
    process.stderr.write(`FAIL: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
