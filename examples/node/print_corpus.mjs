// Prints answer lines (a conformance case's expected.jsonl, the file named
// by the first argument) as the Node host prints answers, each after a line
// "=== ID": the Go printer's test (host/internal/printer) compares the two.
import fs from 'node:fs';
import * as print from './print.mjs';

const MAX_FILE_SIZE_MIB = 8;
let out = '', id = null, stdout = '', stderr = '';
for (const raw of fs.readFileSync(process.argv[2], 'utf8').split('\n')) {
  if (!raw) continue;
  const l = JSON.parse(raw);
  if (l.id !== id) {
    id = l.id;
    stdout = stderr = '';
  }
  if (l.item) stdout += print.item('', l.item);
  else if (l.problem) stderr += print.problem('', l.problem);
  else if (l.done) {
    const left = l.done.results === 0 ? print.leftOut(l.done.skipped, MAX_FILE_SIZE_MIB) : '';
    out += `=== ${l.id}\n${stdout}${stderr}${print.notices('', l.done)}${left}`;
  }
}
process.stdout.write(out);
