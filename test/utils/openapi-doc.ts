/** Walking an OpenAPI document (docs/openapi.json, or the one served at /docs/openapi.json) in tests. */
export type Schema = {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  required?: string[];
  properties?: Record<string, Schema>;
  enum?: unknown[];
  items?: Schema;
};
export type Operation = {
  parameters?: Array<{ in: string; name: string; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
};
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** The schema itself, or the component a `$ref` names. */
export const resolveSchema = (doc: OpenApiDoc, s: Schema | undefined): Schema | undefined => (s?.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s);

/** Every operation of the document, with its path and (lower-case) method. */
export const operationsOf = (doc: OpenApiDoc): Array<{ path: string; method: string; op: Operation }> =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op.responses)
      .map(([method, op]) => ({ path, method, op })),
  );

/** The JSON request body's schema of an operation (resolved), if it takes one. */
export const jsonBodyOf = (doc: OpenApiDoc, op: Operation): Schema | undefined => resolveSchema(doc, op.requestBody?.content['application/json']?.schema);
