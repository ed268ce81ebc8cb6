#!/usr/bin/env node
// rootbound on Node.js: the same module as the Go host, run by node:wasi.
//
//   node examples/node/rootbound.mjs glob PATTERN [DIR]
//   node examples/node/rootbound.mjs grep [-l|-c] [-i|-S] [-F] [-g GLOB] PATTERN [DIR]
//   node examples/node/rootbound.mjs serve --root NAME=DIR [--root NAME=DIR ...]
//
// glob and grep print what `rootbound glob` and `rootbound grep` print; serve
// speaks the JSON-lines protocol on stdin and stdout.
//
// node:wasi is documented as not a secure sandbox: it follows symbolic links
// in the middle of a path out of a preopen, ignores O_NOFOLLOW, opens FIFOs
// (which blocks), and opens read-only files read-write. This host closes
// those gaps by wrapping the WASI calls that take a path: each path is checked
// component by component with lstat before uvwasi sees it, and refused if it
// leaves its preopen, passes through a symbolic link, or names a symbolic
// link, FIFO, socket or device to open; write rights are masked and every
// call that would change the tree fails with EROFS. A check before an open
// cannot stop a tree that changes between the two (a directory swapped for a
// symlink at that instant): for trees an attacker can change while a search
// runs, use the wazero or wasmtime host.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// node:wasi warns that it is experimental on every run: not news to a user.
const emit = process.emitWarning;
process.emitWarning = (w, ...rest) => (String(w).includes('WASI') ? undefined : emit.call(process, w, ...rest));
const { WASI } = await import('node:wasi');

const here = path.dirname(fileURLToPath(import.meta.url));
const modulePath = path.join(here, '..', '..', 'host', 'rootbound.wasm');

// WASI preview 1 numbers.
const E = { ACCES: 2, BADF: 8, LOOP: 32, NOTCAPABLE: 76, ROFS: 69 };
const LOOKUP_SYMLINK_FOLLOW = 1;
const O_CREAT = 1, O_EXCL = 4, O_TRUNC = 8;
// Rights that write: fd_datasync, fd_sync, fd_write, fd_allocate, path_create_*,
// path_link_*, path_rename_*, path_filestat_set_*, fd_filestat_set_*,
// path_symlink, path_remove_directory, path_unlink_file.
const WRITE_RIGHTS = [0, 4, 6, 8, 9, 10, 11, 12, 16, 17, 19, 20, 22, 23, 24, 25, 26]
  .reduce((m, b) => m | (1n << BigInt(b)), 0n);

/** A host's view of the module's descriptors: fd -> { root, dir }. */
class Guard {
  constructor(preopens) {
    this.fds = new Map();
    let fd = 3;
    for (const dir of Object.values(preopens)) this.fds.set(fd++, { root: dir, dir });
    this.memory = null;
  }

  str(ptr, len) {
    return Buffer.from(this.memory.buffer, ptr, len).toString('utf8');
  }

  // resolve checks a path below fd's directory; it returns the host path
  // or a WASI errno.
  resolve(fd, rel, follow, opening) {
    const base = this.fds.get(fd);
    if (!base) return E.BADF;
    if (rel.startsWith('/')) return E.NOTCAPABLE;
    const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
    let cur = base.dir;
    for (let i = 0; i < parts.length; i++) {
      const last = i === parts.length - 1;
      if (parts[i] === '..') {
        if (cur === base.root) return E.NOTCAPABLE;
        cur = path.dirname(cur);
        continue;
      }
      cur = path.join(cur, parts[i]);
      let st;
      try {
        st = fs.lstatSync(cur);
      } catch {
        return last ? cur : E.NOTCAPABLE; // a missing path: uvwasi says ENOENT
      }
      if (st.isSymbolicLink()) {
        if (!last || follow) return E.NOTCAPABLE;
        if (opening) return E.LOOP; // O_NOFOLLOW, which uvwasi ignores
      } else if (last && opening && !st.isFile() && !st.isDirectory()) {
        return E.ACCES; // never open a FIFO, socket or device
      }
    }
    return cur;
  }

  wrap(imports) {
    const g = this;
    const orig = { ...imports };
    const ro = () => E.ROFS;
    for (const name of ['path_create_directory', 'path_link', 'path_remove_directory', 'path_rename',
      'path_symlink', 'path_unlink_file', 'path_filestat_set_times', 'fd_filestat_set_size',
      'fd_filestat_set_times', 'fd_allocate']) {
      imports[name] = ro;
    }
    imports.path_open = (fd, dirflags, ptr, len, oflags, base, inheriting, fdflags, out) => {
      if (oflags & (O_CREAT | O_EXCL | O_TRUNC)) return E.ROFS;
      const p = g.resolve(fd, g.str(ptr, len), (dirflags & LOOKUP_SYMLINK_FOLLOW) !== 0, true);
      if (typeof p === 'number') return p;
      const errno = orig.path_open(fd, dirflags, ptr, len, oflags,
        BigInt(base) & ~WRITE_RIGHTS, BigInt(inheriting) & ~WRITE_RIGHTS, fdflags, out);
      if (errno === 0) {
        const opened = new DataView(g.memory.buffer).getUint32(out, true);
        g.fds.set(opened, { root: g.fds.get(fd).root, dir: p });
      }
      return errno;
    };
    imports.fd_close = (fd) => {
      g.fds.delete(fd);
      return orig.fd_close(fd);
    };
    for (const name of ['path_filestat_get', 'path_readlink']) {
      imports[name] = (fd, flags, ptr, len, ...rest) => {
        const follow = name === 'path_filestat_get' && (flags & LOOKUP_SYMLINK_FOLLOW) !== 0;
        const rel = name === 'path_filestat_get' ? g.str(ptr, len) : g.str(flags, ptr);
        const p = g.resolve(fd, rel, follow, false);
        if (typeof p === 'number') return p;
        // A FIFO or socket comes back as "unknown" (WASI has no such
        // type); the module counts unknown types as special files itself.
        return orig[name](fd, flags, ptr, len, ...rest);
      };
    }
    return imports;
  }
}

