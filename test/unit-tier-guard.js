// setupFilesAfterEnv of the unit tier (jest.config.js): a unit test starts no process and opens no socket
// (docs/development.md, "Test tiers"). Each call that would throws instead, naming the tier such a test belongs to.
// Node's own modules are shared by every test file a Jest worker runs, whatever its project: the calls are refused
// from the moment this file loads (before the test file's own code) and given back after its last test, so that a
// medium or e2e file that the same worker runs next spawns and listens as it should.
'use strict';
const childProcess = require('node:child_process');
const net = require('node:net');

const refuse = (call) =>
  function refused() {
    throw new Error(`${call} in a unit test: the unit tier starts no process and opens no socket; such a test belongs in test/medium/ (docs/development.md, "Test tiers")`);
  };
const CALLS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'];
const saved = {
  childProcess: Object.fromEntries(CALLS.map((name) => [name, childProcess[name]])),
  listen: net.Server.prototype.listen,
  connect: net.Socket.prototype.connect,
};
for (const name of CALLS) childProcess[name] = refuse(`child_process.${name}`);
net.Server.prototype.listen = refuse('server.listen');
net.Socket.prototype.connect = refuse('socket.connect');

afterAll(() => {
  for (const name of CALLS) childProcess[name] = saved.childProcess[name];
  net.Server.prototype.listen = saved.listen;
  net.Socket.prototype.connect = saved.connect;
});
