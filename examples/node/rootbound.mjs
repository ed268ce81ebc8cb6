#!/usr/bin/env node
// rootbound on Node.js: the same module as the Go host, run by node:wasi.
//
//   node examples/node/rootbound.mjs glob [FLAG...] PATTERN [DIR]
//   node examples/node/rootbound.mjs grep [FLAG...] (PATTERN | -e PATTERN ...) [PATH]
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
// The module's host (its worker, the checks on every path, deadlines) is
// host.mjs, which a program imports to make calls itself (host.d.ts).

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as print from './print.mjs';
import { quotePath } from './escape.mjs';
import { ModuleHost, lines, MAX_FILE_SIZE_MIB } from './host.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

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

// fail says what is wrong with an argument, in one line, as the Go command does.
// openHost is the module's host of the directory root, or the end of the
// command, said of PATH as it was given (named: what results are printed
// under), as the Go command says it: a directory in .git is never read.
function openHost(root, named, timeoutMs) {
  try {
    return new ModuleHost([['/workspace', path.resolve(root)]], timeoutMs);
  } catch (e) {
    if (/inside \.git/.test(e.message)) fail(`${quotePath(named || '.')} is inside .git, which is never read (it can hold credentials)`);
    fail(e.message);
  }
}

function fail(msg) {
  process.stderr.write(`rootbound: ${msg}\n`);
  process.exit(2);
}

function usage(msg) {
  if (msg) process.stderr.write(`rootbound: ${msg}\n`);
  const spell = (t) => [...FLAGS[t].flags, ...FLAGS[t].command.filter((c) => NODE_SETTINGS.has(c.setting))]
    .map((f) => (f.short ? `-${f.short}|` : '') + `--${f.long}` + (f.arg ? ' ' + f.arg : '')).join(' ');
  const tools = Object.keys(FLAGS).filter((t) => t !== 'generated');
  process.stderr.write('usage: ' + tools.map((t) => `rootbound.mjs ${t} ${FLAGS[t].synopsis}`).join(' | ') + ' | serve --root NAME=DIR ...\n' +
    tools.map((t) => `${t}: ${spell(t)}\n`).join(''));
  process.exit(2);
}

// The tools' commands and their flags come from the one table of options
// and the command's own flags (internal/options, which generates
// flags.json).
const FLAGS = JSON.parse(fs.readFileSync(path.join(here, 'flags.json'), 'utf8'));

// NODE_SETTINGS are the command's own settings (flags.json's command rows,
// the Go command's options.CommandFlags) this CLI acts on; a flag that sets
// another is the Go command's, and refused here as such.
const NODE_SETTINGS = new Set(['timeout', 'lineNumbers', 'regexps', 'caseSensitive', 'lineRegexp', 'fixed', 'files', 'null', 'noServer']);

// parseFlags reads a command's arguments: the table's flags set options of
// req, the command's own flags set settings (by the Go command's names:
// timeout in milliseconds), a flag of rg's or fd's the Go command refuses
// is refused in its words, and the rest are positional.
function parseFlags(tool, argv, req) {
  const byName = new Map(), own = new Map(), refused = new Map();
  for (const f of FLAGS[tool].flags) {
    byName.set('--' + f.long, f);
    if (f.short) byName.set('-' + f.short, f);
  }
  for (const c of FLAGS[tool].command) {
    const rows = c.effect === 'refused' ? refused : own;
    const key = (name) => (c.effect === 'refused' && c.value ? `${name} ${c.value}` : name);
    if (c.long) rows.set(key('--' + c.long), c);
    if (c.short) rows.set(key('-' + c.short), c);
  }
  const pos = [];
  const settings = { timeout: 60000 };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    const eq = /^(--[^=]+)=(.*)$/s.exec(a);
    if (eq && (byName.has(eq[1]) || own.has(eq[1]))) {
      argv = [...argv.slice(0, i), eq[1], eq[2], ...argv.slice(i + 1)];
      a = eq[1];
    }
    const no = refused.get(a) ? a : refused.get(`${a} ${argv[i + 1]}`) ? `${a} ${argv[i + 1]}` : undefined;
    if (no) {
      const c = refused.get(no);
      process.stderr.write(`rootbound ${tool}: ${tool === 'grep' ? 'rg' : 'fd'}'s ${no} (${c.what}) is not supported; instead: ${c.instead}\n`);
      process.exit(2);
    }
    const f = byName.get(a);
    const c = own.get(a);
    if (f) {
      if (f.value !== undefined) req[f.option] = f.kind === 'int' ? Number(f.value) : f.value;
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
    } else if (c) {
      if (c.effect !== 'accepted' && !NODE_SETTINGS.has(c.setting)) fail(`${tool}: ${a} is the Go command's (${c.help}); this Node CLI does not take it`);
      const takes = !['bool', 'tri', 'count'].includes(c.kind);
      const v = takes ? argv[++i] : undefined;
      if (!c.setting) continue;
      if (c.kind === 'bool') settings[c.setting] = true;
      else if (c.kind === 'tri') settings[c.setting] = c.value === 'true';
      else if (c.kind === 'count') settings[c.setting] = (settings[c.setting] ?? 0) + 1;
      else if (c.kind === 'list') (settings[c.setting] ??= []).push(v);
      else if (c.kind === 'duration') settings[c.setting] = parseDuration(v);
      else if (c.kind === 'int') settings[c.setting] = Number(v);
      else settings[c.setting] = v;
    } else if (a.startsWith('-') && a !== '-') usage(`unknown flag ${a}`);
    else pos.push(a);
  }
  return { pos, settings };
}

