// Child process for the crash test: rewrites one file atomically, forever, alternating between
// two large contents, until it is killed.
import { atomicWrite } from '../../../src/coding/tools/fs-util.js';

const [file, sizeText] = process.argv.slice(2);
const size = Number(sizeText);
const contents = [Buffer.alloc(size, 'A'), Buffer.alloc(size, 'B')];
let i = 0;
process.stdout.write('ready\n');
for (;;) {
  await atomicWrite(file, contents[i++ % 2]);
}
