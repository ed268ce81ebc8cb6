// The Node host's printer: what `rootbound glob`, `grep`, `read` and `list` print,
// by the same rules as the Go printer (host/internal/printer), which a test
// holds this to on the conformance corpus (node_test.go, TestPrinterAgrees).

import { quotePath, shownPath, escapeLine, pipedPath, pipedLinePath } from './escape.mjs';

// data is a protocol data value: a string, or a Buffer of raw bytes.
export function data(d) {
  return d.text !== undefined ? d.text : Buffer.from(d.bytes, 'base64');
}

// joined is prefix + a data value, keeping raw bytes raw.
function joined(prefix, d) {
  const v = data(d);
  return Buffer.isBuffer(v) ? Buffer.concat([Buffer.from(prefix), v]) : prefix + v;
}

const plural = (n, one, many) => (n === 1 ? one : many);

/**
 * name prints a path for whom style.names says (printer.Names): 'piped'
 * its bytes (a Buffer), quoted only when one could break its line, for a
 * program reading a list a line; 'shown' as rg and fd show names, for a
 * person at a terminal; else so that it can never pass for a result or a
 * notice, for text a model may read.
 */
function name(p, names) {
  if (names === 'piped') return pipedPath(p);
  return names === 'shown' ? shownPath(p) : quotePath(p);
}

const asBytes = (p) => (Buffer.isBuffer(p) ? p : Buffer.from(p, 'utf8'));

/**
 * item is the text of a result or context line (a string; a Buffer where
 * a name is printed as its bytes): "--" first where the module marked a
 * break. style: the path and the line number before each line (rg -H, -n;
 * both by default, as a model reads results), and names.
 */
