#!/usr/bin/env node
// rootbound on Node.js: the same module as the Go host, run by node:wasi.
//
//   node examples/node/rootbound.mjs glob [FLAG...] PATTERN [DIR]
//   node examples/node/rootbound.mjs grep [FLAG...] (PATTERN | -e PATTERN ...) [DIR]
//   node examples/node/rootbound.mjs read [FLAG...] PATH[:A[-B]]
//   node examples/node/rootbound.mjs list [FLAG...] [DIR]
//   node examples/node/rootbound.mjs serve [--timeout 20s] --root NAME=DIR [--root NAME=DIR ...]
//
// The flags are the rootbound command's (flags.json, generated from its
// table of options), and --timeout 60s. glob, grep, read and list print what
// the rootbound command prints (this host does not read the
// ignore files of the directories above DIR, as the Go command does); serve
// speaks the JSON-lines protocol on stdin and stdout.
//
// One instance: this host runs every call on one module instance; it does
// not split a grep across instances as the wazero host does (PROTOCOL.md,
// "Splitting a grep").
//
// Deadlines: the module runs in a worker thread. The host reads request
// lines itself and hands them to the module one at a time; when a request
// runs past its deadline (its limits.deadline_ms, or --timeout, whichever is
// sooner) by deadlineGrace, the host terminates the worker (V8 stops wasm
// code where it runs), answers the request with the results sent so far and
// a final line with the "deadline" error, and starts a fresh worker for the
// next request. Reading stdin on the main thread also means an empty
// non-blocking pipe (EAGAIN) or an over-long line never stops the host.
//
// Confinement: node:wasi is documented as not a secure sandbox: it follows
// symbolic links in the middle of a path out of a preopen, ignores
// O_NOFOLLOW, opens FIFOs (which blocks), and opens read-only files
// read-write. This host closes those gaps by wrapping the WASI calls that
// take a path: each path is checked component by component with lstat
// before uvwasi sees it, and refused if it leaves its preopen, passes through
// a symbolic link, or names a symbolic link, FIFO, socket or device to open;
// every open is non-blocking (a FIFO swapped in after the check cannot hang
// it; the module checks the type of what it opened before reading); write
// rights are masked and every call that would change the tree fails with
// EROFS. A check before an open cannot stop a tree that changes between the
// two (a directory swapped for a symlink at that instant): for trees an
// attacker can change while a search runs, use the wazero or wasmtime host.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, workerData, parentPort } from 'node:worker_threads';
import * as print from './print.mjs';

// node:wasi warns that it is experimental on every run: not news to a user.
const emit = process.emitWarning;
process.emitWarning = (w, ...rest) => (String(w).includes('WASI') ? undefined : emit.call(process, w, ...rest));

const here = path.dirname(fileURLToPath(import.meta.url));
const modulePath = path.join(here, '..', '..', 'host', 'rootbound.wasm');

// The protocol's bound on a request line (protocol.MaxLineBytes): a
// longer line is cut to one byte over it, which the module then refuses
// with the same answer every host gives.
const MAX_LINE = 1 << 20;
// The module's default file size cap (protocol.DefaultMaxFileSize), which
// this host does not change.
const MAX_FILE_SIZE_MIB = 8;
// How long past a request's deadline the module has to answer by itself
// before its worker is terminated. The module looks at its clock at least
// every millisecond or so of work.
const deadlineGrace = 30;
// How long a fresh worker may take to start the module and read a request.
const startupLimit = 10000;

// WASI preview 1 numbers.
const E = { ACCES: 2, BADF: 8, LOOP: 32, NOENT: 44, NOTCAPABLE: 76, ROFS: 69 };
const LOOKUP_SYMLINK_FOLLOW = 1;
const O_CREAT = 1, O_EXCL = 4, O_TRUNC = 8;
const FDFLAG_NONBLOCK = 4;
// Rights that write: fd_datasync, fd_sync, fd_write, fd_allocate, path_create_*,
// path_link_*, path_rename_*, path_filestat_set_*, fd_filestat_set_*,
// path_symlink, path_remove_directory, path_unlink_file.
const WRITE_RIGHTS = [0, 4, 6, 8, 9, 10, 11, 12, 16, 17, 19, 20, 22, 23, 24, 25, 26]
  .reduce((m, b) => m | (1n << BigInt(b)), 0n);

