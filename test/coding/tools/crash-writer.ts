// Child process for the crash tests: rewrites one file atomically, forever, alternating between
// two large contents, until it is killed. A third argument records its temp files there.
import { atomicWrite } from '../../../src/coding/tools/fs-util.js';

const [file, sizeText, pendingWrites] = process.argv.slice(2);
const size = Number(sizeText);
const contents = [Buffer.alloc(size, 'A'), Buffer.alloc(size, 'B')];
let i = 0;
process.stdout.write('ready\n');
for (;;) {
  await atomicWrite(file, contents[i++ % 2], { pendingWrites });
}
