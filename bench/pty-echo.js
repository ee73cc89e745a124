'use strict';
/**
 * The baseline of bench/hands.js's keystroke to echo, run by Bun (the agent binary's runtime): bash in a
 * pseudo-terminal opened directly, one character at a time written and timed until its echo comes back, the line
 * cleared every 50. Prints the times (ms) as a JSON array. Usage: bun bench/pty-echo.js [N]
 */
/* global Bun */
const n = Number(process.argv[2] ?? 300);
let out = '';
let waiter;
const proc = Bun.spawn(['bash', '--norc', '-i'], {
  terminal: {
    cols: 120,
    rows: 40,
    data(_term, bytes) {
      out += Buffer.from(bytes).toString('utf8');
      waiter?.();
    },
  },
  env: { ...process.env, TERM: 'xterm-256color', PS1: '$ ' },
});
const until = (re) =>
  new Promise((resolve) => {
    waiter = () => re.test(out) && ((waiter = undefined), resolve());
    waiter();
  });
(async () => {
  await until(/\$ $/m);
  const times = [];
  for (let i = 0; i < n; i++) {
    const ch = String.fromCharCode(97 + (i % 26));
    out = '';
    const started = performance.now();
    proc.terminal.write(ch);
    await until(new RegExp(ch));
    times.push(performance.now() - started);
    if (i % 50 === 49) {
      proc.terminal.write('\u0015');
      await Bun.sleep(50);
    }
  }
  proc.terminal.write('exit\r');
  await proc.exited;
  process.stdout.write(JSON.stringify(times));
})();
