// The one escaping rule of every rootbound text output (the Go host's is
// host/internal/escape; testdata/escape/cases.json holds both to it):
// C0 and C1 controls, DEL, Unicode format characters (bidi controls,
// zero-width characters, the BOM), line and paragraph separators, and bytes
// that are not UTF-8 are written as escapes (\t \n \r, \xNN, \uNNNN,
// \UNNNNNNNN, lower-case hex); a path is printed as it is only when it
// needs no escape and holds no double quote, backslash, colon or tab, does
// not start with "[" and does not start or end with a space; otherwise it
// is double-quoted, with " and \ escaped too.

const FORMAT = /^[\p{Cf}\p{Zl}\p{Zp}]$/u;

function escaped(cp) {
  return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || FORMAT.test(String.fromCodePoint(cp));
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
  for (const r of runes(buf)) {
    if (r.bad !== undefined) { out += '\\x' + hex(r.bad, 2); continue; }
    const cp = r.cp;
    if (cp === 0x09 && !quoted) out += '\t';
    else if (quoted && (cp === 0x22 || cp === 0x5c)) out += '\\' + String.fromCodePoint(cp);
    else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (escaped(cp) && cp < 0x100) out += '\\x' + hex(cp, 2);
    else if (escaped(cp) && cp < 0x10000) out += '\\u' + hex(cp, 4);
    else if (escaped(cp)) out += '\\U' + hex(cp, 8);
    else out += r.bytes.toString('utf8');
  }
  return out;
}

function hazardous(buf) {
  for (const r of runes(buf)) if (r.bad !== undefined || (r.cp !== 0x09 && escaped(r.cp))) return true;
  return false;
}

const asBuffer = (s) => (Buffer.isBuffer(s) ? s : Buffer.from(s, 'utf8'));

/** quotePath prints a path (a string, or a Buffer of raw bytes). */
export function quotePath(p) {
  const buf = asBuffer(p);
  const s = buf.toString('utf8');
  const quote = buf.length === 0 || hazardous(buf) || /["\\:\t]/.test(s) || s.startsWith('[') || s.startsWith(' ') || s.endsWith(' ');
  return quote ? '"' + write(buf, true) + '"' : s;
}

/** escapeLine prints a line's text (a string, or a Buffer of raw bytes). */
export function escapeLine(l) {
  const buf = asBuffer(l);
  return hazardous(buf) ? write(buf, false) : buf.toString('utf8');
}
