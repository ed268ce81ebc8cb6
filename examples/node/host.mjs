// The Node.js host of the rootbound module: the same module as the Go host,
// run by node:wasi in a worker thread. rootbound.mjs is its command; a
// program imports this file (the npm package's main; types in host.d.ts):
//
//   import { Rootbound } from 'rootbound';
//   const rb = new Rootbound({ '/workspace': '/path/to/repo' });
//   const { items, done } = await rb.grep({ pattern: 'TODO', output_mode: 'content' });
//   rb.close();
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
// every open is non-blocking and stays so (a FIFO swapped in after the
// check cannot hang it; the module checks the type of what it opened before
// reading; a regular file that waits for data, as /proc/kmsg, is
// unreadable); write
// rights are masked and every call that would change the tree fails with
// EROFS. A check before an open cannot stop a tree that changes between the
// two (a directory swapped for a symlink at that instant): for trees an
// attacker can change while a search runs, use the wazero or wasmtime host.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, workerData, parentPort } from 'node:worker_threads';

const here = path.dirname(fileURLToPath(import.meta.url));
// The module: beside this file in the npm package, in host/ in a checkout.
const modulePath = [path.join(here, 'rootbound.wasm'), path.join(here, '..', '..', 'host', 'rootbound.wasm')]
  .find((p) => fs.existsSync(p));

// The protocol's bound on a request line (protocol.MaxLineBytes): a
// longer line is cut to one byte over it, which the module then refuses
// with the same answer every host gives.
const MAX_LINE = 1 << 20;
// The module's default file size cap (protocol.DefaultMaxFileSize), which
// this host does not change.
export const MAX_FILE_SIZE_MIB = 8;
// How long past a request's deadline the module has to answer by itself
// before its worker is terminated. The module looks at its clock at least
// every millisecond or so of work.
const deadlineGrace = 30;
// How long a fresh worker may take to start the module and read a request.
const startupLimit = 10000;

// WASI preview 1 numbers.
const E = { ACCES: 2, BADF: 8, LOOP: 32, NOENT: 44, NOTCAPABLE: 76, NOTSUP: 58, ROFS: 69 };
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
    // What it opened stays non-blocking: the module makes a file blocking
    // when a read says EAGAIN (a WASI 0.2 stream), and a file that says it
    // is regular but waits for data (/proc/kmsg) would then hold the
    // worker's thread in a read no terminate() can stop, and the process
    // could never exit. Refused, the read says EAGAIN, and the module
    // reports the file as unreadable, as on wazero.
    imports.fd_fdstat_set_flags = (fd, flags) =>
      g.fds.has(fd) && !(flags & FDFLAG_NONBLOCK) ? E.NOTSUP : orig.fd_fdstat_set_flags(fd, flags);
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
    if (real.split(path.sep).some((c) => c.toLowerCase() === '.git')) throw new Error(`root ${name}: ${dir} is inside .git, which is never read`);
    return [name, real];
  });
}

/** ModuleHost runs the module in a worker and answers one request at a time. */
export class ModuleHost {
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
      workerData: { rootboundWorker: true, roots: this.roots, module: this.module, channel: this.channel },
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
export async function* lines(stream) {
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

/**
 * Rootbound makes calls on one module instance: the protocol's requests
 * (PROTOCOL.md), one at a time, in the order they are made.
 */
export class Rootbound {
  /**
   * roots: each root's name (as paths in calls and results name it, e.g.
   * "/workspace") and its directory; the first is the default. A string
   * is one root named "/workspace".
   */
  constructor(roots, { timeoutMs = 20000 } = {}) {
    const list = typeof roots === 'string' ? [['/workspace', roots]] : Object.entries(roots);
    if (!list.length) throw new Error('rootbound: no root');
    this.host = new ModuleHost(list.map(([name, dir]) => [name, path.resolve(dir)]), timeoutMs);
    this.queue = Promise.resolve();
    this.ids = 0;
  }

  /** call runs one request of tool with args; it resolves to its items, problems and done. */
  call(tool, args = {}, { deadlineMs } = {}) {
    const id = String(++this.ids);
    const req = { v: 1, id, [tool]: args };
    if (deadlineMs) req.limits = { deadline_ms: deadlineMs };
    const run = async () => {
      const answer = { items: [], problems: [], done: undefined };
      await this.host.request(Buffer.from(JSON.stringify(req) + '\n'), (raw, written) => {
        written?.();
        const l = JSON.parse(raw.toString('utf8'));
        if (l.item) answer.items.push(l.item);
        else if (l.problem) answer.problems.push(l.problem);
        else if (l.done) answer.done = l.done;
      });
      return answer;
    };
    const p = this.queue.then(run);
    this.queue = p.catch(() => {});
    return p;
  }

  glob(args, opts) { return this.call('glob', args, opts); }
  grep(args, opts) { return this.call('grep', args, opts); }
  read(args, opts) { return this.call('read', args, opts); }
  list(args, opts) { return this.call('list', args, opts); }

  /** close ends the module's worker once the calls made have answered. */
  close() {
    return this.queue.then(() => this.host.close());
  }
}

// In the module's worker thread, this file runs the module.
if (!isMainThread && workerData?.rootboundWorker) {
  // node:wasi warns that it is experimental on every run: not news to a user.
  const emit = process.emitWarning;
  process.emitWarning = (w, ...rest) => (String(w).includes('WASI') ? undefined : emit.call(process, w, ...rest));
  await workerMain();
}
