// The official TypeScript SDK's client drives `rootbound mcp` over stdio and
// over streamable HTTP: it lists and calls both tools, gets isError for a
// bad argument, progress for a search of the Go tree, cancels a search
// mid-way (the server's audit says it ended with what it had found), and
// sees its roots narrow what a call may read. Over HTTP, a foreign Origin
// and a missing token are refused.
//
//   node client.mjs ROOTBOUND_BINARY GO_SRC_DIR WORK_DIR
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [bin, goSrc, work] = process.argv.slice(2);
if (!work) {
  console.error('usage: node client.mjs ROOTBOUND_BINARY GO_SRC_DIR WORK_DIR');
  process.exit(2);
}
const rootArgs = ['--root', `/workspace=${work}`, '--root', `/go=${goSrc}`, '--audit'];
const token = 'token-' + process.pid;
let failed = 0;

function check(cond, msg) {
  console.log(`${cond ? 'ok' : 'FAIL'}: ${msg}`);
  if (!cond) failed++;
}

function text(r) {
  return (r.content ?? []).map((c) => c.text ?? '').join('');
}

// waitFor polls until cond holds (or 10 s pass).
async function waitFor(cond) {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
  return cond();
}

// The tools, as the table of tools names them (flags.json, which go
// generate writes from it), in the order MCP lists them.
const TOOLS = Object.keys(JSON.parse(fs.readFileSync(new URL('../node/flags.json', import.meta.url), 'utf8'))).filter((k) => k !== 'generated').sort();

function newClient(roots) {
  const client = new Client({ name: 'rootbound-ts-test', version: '0.0.0' }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  if (roots) client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((d) => ({ uri: pathToFileURL(d).href })) }));
  return client;
}

async function exercise(name, connect, audit) {
  const client = newClient();
  await connect(client);
  const { tools } = await client.listTools();
  check(tools.map((t) => t.name).join() === TOOLS.join(), `${name}: lists ${TOOLS.join(', ')}`);
  check(tools.every((t) => t.annotations?.readOnlyHint === true && t.annotations?.openWorldHint === false && t.outputSchema),
    `${name}: read-only annotations and an output schema`);

  let r = await client.callTool({ name: 'glob', arguments: { pattern: '*.go' } });
  check(!r.isError && text(r).includes('src/main.go') && r.structuredContent?.done?.status === 'complete', `${name}: glob`);
  r = await client.callTool({ name: 'grep', arguments: { pattern: 'TODO', output_mode: 'content', context: 1 } });
  check(!r.isError && text(r).includes('src/main.go:2:// TODO: one') && r.structuredContent.items.some((it) => it.submatches),
    `${name}: grep`);
  // glob, grep, then read around what grep found, in one session.
  const hit = r.structuredContent.items.find((it) => it.submatches);
  r = await client.callTool({ name: 'read', arguments: { path: hit.path.text, offset: Math.max(hit.line_number - 1, 1), limit: 3 } });
  check(!r.isError && text(r).includes(`${String(hit.line_number).padStart(6)}\t${hit.text.text}\n`) && r.structuredContent?.done?.lines >= hit.line_number,
    `${name}: read around what grep found`);
  r = await client.callTool({ name: 'list', arguments: { depth: 2 } });
  check(!r.isError && text(r).includes('src/main.go (') && r.structuredContent.items.some((it) => it.kind === 'directory'), `${name}: list`);
  r = await client.callTool({ name: 'grep', arguments: { pattern: 'a(' } });
  check(r.isError === true && text(r).startsWith('[Error (invalid_pattern)'), `${name}: a bad pattern is isError`);
  r = await client.callTool({ name: 'grep', arguments: { pattern: 'x', max_results: 'many' } });
  check(r.isError === true && text(r).startsWith('[Error (invalid_argument)'), `${name}: a bad argument is isError`);

  const seen = [];
  r = await client.callTool({ name: 'grep', arguments: { pattern: '[a-z]{20,}', path: '/go', output_mode: 'count', max_results: 1000 } },
    undefined, { onprogress: (p) => seen.push(p), timeout: 120000 });
  check(!r.isError && seen.length > 0 && seen[0].message.includes('files searched'), `${name}: ${seen.length} progress notifications`);

  const ac = new AbortController();
  let cancelledAfter = 0;
  const call = client.callTool({ name: 'grep', arguments: { pattern: '[a-z]{20,}', path: '/go', max_results: 1000 } }, undefined, {
    signal: ac.signal, timeout: 120000,
    onprogress: (p) => {
      if (!p.message.includes(' 0 results') && !ac.signal.aborted) {
        cancelledAfter = p.progress;
        ac.abort('enough');
      }
    },
  });
  const aborted = await call.then(() => false, () => true);
  check(aborted && cancelledAfter > 0, `${name}: cancelled mid-way`);
  const partial = /grep pattern="\[a-z\]\{20,\}" path="\/go" mode=files_with_matches: partial \(cancelled\), [1-9]\d* results/;
  check(await waitFor(() => partial.test(audit())), `${name}: the cancelled call ended with what it had found`);
  await client.close();

  const narrowed = newClient([path.join(work, 'src')]);
  await connect(narrowed);
  r = await narrowed.callTool({ name: 'grep', arguments: { pattern: 'TODO' } });
  check(r.isError === true && text(r).includes('(denied)'), `${name}: a call past the client's roots is denied`);
  r = await narrowed.callTool({ name: 'grep', arguments: { pattern: 'TODO', path: 'src' } });
  check(!r.isError && text(r).includes('src/main.go'), `${name}: a call inside the client's roots runs`);
  await narrowed.close();
}

// stdio: the client spawns the server, as an agent does.
{
  let stderr = '';
  const connect = async (client) => {
    const t = new StdioClientTransport({ command: bin, args: ['mcp', ...rootArgs], stderr: 'pipe' });
    const started = client.connect(t);
    t.stderr.on('data', (d) => { stderr += d; });
    await started;
  };
  await exercise('stdio', connect, () => stderr);
}

// Streamable HTTP, with a token.
{
  const server = spawn(bin, ['mcp', '--http', '127.0.0.1:0', ...rootArgs], { env: { ...process.env, ROOTBOUND_MCP_TOKEN: token } });
  let stderr = '';
  server.stderr.on('data', (d) => { stderr += d; });
  await waitFor(() => /serving (http:\/\/\S+)/.test(stderr));
  const url = new URL(/serving (http:\/\/\S+)/.exec(stderr)[1]);
  const connect = (client) => client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  await exercise('http', connect, () => stderr);

  const post = (headers) => fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  }).then((res) => res.status);
  check(await post({ Origin: 'https://evil.example', Authorization: `Bearer ${token}` }) === 403, 'http: a foreign Origin is refused (403)');
  check(await post({}) === 401, 'http: a request without the token is refused (401)');
  server.kill();
}

console.log(failed ? `${failed} checks failed` : 'all checks passed');
process.exit(failed ? 1 : 0);
