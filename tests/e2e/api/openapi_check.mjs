// Checks REST answers against the OpenAPI 3.1 document skillrt serves: the
// document itself with @seriousme/openapi-schema-validator (the official 3.1
// schema), every answer's body with Ajv's JSON Schema 2020-12 (the dialect of
// OpenAPI 3.1) against the schema of its path, method and status. Neither
// validator was written here. Used by the api/*.mjs drivers.
import fs from 'node:fs';

import { CheckFailed, check } from '../checks.mjs';

const tools = new URL('../../tools/node_modules/', import.meta.url);
const { Validator } = await import(new URL('@seriousme/openapi-schema-validator/index.js', tools));
const { default: Ajv2020 } = await import(new URL('ajv/dist/2020.js', tools));

// The served document, validated; it must equal the file in the tree.
export async function loadDocument(apiUrl, sourceFile) {
  const response = await fetch(`${apiUrl}/openapi.json`);
  check(response.status === 200, `openapi.json answered ${response.status}`);
  const text = await response.text();
  const doc = JSON.parse(text);
  check(text === fs.readFileSync(sourceFile, 'utf8'), 'the served document differs from src/api/openapi.json');
  const result = await new Validator().validate(doc);
  check(result.valid, `openapi.json is not a valid OpenAPI 3.1 document: ${JSON.stringify(result.errors)}`);
  return doc;
}

// "/api/v1/skills/{name}" matches "/api/v1/skills/a%2Fb" (one segment per parameter).
function templateFor(doc, path) {
  const segments = path.split('/');
  for (const template of Object.keys(doc.paths)) {
    const parts = template.split('/');
    if (parts.length !== segments.length) continue;
    if (parts.every((part, i) => (part.startsWith('{') && segments[i] !== '') || part === segments[i])) {
      return template;
    }
  }
  return null;
}

export class ApiClient {
  constructor(apiUrl, doc) {
    this.apiUrl = apiUrl;
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    this.ajv.addSchema(doc, 'openapi');
    this.checked = new Set();  // "METHOD template status" seen
  }

  // Sends one request and validates the answer against the document.
  // Returns {status, body, headers}.
  async call(method, target, { token, body, raw, headers = {} } = {}) {
    const sent = { method, headers: { ...headers } };
    if (token) sent.headers.Authorization = `Bearer ${token}`;
    if (body !== undefined || raw !== undefined) {
      sent.headers['Content-Type'] = sent.headers['Content-Type'] ?? 'application/json';
      sent.body = raw ?? JSON.stringify(body);
    }
    const response = await fetch(this.apiUrl.replace(/\/api\/v1$/, '') + target, sent);
    const text = await response.text();
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new CheckFailed(`${method} ${target}: ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    this.validate(method, target, response.status, parsed);
    return { status: response.status, body: parsed, headers: response.headers };
  }

  validate(method, target, status, body) {
    const path = target.split('?')[0];
    const template = templateFor(this.doc, path);
    const operation = template && this.doc.paths[template][method.toLowerCase()];
    if (!operation) {
      // A path or method the document does not have: only the router's 404
      // (no such route) and 405 (another method) may answer it.
      check((!template && status === 404) || (template && status === 405),
        `${method} ${path}: not in the document, yet answered ${status}`);
      const failure = this.ajv.getSchema('openapi#/components/schemas/Failure');
      check(failure(body), `${method} ${path} → ${status}: not the failure shape: ${JSON.stringify(body)}`);
      return;
    }
    let answer = operation.responses[String(status)];
    check(answer, `${method} ${target}: status ${status} is not documented (body ${JSON.stringify(body).slice(0, 300)})`);
    let pointer = `#/paths/${template.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}`;
    if (answer.$ref) {
      pointer = answer.$ref;
      answer = this.doc.components.responses[answer.$ref.split('/').pop()];
    }
    const validate = this.ajv.getSchema(`openapi${pointer}/content/application~1json/schema`);
    check(validate, `no schema at ${pointer}`);
    if (!validate(body)) {
      throw new CheckFailed(`${method} ${target} → ${status}: the body does not match the document: ` +
        `${JSON.stringify(validate.errors.slice(0, 3))}; body ${JSON.stringify(body).slice(0, 400)}`);
    }
    this.checked.add(`${method} ${template} ${status}`);
  }
}