// quoteMeta quotes what a regular expression reads as syntax (Go's
// regexp.QuoteMeta).
const quoteMeta = (s) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');

// globQuote quotes what a glob reads as a wildcard or a class.
const globQuote = (s) => s.replace(/[\\*?[\]{}]/g, '\\$&');

// anyCaseGlob makes the letters of a glob match in any case, outside its
// [classes] and escapes (rg --iglob; the Go command's anyCaseGlob).
function anyCaseGlob(g) {
  const neg = g.startsWith('!');
  let out = '', cls = false, esc = false;
  for (const r of neg ? g.slice(1) : g) {
    const lo = r.toLowerCase(), up = r.toUpperCase();
    if (esc) esc = false;
    else if (r === '\\') esc = true;
    else if (cls) cls = r !== ']';
    else if (r === '[') cls = true;
    else if (lo !== up) {
      out += `[${lo}${up}]`;
      continue;
    }
    out += r;
  }
  return (neg ? '!' : '') + out;
}

// linkIn refuses a PATH with a link at any component, as the Go command
// does (its pathlinks.go): checked from the current directory down for a
// relative PATH, from / for one that is absolute or climbs out with ..; a
// link in a directory this user cannot write (the system's layout) is
// followed.
function linkIn(arg) {
  let p = path.normalize(arg);
  let at = '.', shown = '';
  if (path.isAbsolute(p) || p === '..' || p.startsWith('../')) {
    p = path.resolve(p);
    at = shown = '/';
  }
  const names = p.split('/').filter((n) => n && n !== '.');
  names.forEach((name, i) => {
    const dir = at;
    at = path.join(at, name);
    shown = path.join(shown, name);
    let st;
    try {
      st = fs.lstatSync(at);
    } catch {
      return;
    }
    if (!st.isSymbolicLink()) return;
    try {
      fs.accessSync(dir, fs.constants.W_OK);
    } catch {
      return; // the system's own layout
    }
    fail(`${arg}: ${i === names.length - 1 ? 'a link' : shown + ' is a link'}; no link is followed, at any component of a PATH: name what it points to`);
  });
}

// target reads a PATH: the root to mount, the file in it (undefined for a
// directory), and the prefix that makes result paths read as PATH does.
function target(arg, given) {
  linkIn(arg);
  let st;
  try {
    st = fs.statSync(arg);
  } catch (e) {
    fail(`${arg}: ${e.code}`);
  }
  if (st.isDirectory()) return { root: arg, prefix: given ? arg.replace(/\/+$/, '') + '/' : '' };
  if (!st.isFile()) fail(`${arg}: neither a directory nor a regular file`);
  const file = path.basename(arg);
  return { root: path.dirname(arg), file, prefix: arg.slice(0, arg.length - file.length) };
}

// limits are the command's: the call's deadline, and lines whole, as rg
// prints them (up to the file size cap), not cut for a model.
const limits = (timeoutMs) => ({ deadline_ms: timeoutMs, max_text_bytes: MAX_FILE_SIZE_MIB << 20 });