// The stdin channel between the main thread and the worker: a state word
// (EMPTY: the worker may wait; FULL: len bytes of data wait for the worker;
// CLOSED: end of input), a length, then the data.
const EMPTY = 0, FULL = 1, CLOSED = 2;
const CHANNEL = 1 << 20;
// Flow control of the module's output: the third word of the channel counts
// the bytes the worker has sent that the main thread has not yet written
// out; past OUTPUT_AHEAD the worker waits, so a slow reader of the host's
// stdout holds the module back instead of growing the host's memory.
const INFLIGHT = 2;
const OUTPUT_AHEAD = 4 << 20;

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
        return last ? cur : E.NOENT; // a missing path, as any runtime says
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
        BigInt(base) & ~WRITE_RIGHTS, BigInt(inheriting) & ~WRITE_RIGHTS, fdflags | FDFLAG_NONBLOCK, out);
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

// ---- the worker: one module instance, serving requests until stdin closes

async function workerMain() {
  const { WASI } = await import('node:wasi');
  const { roots, module, channel } = workerData;
  const ctl = new Int32Array(channel, 0, 4);
  const data = new Uint8Array(channel, 16);
  const preopens = Object.fromEntries(roots);
  const guard = new Guard(preopens);
  const nul = fs.openSync('/dev/null', 'r+');
  const wasi = new WASI({
    version: 'preview1',
    args: ['rootbound', ...roots.flatMap(([name]) => ['--root', name])],
    env: {},
    preopens,
    stdin: nul, // fd 0 and 1 are served by stdinRead and stdoutWrite below
    stdout: nul,
    stderr: 2,
    returnOnExit: true,
  });
  const imports = wasi.getImportObject();
  const w = guard.wrap(imports.wasi_snapshot_preview1);
  const mem = () => new DataView(guard.memory.buffer);
  let pending = 0, pos = 0;
  const origRead = w.fd_read, origWrite = w.fd_write;
  w.fd_read = (fd, iovs, iovsLen, nread) => {
    if (fd !== 0) return origRead(fd, iovs, iovsLen, nread);
    while (pos >= pending) {
      const st = Atomics.load(ctl, 0);
      if (st === CLOSED) {
        mem().setUint32(nread, 0, true);
        return 0;
      }
      if (st === FULL) {
        pending = Atomics.load(ctl, 1);
        pos = 0;
        if (pending === 0) Atomics.store(ctl, 0, EMPTY);
        parentPort.postMessage({ read: true }); // the request's clock starts now, as the module's does
        continue;
      }
      Atomics.wait(ctl, 0, EMPTY);
    }
    let n = 0;
    const view = mem();
    for (let i = 0; i < iovsLen && pos < pending; i++) {
      const ptr = view.getUint32(iovs + 8 * i, true);
      const len = view.getUint32(iovs + 8 * i + 4, true);
      const k = Math.min(len, pending - pos);
      new Uint8Array(guard.memory.buffer, ptr, k).set(data.subarray(pos, pos + k));
      pos += k;
      n += k;
    }
    if (pos >= pending) {
      Atomics.store(ctl, 0, EMPTY);
      Atomics.notify(ctl, 0);
    }
    view.setUint32(nread, n, true);
    return 0;
  };
  w.fd_write = (fd, iovs, iovsLen, nwritten) => {
    if (fd !== 1) return origWrite(fd, iovs, iovsLen, nwritten);
    const view = mem();
    const parts = [];
    let n = 0;
    for (let i = 0; i < iovsLen; i++) {
      const ptr = view.getUint32(iovs + 8 * i, true);
      const len = view.getUint32(iovs + 8 * i + 4, true);
      parts.push(Buffer.from(guard.memory.buffer, ptr, len));
      n += len;
    }
    const out = Buffer.concat(parts, n); // a copy: the module reuses its buffer
    for (let ahead = Atomics.load(ctl, INFLIGHT); ahead > OUTPUT_AHEAD; ahead = Atomics.load(ctl, INFLIGHT)) {
      Atomics.wait(ctl, INFLIGHT, ahead, 100);
    }
    Atomics.add(ctl, INFLIGHT, n);
    parentPort.postMessage(out, [out.buffer]);
    view.setUint32(nwritten, n, true);
    return 0;
  };
  const instance = new WebAssembly.Instance(module, imports);
  guard.memory = instance.exports.memory;
  const code = wasi.start(instance);
  parentPort.postMessage({ exit: code });
}

