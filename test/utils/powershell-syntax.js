#!/usr/bin/env node
// PowerShell's grammar (tree-sitter-powershell, run by web-tree-sitter) on the script given on stdin: prints
// {problems: ["line N: unexpected|missing …"], commands: ["Invoke-WebRequest", …]} as JSON. Run as its own
// process by the tests: the WebAssembly runtime keeps a Jest worker from exiting.
'use strict';
// V8's baseline WebAssembly compiler only: otherwise V8 also compiles the 1 MB grammar with TurboFan in the
// background, and the process takes 7 s of CPU to exit after a parse that took milliseconds (0.15 s in all).
require('node:v8').setFlagsFromString('--liftoff-only');
const { readFileSync } = require('node:fs');
const { Language, Parser } = require('web-tree-sitter');

async function main() {
  const text = readFileSync(0, 'utf8');
  await Parser.init();
  const parser = new Parser();
  parser.setLanguage(await Language.load(readFileSync(require.resolve('tree-sitter-powershell/tree-sitter-powershell.wasm'))));
  const tree = parser.parse(text);
  const problems = [];
  const commands = [];
  const walk = (n) => {
    if (n.isError || n.isMissing) problems.push(`line ${n.startPosition.row + 1}: ${n.isMissing ? 'missing' : 'unexpected'} ${JSON.stringify(n.text.slice(0, 60))}`);
    if (n.type === 'command_name') commands.push(n.text);
    for (const c of n.children) if (c) walk(c);
  };
  walk(tree.rootNode);
  process.stdout.write(JSON.stringify({ problems, commands }));
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
