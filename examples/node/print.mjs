// The Node host's printer: what `rootbound glob` and `rootbound grep` print,
// by the same rules as the Go printer (host/internal/printer), which a test
// holds this to on the conformance corpus (node_test.go, TestPrinterAgrees).

import { quotePath, escapeLine } from './escape.mjs';

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

/** item is the text of a result or context line: "--" first where the module marked a break. */
export function item(prefix, it) {
  const p = quotePath(joined(prefix, it.path));
  if (it.line_number) {
    const sep = it.context ? '-' : ':';
    // No text: a line over max_columns, as rg -M prints it.
    const text = it.text ? escapeLine(data(it.text)) : it.context ? '[Omitted long context line]' : '[Omitted long matching line]';
    return `${it.break ? '--\n' : ''}${p}${sep}${it.line_number}${sep}${text}\n`;
  }
  if (it.count) return `${p}:${it.count}\n`;
  return p + '\n';
}

/** problem is the stderr line of a path that could not be read. */
export function problem(prefix, pr) {
  return `rootbound: ${quotePath(joined(prefix, pr.path))}: ${pr.message}\n`;
}

/** notices is what goes to stderr once a call is done, besides its problems. */
export function notices(prefix, done, maxSizeMiB) {
  const s = done.skipped ?? {};
  let out = '';
  if (s.too_large) out += `rootbound: ${s.too_large} ${plural(s.too_large, 'file', 'files')} over ${maxSizeMiB} MiB not searched (--max-filesize raises the cap)\n`;
  if (s.ignored) out += `rootbound: ${s.ignored} ${plural(s.ignored, 'path', 'paths')} left out by ignore files (--no-ignore includes them)\n`;
  if (s.hidden) out += `rootbound: ${s.hidden} hidden ${plural(s.hidden, 'path', 'paths')} left out\n`;
  if (done.ignored_by) out += `rootbound: ${quotePath(prefix.replace(/\/$/, ''))} is ignored (${escapeLine(done.ignored_by)}), searched because it was named\n`;
  if (done.truncated) {
    out += `rootbound: truncated at ${done.results} results: narrow the pattern or the path, raise --max-results, or pass --offset ${done.next_offset ?? 0} for the next page\n`;
  }
  if (done.error) out += `rootbound: ${done.error.code}: ${done.error.message}\n`;
  return out;
}