// ---- the main thread: the module's host

// checkRoots resolves each root's directory once, at start, and refuses
// one that is, or is inside, a .git. node:wasi resolves every path below a
// preopen from its host path, so a root renamed or swapped for another
// after start is served as its path then names it: a limit of this host
// (SECURITY.md); the wazero and wasmtime hosts hold the directory open.
function checkRoots(roots) {
  return roots.map(([name, dir]) => {
    const real = fs.realpathSync(dir);
    if (real.split(path.sep).includes('.git')) throw new Error(`root ${name}: ${dir} is inside .git, which is never read`);
    return [name, real];
  });
}

/** ModuleHost runs the module in a worker and answers one request at a time. */
class ModuleHost {
  constructor(roots, timeoutMs) {
    this.roots = checkRoots(roots);
    this.timeoutMs = timeoutMs;
    this.module = new WebAssembly.Module(fs.readFileSync(modulePath));
    this.worker = null;
  }

  start() {
    this.channel = new SharedArrayBuffer(16 + CHANNEL);
    this.ctl = new Int32Array(this.channel, 0, 4);
    this.data = new Uint8Array(this.channel, 16);
    this.partial = Buffer.alloc(0);
    this.worker = new Worker(fileURLToPath(import.meta.url), {
      workerData: { roots: this.roots, module: this.module, channel: this.channel },
      stdout: false,
      stderr: false,
    });
    // Events of a worker this host has given up on are dropped: they must
    // not be taken for the next request's.
    const wk = this.worker;
    wk.on('message', (m) => this.worker === wk && this.onMessage(m));
    wk.on('error', (e) => this.worker === wk && this.onDeath(`the module's worker failed: ${e.message}`));
    wk.on('exit', (code) => this.worker === wk && this.onDeath(`the module stopped: exit code ${code}`));
  }

  onMessage(m) {
    if (m.read) {
      this.call?.reading();
      return;
    }
    if (!(m instanceof Uint8Array)) {
      this.onDeath(`the module stopped: exit code ${m.exit}`);
      return;
    }
    let buf = Buffer.concat([this.partial, Buffer.from(m.buffer, m.byteOffset, m.length)]);
    const ctl = this.ctl;
    const written = (n) => {
      Atomics.sub(ctl, INFLIGHT, n);
      Atomics.notify(ctl, INFLIGHT);
    };
    for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10)) {
      const line = buf.subarray(0, nl + 1);
      buf = buf.subarray(nl + 1);
      if (this.call) this.call.onLine(line, () => written(line.length));
      else written(line.length);
    }
    this.partial = Buffer.from(buf);
  }

  onDeath(why) {
    if (!this.worker) return;
    this.worker = null;
    this.call?.end(why);
  }

  // feed writes bytes to the module's stdin, a channel's worth at a time.
  async feed(bytes) {
    for (let off = 0; off < bytes.length;) {
      if (!this.worker) return;
      if (Atomics.load(this.ctl, 0) !== EMPTY) {
        await Atomics.waitAsync(this.ctl, 0, Atomics.load(this.ctl, 0), 100).value;
        continue;
      }
      const n = Math.min(CHANNEL, bytes.length - off);
      this.data.set(bytes.subarray(off, off + n));
      Atomics.store(this.ctl, 1, n);
      Atomics.store(this.ctl, 0, FULL);
      Atomics.notify(this.ctl, 0);
      off += n;
    }
  }

  /**
   * request sends one request line (a Buffer ending in '\n') and calls
   * onLine with each answer line; it resolves when the answer is complete.
   */
  request(line, onLine) {
    let id = '', deadline = this.timeoutMs;
    try {
      const req = JSON.parse(line.toString('utf8'));
      if (typeof req?.id === 'string') id = req.id;
      const d = req?.limits?.deadline_ms;
      if (Number.isFinite(d) && d > 0) deadline = Math.min(deadline, d);
    } catch { /* the module answers a bad line itself */ }
    if (!this.worker) this.start();
    return new Promise((resolve) => {
      let results = 0;
      const expire = () => {
        this.worker?.terminate();
        this.worker = null;
        end('deadline reached before the search finished', 'deadline'); // the module's words
      };
      // The deadline runs from when the module reads the request (a fresh
      // worker first starts Go's runtime); until then, startupLimit.
      let timer = setTimeout(expire, Math.max(deadline, startupLimit) + deadlineGrace);
      const end = (message, code = 'internal') => {
        if (!this.call) return;
        this.call = null;
        clearTimeout(timer);
        this.worker?.terminate();
        this.worker = null;
        onLine(Buffer.from(JSON.stringify({
          id,
          done: {
            status: 'partial',
            error: { code, message },
            results,
            truncated: false,
            skipped: { binary: 0, too_large: 0, unreadable: 0, symlink: 0, special: 0, ignored: 0, hidden: 0, denied: 0 },
            stats: { dirs: 0, files: 0, files_read: 0, bytes_read: 0 },
          },
        }) + '\n'));
        resolve();
      };
      this.call = {
        reading: () => {
          clearTimeout(timer);
          timer = setTimeout(expire, deadline + deadlineGrace);
        },
        onLine: (l, written) => {
          if (l.includes('","item":{') && !JSON.parse(l).item.context) results++; // context lines are not results
          onLine(l, written);
          if (l.includes('","done":{')) {
            this.call = null;
            clearTimeout(timer);
            resolve();
          }
        },
        end,
      };
      this.feed(line);
    });
  }

  close() {
    if (this.worker) {
      Atomics.store(this.ctl, 0, CLOSED);
      Atomics.notify(this.ctl, 0);
    }
  }
}

