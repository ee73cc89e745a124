// The newest modification time under a file or folder (node_modules and dot-entries left out), for the
// build scripts' "is it stale?" checks.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

function newest(p, skip = new Set()) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const e of fs.readdirSync(p)) {
    if (e === 'node_modules' || e.startsWith('.') || skip.has(path.join(p, e))) continue;
    max = Math.max(max, newest(path.join(p, e), skip));
  }
  return max;
}

module.exports = { newest };
