// The pinned official MCP TypeScript SDK (tests/tools, installed by
// scripts/npm-tools). The tests live outside tests/tools, where a bare
// '@modelcontextprotocol/sdk' import would not resolve, so its ESM build is
// imported by path; every module below comes from that one copy.
const esm = new URL('../../tools/node_modules/@modelcontextprotocol/sdk/dist/esm/', import.meta.url);

export const { Client } = await import(new URL('client/index.js', esm));
export const { StdioClientTransport } = await import(new URL('client/stdio.js', esm));
export const { StreamableHTTPClientTransport } = await import(new URL('client/streamableHttp.js', esm));
export const {
  McpError, ResultSchema, ResourceListChangedNotificationSchema, PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} = await import(new URL('types.js', esm));
