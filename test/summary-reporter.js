// Prints Jest's result as the one line CI reads ("N passed, N failed[, N skipped]") and keeps it
// in .jest-summary for .ci/run to repeat as its last line. A test file that could not run at all
// counts as a failure, so a crash never reads as "0 failed".
'use strict';
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : '');
    fs.writeFileSync(path.join(__dirname, '..', '.jest-summary'), `${line}\n`);
    // The slowest files (the suite's budget is about 10 minutes of wall time: docs/development.md).
    const files = results.testResults
      .map((r) => ({ file: path.relative(path.join(__dirname, '..'), r.testFilePath), s: (r.perfStats.end - r.perfStats.start) / 1000 }))
      .sort((a, b) => b.s - a.s);
    fs.writeFileSync(path.join(__dirname, '..', '.jest-durations'), files.map((f) => `${f.s.toFixed(1)}\t${f.file}`).join('\n') + '\n');
    if (files.length > 10) process.stdout.write(`\nslowest test files (all in .jest-durations):\n${files.slice(0, 10).map((f) => `  ${f.s.toFixed(1)} s  ${f.file}`).join('\n')}\n`);
    process.stdout.write(`\n${line}\n`);
  }
}

module.exports = SummaryReporter;
