import { Provider } from '@nestjs/common';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AgentSigningKey } from './signing-key';

/**
 * The server's public Ed25519 key that agents check update signatures with (base64 of the raw 32 bytes): a
 * string provider. The installers embed it (RMM_UPDATE_KEY → `register --update-key`). It is the public half of
 * AgentSigningKey (RMM_AGENT_SIGNING_KEY, or the one generated on first start and kept in app_settings), so it
 * is the same on every instance and across restarts.
 */
export const AGENT_UPDATE_PUBLIC_KEY = Symbol('AGENT_UPDATE_PUBLIC_KEY');

export const updateKeyProvider: Provider = {
  provide: AGENT_UPDATE_PUBLIC_KEY,
  inject: [RuntimeConfig],
  useFactory: (config: RuntimeConfig): string => new AgentSigningKey(config).publicKeyBase64,
};