/** lines yields stdin's lines (Buffers ending in '\n'), each cut to MAX_LINE + 1 bytes. */
async function* lines(stream) {
  const NL = Buffer.from('\n');
  let parts = [], len = 0;
  const take = (piece) => {
    const room = MAX_LINE + 1 - len;
    if (room > 0) parts.push(room < piece.length ? piece.subarray(0, room) : piece);
    len += piece.length;
  };
  for await (const chunk of stream) {
    let rest = chunk;
    for (let nl = rest.indexOf(10); nl >= 0; nl = rest.indexOf(10)) {
      take(rest.subarray(0, nl));
      rest = rest.subarray(nl + 1);
      yield Buffer.concat([...parts, NL]);
      parts = [];
      len = 0;
    }
    take(rest);
  }
  if (len > 0) yield Buffer.concat([...parts, NL]);
}

function parseDuration(s) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(s ?? '');
  if (!m) usage(`bad duration ${s}: want e.g. 500ms, 20s, 1m`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60000 }[m[2]];
}

// lengthOfTime reads fd's lengths of time ("10min", "2h", "3d", "1w") in seconds.
function lengthOfTime(s) {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(s ?? '');
  const units = { s: 1, sec: 1, second: 1, seconds: 1, m: 60, min: 60, mins: 60, minute: 60, minutes: 60, h: 3600, hour: 3600, hours: 3600,
    d: 86400, day: 86400, days: 86400, w: 604800, week: 604800, weeks: 604800 };
  if (!m || !units[m[2].toLowerCase()]) usage(`bad length of time ${s}: want e.g. 10min, 2h, 3d, 1w`);
  return Number(m[1]) * units[m[2].toLowerCase()];
}

function usage(msg) {
  if (msg) process.stderr.write(`rootbound: ${msg}\n`);
  const spell = (t) => FLAGS[t].flags.map((f) => (f.short ? `-${f.short}|` : '') + `--${f.long}` +
    (f.arg ? ' ' + f.arg : '')).join(' ');
  process.stderr.write('usage: rootbound.mjs glob [FLAG...] PATTERN [DIR] | grep [FLAG...] (PATTERN | -e PATTERN ...) [DIR] | read [FLAG...] PATH[:A[-B]] | list [FLAG...] [DIR] | serve --root NAME=DIR ...\n' +
    `glob: ${spell('glob')} --timeout 60s\ngrep: ${spell('grep')} -n -e PATTERN --timeout 60s\nread: ${spell('read')} --timeout 60s\nlist: ${spell('list')} --timeout 60s\n`);
  process.exit(2);
}

// The flags of the four commands come from the one table of options
// (internal/options, which generates flags.json); --timeout, -n and -e are
// this command's own.
const FLAGS = JSON.parse(fs.readFileSync(path.join(here, 'flags.json'), 'utf8'));

