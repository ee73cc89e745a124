// One build at a time per checkout: two `npm test` (or `npm start` beside `npm test`) started together would
// otherwise both find dist/ stale and build it at once, and `nest build` empties dist/ under the other run's
// server processes. The lock is a directory (mkdir is atomic) holding the owner's pid; a lock whose owner has
// died is taken over. Whoever waited checks staleness again after it gets the lock, so the build runs once.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const WAIT_MS = 10 * 60_000;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Takes the lock `name` under <root>/.cache/ (waiting for another build); returns the function that releases it. */
function acquire(root, name) {
  const dir = path.join(root, '.cache', `${name}.lock`);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const until = Date.now() + WAIT_MS;
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let owner = NaN;
      try {
        owner = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
      } catch {
        /* being written or removed: look again */
      }
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
        fs.rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > until) throw new Error(`${dir} held by process ${owner} for over ${WAIT_MS / 60_000} minutes`);
      if (!told) process.stderr.write(`waiting for another build (${path.relative(root, dir)})\n`);
      told = true;
      sleep(200);
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', release);
  return release;
}

module.exports = { acquire };
