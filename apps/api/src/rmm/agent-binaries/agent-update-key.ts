import { generateKeyPairSync } from 'node:crypto';
import { Provider } from '@nestjs/common';

/**
 * The server's public Ed25519 key that agents check update signatures with (base64 of the raw 32 bytes): a
 * string provider. The installers embed it (RMM_UPDATE_KEY → `register --update-key`).
 */
export const AGENT_UPDATE_PUBLIC_KEY = Symbol('AGENT_UPDATE_PUBLIC_KEY');

/**
 * A stand-in until the signing key service (rmm/agent-updates, AgentSigningKey.publicKeyBase64()) provides the
 * token: a key pair made at start, whose private half is dropped (nothing is ever signed with it).
 */
export const provisionalUpdateKeyProvider: Provider = {
  provide: AGENT_UPDATE_PUBLIC_KEY,
  useFactory: (): string => {
    const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    return Buffer.from(jwk.x!, 'base64url').toString('base64');
  },
};
