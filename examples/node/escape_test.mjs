// Holds the Node printer to testdata/escape/cases.json, the table the Go
// printer is held to. Run by node_test.go; exits 1 on a difference.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { quotePath, escapeLine, pipedPath, pipedLinePath } from './escape.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { cases } = JSON.parse(fs.readFileSync(path.join(here, '..', '..', 'testdata', 'escape', 'cases.json'), 'utf8'));
let failed = 0;
for (const c of cases) {
  const input = c.in_base64 !== undefined ? Buffer.from(c.in_base64, 'base64') : c.in;
  const piped = pipedPath(input), pipedWant = c.piped !== undefined ? Buffer.from(c.piped, 'utf8') : Buffer.from(input);
  const lineWant = c.piped_line !== undefined ? Buffer.from(c.piped_line, 'utf8') : pipedWant;
  for (const [got, want, what] of [[quotePath(input), c.path, 'path'], [escapeLine(input), c.line, 'line'], [piped.equals(pipedWant), true, 'piped'],
    [pipedLinePath(input).equals(lineWant), true, 'piped_line']]) {
    if (got !== want) {
      failed++;
      process.stdout.write(`${c.name}: ${what} ${JSON.stringify(got)}, want ${JSON.stringify(want)}\n`);
    }
  }
}
process.stdout.write(`${cases.length} cases, ${failed} differences\n`);
process.exitCode = failed ? 1 : 0;
