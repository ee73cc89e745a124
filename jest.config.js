// Three tiers, each a Jest project (npm run test:unit | test:medium | test:e2e; npm test runs all; what each may
// do: docs/development.md, "Test tiers"):
// - unit:   *.spec.ts beside the code (apps/, libs/): code in the test's own process, no process, socket,
//           database or file written (test/unit-tier-guard.js refuses a process or a socket). Compiled with
//           @swc/jest (fast, no type check; `npm run typecheck` does that) and no global setup, so it starts at once.
// - medium: test/medium/**/*.medium-spec.ts: real Nest services and repositories (through DI) on this file's
//           own PostgreSQL database, and what needs a process, a socket or a file; no HTTP app. @swc/jest too.
// - e2e:    test/**/*.e2e-spec.ts: the whole app over real HTTP. ts-jest, with the Swagger CLI plugin, so the
//           OpenAPI document under test is the one `nest build` serves.
// medium and e2e need PostgreSQL: their globalSetup (test/global-setup.js: builds dist/, starts an embedded
// PostgreSQL unless DATABASE_URL is set, migrates a template database) is set per project, and Jest runs a
// project's globalSetup only when a test file of that project was selected (the same file runs once even
// when both projects are selected). Each test file then clones its own database from the template.
const tsJest = [
  'ts-jest',
  {
    tsconfig: '<rootDir>/tsconfig.json',
    isolatedModules: false,
    // TS151002: ts-jest's note on nodenext; the files are compiled as CommonJS, which is what we want.
    diagnostics: { warnOnly: false, ignoreCodes: [151002] },
    astTransformers: { before: ['<rootDir>/test/swagger-plugin-transformer.js'] },
  },
];
// TypeScript as tsc compiles it (tsconfig.json): legacy decorators with their metadata (Nest's DI,
// class-validator, TypeORM), ES2022+ class fields with define semantics (target ES2023).
const swcTs = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
// The entities (libs/entities) import each other for their relations, and @swc/jest's CommonJS exports are
// live bindings: the design:type metadata of a relation to a class not yet defined reads it in its temporal
// dead zone ("Cannot access 'ClientEntity' before initialization"), where tsc's output reads undefined.
// Entities name every column's type, so TypeORM needs no design metadata from them: compile them without it.
const swcEntities = ['@swc/jest', { ...swcTs[1], jsc: { ...swcTs[1].jsc, transform: { ...swcTs[1].jsc.transform, decoratorMetadata: false } } }];
const swcTransform = { '/libs/entities/src/.+\\.ts$': swcEntities, '^.+\\.ts$': swcTs };
// NestJS 12 and a few of its dependencies ship ESM only; Jest on Node 20 needs them as CommonJS.
const esmOnly = ['@nestjs', 'jose', 'openid-client', 'oauth4webapi', '@simplewebauthn', 'fast-check', 'pure-rand', 'content-disposition', 'cookie', 'file-type', 'strtok3', 'token-types', 'peek-readable', 'uint8array-extras', '@tokenizer', 'plist'];
const swcJs = ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }];
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleNameMapper: {
    '^@app/entities$': '<rootDir>/libs/entities/src',
    '^@app/entities/(.*)$': '<rootDir>/libs/entities/src/$1',
    '^@app/protocol$': '<rootDir>/libs/protocol/src',
    '^@app/protocol/(.*)$': '<rootDir>/libs/protocol/src/$1',
    // plist's exports name only the `import` condition (ESM only); Jest resolves with `require`.
    '^plist$': '<rootDir>/node_modules/plist/dist/index.js',
  },
};
const withDatabase = {
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
};

module.exports = {
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  maxWorkers: 3,
  testTimeout: 60_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/unit-tier-guard.js'],
      transform: { ...swcTransform, '^.+\\.m?js$': swcJs },
    },
    {
      ...common,
      ...withDatabase,
      displayName: 'medium',
      testMatch: ['<rootDir>/test/medium/**/*.medium-spec.ts'],
      transform: { ...swcTransform, '^.+\\.m?js$': swcJs },
    },
    {
      ...common,
      ...withDatabase,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': tsJest, '^.+\\.m?js$': swcJs },
      slowTestThreshold: 30,
    },
  ],
};
