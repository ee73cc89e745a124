import { ErrorKind, FieldError } from './domain-error';

/** An error reduced to what any wire format needs. */
export interface NormalizedError {
  status: number;
  message: string;
  kind?: ErrorKind;
  fields: FieldError[];
  /** Headers the error itself asks for (Retry-After on 429, …). */
  headers: Record<string, string>;
  /** Where it came from: a service's DomainError, Nest's HttpException (unknown route …), Fastify, or a fault. */
  source: 'domain' | 'http' | 'framework' | 'fault';
  /** The thrown value itself, for a surface whose format needs more than the above (GoTrue's error_code). */
  origin?: unknown;
  /** Fastify's error code for framework errors (FST_ERR_CTP_INVALID_JSON_BODY …). */
  code?: string;
}

export interface RenderedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * One wire format for errors: /api/v3 answers {detail}, the function {error}, the data
 * platform GoTrue's and PostgREST's bodies. The first surface whose prefix matches renders.
 */
export interface ErrorSurface {
  readonly name: string;
  matches(path: string): boolean;
  render(error: NormalizedError, path: string, headers: Record<string, string | string[] | undefined>): RenderedError;
}

export const pathStartsWith =
  (...prefixes: string[]) =>
  (path: string): boolean =>
    prefixes.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`));

/** Anything outside the product's surfaces (/healthz, /docs, unknown paths): Nest's usual body. */
export const defaultErrorSurface: ErrorSurface = {
  name: 'default',
  matches: () => true,
  render: (e) => ({
    status: e.status,
    body: { statusCode: e.status, message: e.status >= 500 ? 'Internal server error' : e.message },
  }),
};
