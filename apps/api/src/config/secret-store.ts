/**
 * Where the secrets the environment does not give are kept once generated (app_settings). Declared here, where
 * RuntimeConfig needs it, and implemented by settings/settings.repository.ts, whose module provides it under this
 * token: the config imports no repository.
 */
export abstract class SecretStore {
  /** The stored value, storing `make()` first when there is none (safe when two instances race). */
  abstract getOrCreate(name: string, make: () => string | Promise<string>, secret: boolean): Promise<{ value: string; created: boolean }>;
}