// parseFlags reads a command's arguments: the table's flags set options of
// req, --timeout the call's timeout, own(a, next) takes the command's own
// flags (true when it took a), and the rest are positional.
function parseFlags(tool, argv, req, own = () => false) {
  const byName = new Map();
  for (const f of FLAGS[tool].flags) {
    byName.set('--' + f.long, f);
    if (f.short) byName.set('-' + f.short, f);
  }
  const pos = [];
  let timeoutMs = 60000;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const f = byName.get(a);
    if (f) {
      if (f.value !== undefined) req[f.option] = f.value;
      else if (f.kind === 'bool') req[f.option] = true;
      else {
        let v = argv[++i];
        if (f.map) {
          v = f.map[v];
          // fd -t x: the Go command reads permission bits on the host; this one does not.
          if (v === undefined || v === 'executable') usage(`${a} ${argv[i]}: want one of ${Object.keys(f.map).filter((k) => f.map[k] !== 'executable').join(', ')}`);
        }
        if (f.duration) v = Math.ceil(lengthOfTime(v));
        if (f.kind === 'int') req[f.option] = Number(v);
        else if (f.kind === 'list' || f.kind === 'array') (req[f.option] ??= []).push(v);
        else req[f.option] = v;
      }
    } else if (own(a, () => argv[++i])) continue;
    else if (a === '--timeout') timeoutMs = parseDuration(argv[++i]);
    else if (a.startsWith('-') && a !== '-') usage(`unknown flag ${a}`);
    else pos.push(a);
  }
  return { pos, timeoutMs };
}

async function search(tool, argv) {
  const req = { pattern: undefined, ...FLAGS[tool].defaults };
  const regexps = [];
  // As rg: line numbers on a terminal, or with -n.
  const style = { filename: true, lineNumbers: Boolean(process.stdout.isTTY) };
  let caseSensitive = false;
  const { pos, timeoutMs } = parseFlags(tool, argv, req, (a, next) => {
    if (tool === 'grep' && (a === '-n' || a === '--line-number')) style.lineNumbers = true;
    else if (tool === 'grep' && (a === '-N' || a === '--no-line-number')) style.lineNumbers = false;
    else if (tool === 'grep' && (a === '-e' || a === '--regexp')) regexps.push(next());
    else if (tool === 'glob' && (a === '-s' || a === '--case-sensitive')) caseSensitive = true;
    else return false;
    return true;
  });
  if (regexps.length) pos.unshift(regexps[0]); // as rg: with -e, the argument is the path
  if (regexps.length > 1) req.patterns = regexps.slice(1);
  if (pos.length < 1 || pos.length > 2) usage('want PATTERN [DIR]');
  req.pattern = pos[0];
  // As fd: a glob pattern without an upper-case letter ignores case, unless -s.
  if (tool === 'glob' && !caseSensitive && !/\p{Lu}/u.test(req.pattern)) req.case_insensitive = true;
  const dir = pos[1] ?? '.';
  const prefix = pos.length === 2 ? dir.replace(/\/+$/, '') + '/' : '';
  try {
    if (!fs.statSync(dir).isDirectory()) usage(`${dir}: not a directory`);
  } catch (e) {
    usage(`${dir}: ${e.code}`);
  }
  const host = new ModuleHost([['/workspace', path.resolve(dir)]], timeoutMs);
  const line = JSON.stringify({ v: 1, id: '1', [tool]: req, limits: { deadline_ms: timeoutMs } }) + '\n';
  let found = 0, failed = false;
  const out = [];
  await host.request(Buffer.from(line), (raw, written) => {
    written?.();
    const l = JSON.parse(raw.toString('utf8'));
    if (l.item) {
      if (!l.item.context) found++;
      out.push(print.item(prefix, l.item, style));
      if (out.length >= 1024) process.stdout.write(out.splice(0).join(''));
    } else if (l.problem) {
      process.stderr.write(print.problem(prefix, l.problem));
    } else if (l.done) {
      if (l.done.skipped?.unreadable || l.done.error) failed = true; // as rg: a file that could not be read is exit 2
      process.stderr.write(print.notices(prefix, l.done));
      if (!l.done.results) process.stderr.write(print.leftOut(l.done.skipped, MAX_FILE_SIZE_MIB)); // as rg: said only when nothing was found
    }
  });
  host.close();
  if (out.length) process.stdout.write(out.join(''));
  process.exitCode = failed ? 2 : found ? 0 : 1;
}

