// Unit tests sit beside the code (*.spec.ts); end-to-end tests under test/ (*.e2e-spec.ts) run the
// whole app over real HTTP against a real PostgreSQL: DATABASE_URL when set, else an embedded server
// that test/global-setup.ts starts. Each test file gets its own database cloned from a migrated template.
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
// NestJS 12 and a few of its dependencies ship ESM only; Jest on Node 20 needs them as CommonJS.
const esmOnly = ['@nestjs', 'jose', 'fast-check', 'pure-rand', 'content-disposition', 'cookie', 'file-type', 'strtok3', 'token-types', 'peek-readable', 'uint8array-extras', '@tokenizer'];
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': tsJest,
    '^.+\\.m?js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleNameMapper: {
    '^@app/entities$': '<rootDir>/libs/entities/src',
    '^@app/entities/(.*)$': '<rootDir>/libs/entities/src/$1',
  },
};

module.exports = {
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  maxWorkers: 3,
  testTimeout: 60_000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], slowTestThreshold: 30 },
  ],
};