export function item(prefix, it, style = { filename: true, lineNumbers: true }) {
  if (style.null && !it.line_number && !it.kind && !it.count) {
    return Buffer.concat([asBytes(joined(prefix, it.path)), Buffer.from('\0')]); // -0: the name's bytes, a NUL after it
  }
  if (style.names === 'piped' && !it.line_number && !it.kind && !it.count) {
    return Buffer.concat([pipedPath(joined(prefix, it.path)), Buffer.from('\n')]);
  }
  if (style.numbered && it.line_number) {
    // A read's line, as cat -n numbers it.
    return `${String(it.line_number).padStart(6)}\t${it.text ? escapeLine(data(it.text)) : '[Omitted long line]'}\n`;
  }
  const own = prefix && it.path?.text === './'; // stat of the directory PATH names
  if ((style.names === 'piped' || style.null) && !it.kind && (it.line_number || it.count)) {
    // A line or a count to a pipe: the name's bytes (a Buffer), as the Go
    // printer's PipedLine; with -0 the bytes as they are, a NUL after them.
    const p = style.null ? asBytes(joined(prefix, it.path)) : pipedLinePath(joined(prefix, it.path));
    const after = (sep) => Buffer.from(style.null ? '\0' : sep);
    if (it.count && !it.line_number) return Buffer.concat([style.filename || style.null ? Buffer.concat([p, after(':')]) : Buffer.alloc(0), Buffer.from(`${it.count}\n`)]);
    const sep = it.context ? '-' : ':';
    const text = it.text ? preview(data(it.text), it, style.grep) : it.context ? '[Omitted long context line]' : '[Omitted long matching line]';
    const lead = Buffer.concat([style.filename ? Buffer.concat([p, after(sep)]) : Buffer.alloc(0), Buffer.from(style.lineNumbers ? it.line_number + sep : '')]);
    return Buffer.concat([Buffer.from(it.break ? '--\n' : ''), lead, Buffer.from(`${text}\n`)]);
  }
  const p = name(own ? prefix : joined(prefix, it.path), style.names === 'piped' ? 'model' : style.names);
  if (it.kind === 'file') {
    const bytes = it.size === 1 ? '1 byte' : `${it.size ?? 0} bytes`;
    if (it.count) return `${p} (${bytes}, ${it.count === 1 ? '1 line' : `${it.count} lines`})\n`; // stat's file: its lines too
    return `${p} (${bytes})\n`;
  }
  if (it.kind === 'symlink') return `${p} (symbolic link, not followed)\n`;
  if (it.line_number) {
    const sep = it.context ? '-' : ':';
    // No text: a line over max_columns, as rg -M prints it.
    const text = it.text ? preview(data(it.text), it, style.grep) : it.context ? '[Omitted long context line]' : '[Omitted long matching line]';
    const lead = (style.filename ? p + sep : '') + (style.lineNumbers ? it.line_number + sep : '');
    return `${it.break ? '--\n' : ''}${lead}${text}\n`;
  }
  if (it.count) return style.filename ? `${p}:${it.count}\n` : `${it.count}\n`;
  return p + '\n';
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * preview is a line's text, escaped: with grep's max_columns_preview, a line
 * longer than max_columns bytes is cut to its first max_columns characters
 * (grapheme clusters), as rg --max-columns-preview prints it (the Go
 * printer's preview).
 */
function preview(text, it, g) {
  const n = g?.max_columns ?? 0;
  if (!g?.max_columns_preview || n <= 0 || typeof text !== 'string' || Buffer.byteLength(text) <= n) return escapeLine(text);
  let cut = '', i = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (i++ === n) break;
    cut += segment;
  }
  if (it.context || !g.only_matching) return `${escapeLine(cut)} [... omitted end of long line]`;
  const end = Buffer.byteLength(cut);
  const more = (it.submatches ?? []).filter((m) => m.start >= end).length;
  return `${escapeLine(cut)} [... ${more === 1 ? '1 more match' : `${more} more matches`}]`;
}

/** problem is the stderr line of a path that could not be read. */
export function problem(prefix, pr) {
  return `rootbound: ${quotePath(joined(prefix, pr.path))}: ${pr.message}\n`;
}

/** notices is what goes to stderr once a call is done, besides its problems, whatever it found. */
export function notices(prefix, done) {
  let out = '';
  if (done.ignored_by) out += `rootbound: ${quotePath(prefix.replace(/\/$/, ''))} is ignored (${escapeLine(done.ignored_by)}), searched because it was named\n`;
  if (done.truncated && done.lines) {
    const lines = done.lines === 1 ? '1 line' : `${done.lines} lines`;
    out += `rootbound: the file has ${lines}; this printed up to line ${done.next_offset - 1}: --offset ${done.next_offset} reads on\n`;
  } else if (done.truncated) {
    const n = done.results === 1 ? '1 result' : `${done.results} results`;
    out += `rootbound: truncated at ${n}: narrow the pattern or the path, raise --max-results, or pass --offset ${done.next_offset ?? 0} for the next page\n`;
  }
  if (done.error) out += `rootbound: ${done.error.code}: ${done.error.message}\n`;
  return out;
}

/** leftOut is what a search passed over and why, a line each: said when nothing was found. */
export function leftOut(s = {}, maxSizeMiB) {
  const n = (k) => s[k] ?? 0;
  let out = '';
  if (n('too_large')) out += `rootbound: ${n('too_large')} ${plural(n('too_large'), 'file', 'files')} over ${maxSizeMiB} MiB not searched (--max-filesize raises the cap)\n`;
  if (n('binary')) out += `rootbound: ${n('binary')} binary ${plural(n('binary'), 'file', 'files')} not searched (-a searches them as text)\n`;
  if (n('ignored')) out += `rootbound: ${n('ignored')} ${plural(n('ignored'), 'path', 'paths')} left out by ignore files (--no-ignore includes them)\n`;
  if (n('hidden')) out += `rootbound: ${n('hidden')} hidden ${plural(n('hidden'), 'path', 'paths')} left out\n`;
  if (n('denied')) out += `rootbound: ${n('denied')} ${plural(n('denied'), 'path', 'paths')} denied by the root's policy\n`;
  if (n('symlink')) out += `rootbound: ${n('symlink')} symbolic ${plural(n('symlink'), 'link', 'links')} not followed\n`;
  if (n('special')) out += `rootbound: ${n('special')} special ${plural(n('special'), 'file', 'files')} (FIFOs, sockets, devices) not read\n`;
  return out;
}

/** joinOut joins printed items (strings and Buffers) into the bytes to write. */
export function joinOut(parts) {
  return Buffer.concat(parts.map((x) => (Buffer.isBuffer(x) ? x : Buffer.from(x, 'utf8'))));
}