async function search(tool, argv) {
  let req = { pattern: undefined, ...FLAGS[tool].defaults };
  // As rg: line numbers on a terminal, or with -n.
  const tty = Boolean(process.stdout.isTTY);
  const style = { filename: true, lineNumbers: tty, grep: tool === 'grep' ? req : undefined };
  const { pos, settings } = parseFlags(tool, argv, req);
  const timeoutMs = settings.timeout;
  if (settings.lineNumbers !== undefined) style.lineNumbers = settings.lineNumbers;
  const regexps = settings.regexps ?? [];
  if (settings.files) {
    // rg --files: what grep would search, listed, as a glob of every file
    // through grep's filters (the Go command's).
    const g = { pattern: '*', glob: [...(req.glob ?? []), ...(req.iglob ?? []).map(anyCaseGlob)] };
    for (const k of ['type', 'type_not', 'sort', 'max_depth', 'no_ignore', 'hidden', 'max_results', 'offset']) if (req[k] !== undefined) g[k] = req[k];
    tool = 'glob';
    req = g;
    pos.unshift('*');
  }
  if (regexps.length) pos.unshift(regexps[0]); // as rg: with -e, the argument is the path
  if (regexps.length > 1) req.patterns = regexps.slice(1);
  if (pos.length < 1 || pos.length > 2) usage('want PATTERN [PATH]');
  req.pattern = pos[0];
  if (settings.lineRegexp) {
    // rg -x: a match is a whole line; a literal (-F) is quoted first.
    const whole = (p) => `^(?:${req.literal ? quoteMeta(p) : p})$`;
    req.pattern = whole(req.pattern);
    if (req.patterns) req.patterns = req.patterns.map(whole);
    delete req.literal;
  }
  if (tool === 'glob' && settings.fixed) req.pattern = `*${globQuote(req.pattern)}*`; // fd -F: a name holding the string
  // Names as the Go command prints them (its names()): output to a pipe is
  // a program's, names' bytes quoted only when one could break its line (or,
  // before a line's text, holds a colon); a terminal shows them as rg and fd do.
  style.names = tty ? 'shown' : 'piped';
  style.null = Boolean(settings.null);
  // As fd: a glob pattern without an upper-case letter ignores case, unless -s.
  if (tool === 'glob' && !settings.caseSensitive && !/\p{Lu}/u.test(pos[0])) req.case_insensitive = true;
  const { root, file, prefix } = target(pos[1] ?? '.', pos.length === 2);
  if (file !== undefined && tool === 'glob') fail(`${pos[1]}: not a directory`);
  if (file !== undefined) {
    req.path = file;
    style.filename = false; // as rg: one file searched, no name printed
  }
  const host = openHost(root, prefix + (file ?? ''), timeoutMs);
  // As fd -0 prints the current directory's entries: ./ first.
  const shown = tool === 'glob' && style.null && prefix === '' ? './' : prefix;
  const line = JSON.stringify({ v: 1, id: '1', [tool]: req, limits: limits(timeoutMs) }) + '\n';
  let found = 0, failed = false;
  const out = [];
  await host.request(Buffer.from(line), (raw, written) => {
    written?.();
    const l = JSON.parse(raw.toString('utf8'));
    if (l.item) {
      if (!l.item.context) found++;
      out.push(print.item(shown, l.item, style));
      if (out.length >= 1024) process.stdout.write(print.joinOut(out.splice(0)));
    } else if (l.problem) {
      process.stderr.write(print.problem(prefix, l.problem));
    } else if (l.done) {
      if (l.done.skipped?.unreadable || l.done.error) failed = true; // as rg: a file that could not be read is exit 2
      process.stderr.write(print.notices(prefix, l.done));
      if (!l.done.results) process.stderr.write(print.leftOut(l.done.skipped, MAX_FILE_SIZE_MIB)); // as rg: said only when nothing was found
    }
  });
  host.close();
  if (out.length) process.stdout.write(print.joinOut(out));
  process.exitCode = failed ? 2 : found ? 0 : 1;
}

