// setupFiles of the unit tier (jest.config.js): a unit test starts no process and opens no socket
// (docs/development.md, "Test tiers"). Each call that would throws instead, naming the tier such a test belongs to.
'use strict';
const childProcess = require('node:child_process');
const net = require('node:net');

const refuse = (call) =>
  function refused() {
    throw new Error(`${call} in a unit test: the unit tier starts no process and opens no socket; such a test belongs in test/medium/ (docs/development.md, "Test tiers")`);
  };
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) childProcess[name] = refuse(`child_process.${name}`);
net.Server.prototype.listen = refuse('server.listen');
net.Socket.prototype.connect = refuse('socket.connect');
