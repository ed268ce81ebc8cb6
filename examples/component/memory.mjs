// memory.mjs IN OUT PAGES: copies the core module IN to OUT with its
// memory's initial size set to PAGES (64 KiB each), for the component.
//
// Why: the preview1 adapter keeps its state in pages it adds with
// memory.grow at the end of the module's initial memory, while Go's runtime
// takes the memory past its data as its own heap, and grows the memory
// without looking where the new pages went. Go's linker sizes the initial
// memory to the data plus 1 MiB, so the heap ran into the adapter's state
// as soon as it passed that: a module with more than about 2 MiB of data
// died at start, and a smaller one at its first large buffer or its second
// request. With a large initial memory the adapter's pages lie far above
// anything the heap reaches (the runtime reserves memory lazily: untouched
// pages cost nothing). RATIONALE.md tells the story.
import fs from 'node:fs';

const [input, output, pagesArg] = process.argv.slice(2);
const pages = Number(pagesArg);
if (!input || !output || !Number.isInteger(pages) || pages < 1 || pages > 65536) {
  process.stderr.write('usage: node memory.mjs IN OUT PAGES\n');
  process.exit(2);
}

const b = fs.readFileSync(input);
const leb = (i) => {
  let r = 0, s = 0, x;
  do {
    x = b[i++];
    r += (x & 0x7f) * 2 ** s;
    s += 7;
  } while (x & 0x80);
  return [r, i];
};
const enc = (v) => {
  const out = [];
  do {
    let x = v & 0x7f;
    v = Math.floor(v / 128);
    if (v) x |= 0x80;
    out.push(x);
  } while (v);
  return Buffer.from(out);
};

const parts = [b.subarray(0, 8)];
let found = false;
for (let i = 8; i < b.length;) {
  const id = b[i];
  const [size, start] = leb(i + 1);
  let body = b.subarray(start, start + size);
  if (id === 5) { // the memory section: one memory, no maximum
    const [n, k] = leb(start);
    if (n !== 1 || b[k] !== 0) throw new Error('memory.mjs: want one memory without a maximum');
    const [, rest] = leb(k + 1);
    body = Buffer.concat([enc(1), Buffer.from([0]), enc(pages), b.subarray(rest, start + size)]);
    found = true;
  }
  parts.push(Buffer.from([id]), enc(body.length), body);
  i = start + size;
}
if (!found) throw new Error('memory.mjs: no memory section');
fs.writeFileSync(output, Buffer.concat(parts));