// readList runs read (a file's lines, numbered as cat -n numbers them: all
// of them, in as many calls as they take, unless PATH:A-B, --offset or -n
// say otherwise), list (a directory's entries), or any other tool of the
// table whose call is its options and one PATH, as the Go command does.
async function readList(tool, argv) {
  const req = { ...FLAGS[tool].defaults };
  const { pos, settings } = parseFlags(tool, argv, req);
  const timeoutMs = settings.timeout;
  const needsPath = tool === 'read' || tool === 'stat';
  if (pos.length > 1 || (needsPath && pos.length === 0)) usage(needsPath ? `${tool}: want one PATH` : `${tool}: want at most one PATH`);
  let arg = pos[0] ?? '.';
  let want = req.limit ?? 0;
  // PATH:A line A, PATH:A-B lines A to B, PATH:A- A to the end (the Go
  // command's lineRange).
  const range = /^(.+):([0-9]{1,9})(-([0-9]{1,9})?)?$/.exec(arg);
  let first = 0;
  if (tool === 'read' && range && !fs.existsSync(arg)) {
    arg = range[1];
    first = req.offset = Number(range[2]);
    const last = range[4] ? Number(range[4]) : range[3] ? 0 : first;
    if (first === 0) fail(`read: ${range[0]}: lines are numbered from 1`);
    if (last && last < first) fail(`read: ${range[0]}: the range ends before it starts (${arg}:${last}-${first} reads lines ${last} to ${first})`);
    if (last) want = last - first + 1;
  }
  const { root, file, prefix } = target(arg, pos.length > 0);
  if (file !== undefined) {
    req.path = file;
  } else if (tool === 'stat') {
    req.path = '.'; // a directory is the root: stat asks for the root itself
  } else if (tool === 'read') {
    process.stderr.write(`rootbound read: ${arg} is a directory: rootbound list ${arg} lists it\n`);
    process.exit(2);
  }
  const host = openHost(root, prefix + (file ?? ''), timeoutMs);
  const style = { filename: true, numbered: tool === 'read', names: process.stdout.isTTY ? 'shown' : 'model' };
  let found = 0, done;
  const out = [];
  for (;;) {
    if (tool === 'read') {
      req.limit = want ? Math.min(want - found, 2000) : 2000;
      req.max_bytes = 1 << 20;
    }
    const line = JSON.stringify({ v: 1, id: '1', [tool]: req, limits: limits(timeoutMs) }) + '\n';
    await host.request(Buffer.from(line), (raw, written) => {
      written?.();
      const l = JSON.parse(raw.toString('utf8'));
      if (l.item) {
        found++;
        out.push(print.item(prefix, l.item, style));
        if (out.length >= 1024) process.stdout.write(print.joinOut(out.splice(0)));
      } else if (l.problem) {
        process.stderr.write(print.problem(prefix, l.problem));
      } else if (l.done) done = l.done;
    });
    if (tool !== 'read' || !done.truncated || done.error || (want && found >= want)) break;
    req.offset = done.next_offset;
  }
  host.close();
  if (out.length) process.stdout.write(print.joinOut(out));
  if (tool === 'read' && want && found < want) done.truncated = false;
  if (tool === 'read' && !found && !done.error && first > (done.lines ?? 0)) {
    process.stderr.write(`rootbound read: ${prefix}${req.path} has ${done.lines ?? 0} lines; line ${first} is past its end\n`);
  }
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

// version is the Go command's `rootbound version`: the package's version
// (VERSION's: release/npm.go holds them equal), the protocol's, and the
// first bytes of the module's SHA-256.
function version() {
  const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
  const wasm = [path.join(here, 'rootbound.wasm'), path.join(here, '..', '..', 'host', 'rootbound.wasm')].find((p) => fs.existsSync(p));
  const sum = crypto.createHash('sha256').update(fs.readFileSync(wasm)).digest('hex').slice(0, 12);
  return `rootbound ${pkg.version} (protocol 1, module sha256 ${sum})\n`;
}

const [cmd, ...rest] = process.argv.slice(2);
// As the Go command: --version (-V) alone, or after any command.
if (['version', '--version', '-V'].includes(cmd) || (rest.length === 1 && ['--version', '-V'].includes(rest[0]))) process.stdout.write(version());
else if (cmd === 'glob' || cmd === 'grep') await search(cmd, rest);
else if (cmd !== 'generated' && FLAGS[cmd]) await readList(cmd, rest);
else if (cmd === 'serve') await serve(rest);
else usage(cmd ? `unknown command ${cmd}` : '');