// readList runs read (a file's lines, numbered as cat -n numbers them: all
// of them, in as many calls as they take, unless PATH:A-B, --offset or -n
// say otherwise) or list (a directory's entries), as the Go command does.
async function readList(tool, argv) {
  const req = { ...FLAGS[tool].defaults };
  const { pos, timeoutMs } = parseFlags(tool, argv, req);
  if (pos.length > 1 || (tool === 'read' && pos.length === 0)) usage(tool === 'read' ? 'read: want PATH' : 'list: want at most one DIR');
  let arg = pos[0] ?? '.';
  let want = req.limit ?? 0;
  const range = /^(.+):([0-9]{1,9})(?:-([0-9]{1,9}))?$/.exec(arg);
  if (tool === 'read' && range && !fs.existsSync(arg)) {
    arg = range[1];
    req.offset = Number(range[2]);
    if (range[3]) want = Number(range[3]) - req.offset + 1;
  }
  let st;
  try {
    st = fs.statSync(arg);
  } catch (e) {
    usage(`${arg}: ${e.code}`);
  }
  let root = arg, prefix = pos.length ? arg.replace(/\/+$/, '') + '/' : '';
  if (!st.isDirectory()) {
    if (!st.isFile()) usage(`${arg}: neither a directory nor a regular file`);
    root = path.dirname(arg);
    req.path = path.basename(arg);
    prefix = arg.slice(0, arg.length - req.path.length);
  } else if (tool === 'read') {
    process.stderr.write(`rootbound read: ${arg} is a directory: rootbound list ${arg} lists it\n`);
    process.exit(2);
  }
  const host = new ModuleHost([['/workspace', path.resolve(root)]], timeoutMs);
  const style = { filename: true, numbered: tool === 'read' };
  let found = 0, done;
  const out = [];
  for (;;) {
    if (tool === 'read') {
      req.limit = want ? Math.min(want - found, 2000) : 2000;
      req.max_bytes = 1 << 20;
    }
    const line = JSON.stringify({ v: 1, id: '1', [tool]: req, limits: { deadline_ms: timeoutMs } }) + '\n';
    await host.request(Buffer.from(line), (raw, written) => {
      written?.();
      const l = JSON.parse(raw.toString('utf8'));
      if (l.item) {
        found++;
        out.push(print.item(prefix, l.item, style));
        if (out.length >= 1024) process.stdout.write(out.splice(0).join(''));
      } else if (l.problem) {
        process.stderr.write(print.problem(prefix, l.problem));
      } else if (l.done) done = l.done;
    });
    if (tool !== 'read' || !done.truncated || done.error || (want && found >= want)) break;
    req.offset = done.next_offset;
  }
  host.close();
  if (out.length) process.stdout.write(out.join(''));
  if (tool === 'read' && want && found < want) done.truncated = false;
  process.stderr.write(print.notices(prefix, done));
  if (!found) process.stderr.write(print.leftOut(done.skipped, MAX_FILE_SIZE_MIB));
  process.exitCode = done.error || done.skipped?.unreadable ? 2 : found ? 0 : 1;
}

async function serve(rest) {
  const roots = [];
  let timeoutMs = 20000;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--timeout') {
      timeoutMs = parseDuration(rest[++i]);
      continue;
    }
    if (rest[i] !== '--root' || !rest[i + 1]?.includes('=')) usage(`serve: unexpected ${rest[i]}`);
    const [name, dir] = rest[++i].split(/=(.*)/s);
    roots.push([name, path.resolve(dir)]);
  }
  if (!roots.length) usage('serve: no --root');
  const host = new ModuleHost(roots, timeoutMs);
  for await (const line of lines(process.stdin)) {
    if (/^[ \t\r\n]*$/.test(line.toString('latin1'))) continue; // as the module skips blank lines
    await host.request(line, (l, written) => process.stdout.write(l, written));
  }
  host.close();
}

if (!isMainThread) {
  await workerMain();
} else {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === 'glob' || cmd === 'grep') await search(cmd, rest);
  else if (cmd === 'read' || cmd === 'list') await readList(cmd, rest);
  else if (cmd === 'serve') await serve(rest);
  else usage(cmd ? `unknown command ${cmd}` : '');
}
