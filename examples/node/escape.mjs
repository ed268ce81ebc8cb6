// The one escaping rule of every rootbound text output (the Go host's is
// host/internal/escape, whose package comment states it;
// testdata/escape/cases.json holds both to it): C0 and C1 controls, DEL,
// Unicode format characters (bidi controls, zero-width characters, the BOM),
// line and paragraph separators, spaces other than " ", characters that
// render blank (Hangul fillers, the blank Braille pattern), variation
// selectors, look-alikes of ":" and "/", a combining mark with nothing to combine
// with (first, or after a space, a tab, "/" or an escaped character) or
// past the fourth in a row, and bytes that are not UTF-8 are written as
// escapes (\t \n \r, \xNN, \uNNNN, \UNNNNNNNN, lower-case hex); a path is
// printed as it is only when it needs no escape and holds no double quote,
// backslash, colon, tab, dash but "-" or "-N-", is not "--", does not start
// with "[", does not end in a remark in parentheses and does not start or
// end with a space; otherwise it is
// double-quoted, with " and \ escaped too.

const FORMAT = /^[\p{Cf}\p{Zl}\p{Zp}\p{Zs}]$/u;
const MARK = /^[\p{Mn}\p{Me}]$/u;
const DASH = /[\p{Pd}\u2212]/u;
const SPECIAL = new Set([
  0x115f, 0x1160, 0x3164, 0xffa0, 0x2800, // blank Hangul fillers, the blank Braille pattern
  0x02d0, 0x02f8, 0x0589, 0x05c3, 0x0703, 0x0704, 0x16ec, 0x1803, 0x1809, 0x205a, 0x2236, // look-alikes of ":"
  0xa4fd, 0xa789, 0xfe13, 0xfe30, 0xfe55, 0xff1a,
  0x1735, 0x2044, 0x2215, 0x29f8, 0x2f03, 0xff0f, 0x1d23a, // look-alikes of "/"
]);
const MAX_MARKS = 4;

// always: escaped wherever it stands.
function always(cp) {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return true;
  if (cp < 0x80) return false;
  const ch = String.fromCodePoint(cp);
  return FORMAT.test(ch) || SPECIAL.has(cp) || (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xe0100 && cp <= 0xe01ef) || (cp >= 0x180b && cp <= 0x180f);
}

// scanner decides rune by rune what is escaped; a combining mark depends
// on what came before it.
function scanner() {
  let prev = -1, prevEscaped = false, marks = 0;
  return (r) => {
    const mark = r.bad === undefined && MARK.test(String.fromCodePoint(r.cp));
    let esc;
    if (r.bad !== undefined) esc = true;
    else if (mark) {
      esc = always(r.cp) || prev < 0 || prevEscaped || prev === 0x20 || prev === 0x09 || prev === 0x2f || marks >= MAX_MARKS;
    } else esc = always(r.cp);
    marks = mark ? marks + 1 : 0;
    prev = r.bad === undefined ? r.cp : 0xfffd;
    prevEscaped = esc;
    return esc;
  };
}

