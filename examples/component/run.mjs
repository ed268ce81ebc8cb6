#!/usr/bin/env node
// rootbound as a WASI 0.2 command component on Node.js: the core module of
// host/rootbound.wasm wrapped with the preview1 command adapter that jco
// ships (`npm run build`: jco new --wasi-command, then jco transpile), run on
// @bytecodealliance/preview2-shim.
//
//   node examples/component/run.mjs NAME=DIR [NAME=DIR ...] < requests.jsonl
//
// It speaks the JSON-lines protocol on stdin and stdout, as the module does.
// The core module's initial memory is raised before it is wrapped
// (memory.mjs): with Go's own, the adapter's state lay where Go's heap grows,
// and the instance died at its first large buffer or its second request.
// The shim resolves paths with Node's fs, so it confines no better than
// node:wasi does (see examples/node/rootbound.mjs): this runner is here to
// show the component speaks the same protocol, byte for byte; use the wazero
// or wasmtime host for untrusted trees.
import { _setPreopens } from '@bytecodealliance/preview2-shim/filesystem';
import { _setArgs, _setEnv } from '@bytecodealliance/preview2-shim/cli';

const roots = process.argv.slice(2).map((r) => {
  const [name, dir] = r.split(/=(.*)/s);
  if (!name || !dir) {
    process.stderr.write('usage: run.mjs NAME=DIR [NAME=DIR ...] < requests.jsonl\n');
    process.exit(2);
  }
  return [name, dir];
});
_setPreopens(Object.fromEntries(roots));
_setArgs(['rootbound', ...roots.flatMap(([name]) => ['--root', name])]);
_setEnv({});
const { run } = await import('./out/rootbound.component.js');
run.run();
