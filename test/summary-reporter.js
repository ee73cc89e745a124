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
    process.stdout.write(`\n${line}\n`);
  }
}

module.exports = SummaryReporter;