// runes decodes UTF-8 as Go does: each byte of an invalid sequence is
// {bad: byte}.
function* runes(buf) {
  for (let i = 0; i < buf.length;) {
    const b = buf[i];
    let n = 0, cp = 0, lo = 0x80, hi = 0xbf;
    if (b < 0x80) { yield { cp: b, bytes: buf.subarray(i, i + 1) }; i++; continue; }
    if (b >= 0xc2 && b <= 0xdf) { n = 1; cp = b & 0x1f; } else if (b >= 0xe0 && b <= 0xef) {
      n = 2; cp = b & 0x0f;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 3; cp = b & 0x07;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else { yield { bad: b }; i++; continue; }
    let ok = true;
    for (let k = 1; k <= n; k++) {
      const c = buf[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) { ok = false; break; }
      cp = (cp << 6) | (c & 0x3f);
    }
    if (!ok) { yield { bad: b }; i++; continue; }
    yield { cp, bytes: buf.subarray(i, i + n + 1) };
    i += n + 1;
  }
}

const hex = (n, w) => n.toString(16).padStart(w, '0');

function write(buf, quoted) {
  let out = '';
  const escape = scanner();
  for (const r of runes(buf)) {
    const esc = escape(r);
    if (r.bad !== undefined) { out += '\\x' + hex(r.bad, 2); continue; }
    const cp = r.cp;
    if (cp === 0x09 && !quoted) out += '\t';
    else if (quoted && (cp === 0x22 || cp === 0x5c)) out += '\\' + String.fromCodePoint(cp);
    else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (esc && cp < 0x100) out += '\\x' + hex(cp, 2);
    else if (esc && cp < 0x10000) out += '\\u' + hex(cp, 4);
    else if (esc) out += '\\U' + hex(cp, 8);
    else out += r.bytes.toString('utf8');
  }
  return out;
}

function hazardous(buf) {
  const escape = scanner();
  for (const r of runes(buf)) if (escape(r) && r.cp !== 0x09) return true;
  return false;
}

const asBuffer = (s) => (Buffer.isBuffer(s) ? s : Buffer.from(s, 'utf8'));

/** quotePath prints a path (a string, or a Buffer of raw bytes). */
export function quotePath(p) {
  const buf = asBuffer(p);
  const s = buf.toString('utf8');
  const quote = buf.length === 0 || s === '--' || hazardous(buf) || /["\\:\t]/.test(s) || /-[0-9]+-/.test(s) ||
    DASH.test(s.replaceAll('-', '')) || s.startsWith('[') || s.startsWith(' ') || s.endsWith(' ') ||
    (s.endsWith(')') && s.includes(' (')); // a remark, as a link not followed is marked
  return quote ? '"' + write(buf, true) + '"' : s;
}

/**
 * shownPath prints a path as a person at a terminal reads it: as it is, as
 * rg and fd show names, unless it holds a character to escape (escape.Shown).
 */
export function shownPath(p) {
  const buf = asBuffer(p);
  return hazardous(buf) ? '"' + write(buf, true) + '"' : buf.toString('utf8');
}

/** escapeLine prints a line's text (a string, or a Buffer of raw bytes). */
export function escapeLine(l) {
  const buf = asBuffer(l);
  return hazardous(buf) ? write(buf, false) : buf.toString('utf8');
}

// CONTROL: what breaksLine (escape.Piped) quotes a path for, beside C0,
// DEL and C1: format characters, line and paragraph separators.
const CONTROL = /^[\p{Cf}\p{Zl}\p{Zp}]$/u;
const breaksLine = (cp) => cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x80 && CONTROL.test(String.fromCodePoint(cp)));
const NAMED = { 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r' };
const octal = (b) => '\\' + b.toString(8).padStart(3, '0');

/**
 * pipedPath prints a path in a list of paths a line, to a pipe
 * (escape.Piped): its bytes (a Buffer) as they are, unless it holds a
 * character that could break its line or reorder it, a double quote or a
 * backslash; then double-quoted as git's core.quotePath quotes a name.
 */
/**
 * pipedLinePath prints a path before a line's text or a count, to a pipe
 * (escape.PipedLine): as pipedPath, and quoted too when it holds a colon,
 * which would end the path early for a reader of "path:N:text".
 */
export function pipedLinePath(p) {
  const buf = asBuffer(p);
  return buf.includes(0x3a) ? quoteGit(buf) : pipedPath(buf);
}

export function pipedPath(p) {
  const buf = asBuffer(p);
  const rs = [...runes(buf)];
  if (!rs.some((r) => r.bad === undefined && (breaksLine(r.cp) || r.cp === 0x22 || r.cp === 0x5c))) return buf;
  return quoteGit(buf);
}

/** quoteGit double-quotes a name as git's core.quotePath quotes it (pipedPath). */
function quoteGit(buf) {
  const rs = [...runes(buf)];
  let out = '"';
  for (const r of rs) {
    if (r.bad !== undefined) out += octal(r.bad);
    else if (r.cp === 0x22 || r.cp === 0x5c) out += '\\' + String.fromCodePoint(r.cp);
    else if (NAMED[r.cp]) out += '\\' + NAMED[r.cp];
    else if (breaksLine(r.cp)) out += [...r.bytes].map(octal).join('');
    else out += r.bytes.toString('utf8');
  }
  return Buffer.from(out + '"', 'utf8');
}
