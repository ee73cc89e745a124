import { COMMON_STATUS, FieldError } from './domain-error';

/** An error reduced to what any wire format needs. */
export interface NormalizedError {
  /** For a DomainError: the status the surface's table gives its code; else the framework's status. */
  status: number;
  message: string;
  /** A DomainError's code (CommonErrorCode or a module's code). */
  code?: string;
  fields: FieldError[];
  /** Headers the error itself asks for (Retry-After on 429, …). */
  headers: Record<string, string>;
  /** Where it came from: a service's DomainError, Nest's HttpException (unknown route …), Fastify, or a fault. */
  source: 'domain' | 'http' | 'framework' | 'fault';
  /** The thrown value itself, for a surface whose format needs more than the above (GoTrue's error_code). */
  origin?: unknown;
  /** Fastify's error code for framework errors (FST_ERR_CTP_INVALID_JSON_BODY …). */
  frameworkCode?: string;
}

export interface RenderedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * One wire format for errors: /api/v3 answers {detail}, the function {error}, the data platform GoTrue's
 * and PostgREST's bodies. The first surface whose prefix matches renders. Each surface maps every error
 * code it can meet to a status (`statusOf`, from one exhaustive table); a code it does not know is a fault.
 */
export interface ErrorSurface {
  readonly name: string;
  matches(path: string): boolean;
  statusOf(code: string): number | undefined;
  render(error: NormalizedError, path: string, headers: Record<string, string | string[] | undefined>): RenderedError;
}

/** Looks a code up in a surface's table (a Record keyed by every code the surface knows). */
export function codeTable<C extends string, V>(table: Record<C, V>): (code: string) => V | undefined {
  return (code) => (Object.prototype.hasOwnProperty.call(table, code) ? table[code as C] : undefined);
}

export const pathStartsWith = (...prefixes: string[]): ((path: string) => boolean) => {
  // Asked several times per request (surfaces, hooks, CORS): the prefixes' two forms are built once.
  const forms = prefixes.map((p) => [p, `${p}/`, `${p}?`] as const);
  return (path: string): boolean => {
    for (const [p, dir, query] of forms) if (path === p || path.startsWith(dir) || path.startsWith(query)) return true;
    return false;
  };
};

const commonStatus = codeTable(COMMON_STATUS);

/** Anything outside the product's surfaces (/healthz, /docs, unknown paths): Nest's usual body. */
export const defaultErrorSurface: ErrorSurface = {
  name: 'default',
  matches: () => true,
  statusOf: commonStatus,
  render: (e) => ({
    status: e.status,
    body: { statusCode: e.status, message: e.status >= 500 ? 'Internal server error' : e.message },
  }),
};