/** run starts the module with roots ([name, dir] pairs) and the given stdio fds. */
function run(roots, stdin, stdout) {
  const preopens = Object.fromEntries(roots);
  const guard = new Guard(preopens);
  const wasi = new WASI({
    version: 'preview1',
    args: ['rootbound', ...roots.flatMap(([name]) => ['--root', name])],
    env: {},
    preopens,
    stdin,
    stdout,
    stderr: 2,
    returnOnExit: true,
  });
  const module = new WebAssembly.Module(fs.readFileSync(modulePath));
  const imports = wasi.getImportObject();
  guard.wrap(imports.wasi_snapshot_preview1);
  const instance = new WebAssembly.Instance(module, imports);
  guard.memory = instance.exports.memory;
  return wasi.start(instance);
}

function usage(msg) {
  if (msg) process.stderr.write(`rootbound: ${msg}\n`);
  process.stderr.write('usage: rootbound.mjs glob PATTERN [DIR] | grep [-l|-c] [-i|-S] [-F] [-g GLOB] PATTERN [DIR] | serve --root NAME=DIR ...\n');
  process.exit(2);
}

// quotePath prints a path as the Go host does: as is, or Go-quoted when it
// holds a control character or invalid UTF-8 (shown here as U+FFFD).
function quotePath(p) {
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffd]/.test(p) && !p.startsWith('"')) return p;
  return JSON.stringify(p).replace(/\\u001b/g, '\\x1b').replace(/\\u00([0-9a-f]{2})/g, '\\x$1');
}

function escapeLine(s) {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\r/g, '\\r').replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g,
    (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
}

function data(d) {
  return d.text !== undefined ? d.text : Buffer.from(d.bytes, 'base64').toString('utf8');
}

function search(tool, argv) {
  const req = { pattern: undefined, max_results: 1000000 };
  const pos = [];
  let mode = 'content';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (tool === 'grep' && a === '-l') mode = 'files_with_matches';
    else if (tool === 'grep' && a === '-c') mode = 'count';
    else if (tool === 'grep' && a === '-i') req.case = 'insensitive';
    else if (tool === 'grep' && a === '-S') req.case = 'smart';
    else if (tool === 'grep' && a === '-F') req.literal = true;
    else if (tool === 'grep' && a === '-n') { /* always on */ } else if (tool === 'grep' && a === '-g') req.glob = argv[++i];
    else if (a === '--max-results') req.max_results = Number(argv[++i]);
    else if (a.startsWith('-') && a !== '-') usage(`unknown flag ${a}`);
    else pos.push(a);
  }
  if (pos.length < 1 || pos.length > 2) usage('want PATTERN [DIR]');
  req.pattern = pos[0];
  if (tool === 'grep') req.output_mode = mode;
  const dir = pos[1] ?? '.';
  const prefix = pos.length === 2 ? dir.replace(/\/+$/, '') + '/' : '';
  try {
    if (!fs.statSync(dir).isDirectory()) usage(`${dir}: not a directory`);
  } catch (e) {
    usage(`${dir}: ${e.code}`);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rootbound-'));
  try {
    const inPath = path.join(tmp, 'in'), outPath = path.join(tmp, 'out');
    fs.writeFileSync(inPath, JSON.stringify({ v: 1, id: '1', [tool]: req }) + '\n');
    const inFd = fs.openSync(inPath, 'r'), outFd = fs.openSync(outPath, 'w');
    run([['/workspace', path.resolve(dir)]], inFd, outFd);
    fs.closeSync(inFd);
    fs.closeSync(outFd);
    let found = 0, failed = false;
    const out = [];
    for (const line of fs.readFileSync(outPath, 'utf8').split('\n')) {
      if (!line) continue;
      const l = JSON.parse(line);
      if (l.item) {
        found++;
        const p = quotePath(prefix + data(l.item.path));
        if (l.item.text) out.push(`${p}:${l.item.line_number}:${escapeLine(data(l.item.text))}`);
        else if (l.item.count) out.push(`${p}:${l.item.count}`);
        else out.push(p);
      } else if (l.problem) {
        process.stderr.write(`rootbound: ${quotePath(prefix + data(l.problem.path))}: ${l.problem.message}\n`);
      } else if (l.done) {
        if (l.done.truncated) process.stderr.write(`rootbound: truncated at ${l.done.results} results: ${l.done.narrow}\n`);
        if (l.done.error) {
          failed = true;
          process.stderr.write(`rootbound: ${l.done.error.code}: ${l.done.error.message}\n`);
        }
      }
    }
    if (out.length) process.stdout.write(out.join('\n') + '\n');
    process.exitCode = failed ? 2 : found ? 0 : 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'glob' || cmd === 'grep') {
  search(cmd, rest);
} else if (cmd === 'serve') {
  const roots = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] !== '--root' || !rest[i + 1]?.includes('=')) usage(`serve: unexpected ${rest[i]}`);
    const [name, dir] = rest[++i].split(/=(.*)/s);
    roots.push([name, path.resolve(dir)]);
  }
  if (!roots.length) usage('serve: no --root');
  process.exitCode = run(roots, 0, 1);
} else {
  usage(cmd ? `unknown command ${cmd}` : '');
}
