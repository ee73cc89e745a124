// Lets ts-jest apply the @nestjs/swagger CLI plugin, as `nest build` does (nest-cli.json), so the
// OpenAPI document under test is the one the server serves.
'use strict';
const plugin = require('@nestjs/swagger/plugin');

const options = { classValidatorShim: true, introspectComments: true, dtoFileNameSuffix: ['.dto.ts', '.entity.ts'] };

module.exports = {
  name: 'nestjs-swagger-transformer',
  version: 1,
  factory: (cs) => plugin.before(options, cs.program),
};
