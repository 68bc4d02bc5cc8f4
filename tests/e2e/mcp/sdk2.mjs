// The pinned official MCP TypeScript SDK v2 client (@modelcontextprotocol/client,
// tests/tools), which speaks the stateless 2026-07-28 revision and ships the
// Skills extension's SkillsClient. Imported by path, as sdk.mjs does for v1.
const dist = new URL('../../tools/node_modules/@modelcontextprotocol/client/dist/', import.meta.url);

export const { Client, StreamableHTTPClientTransport } = await import(new URL('index.mjs', dist));
export const { StdioClientTransport } = await import(new URL('stdio.mjs', dist));
export const { SkillsClient } = await import(new URL('ext/skills/index.mjs', dist));
