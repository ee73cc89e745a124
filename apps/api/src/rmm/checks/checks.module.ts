import { Module } from '@nestjs/common';

// READ FIRST: /tmp/conventions.md (also at test/rmm/CONVENTIONS-READ-FIRST.md) — the project rules for this
// work: which files you may edit, no git commands, no npm install, how to run your tests, and the deadline.

/** /api/v3/checks (placeholder: filled in by the checks work). */
@Module({})
export class ChecksModule {}
