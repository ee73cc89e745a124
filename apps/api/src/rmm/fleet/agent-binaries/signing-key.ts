import { Injectable } from '@nestjs/common';
import { createPrivateKey, createPublicKey, KeyObject, sign, verify } from 'node:crypto';
import { RuntimeConfig } from '../../../config/runtime-config';

/** PKCS#8 DER of an Ed25519 private key, without its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** SubjectPublicKeyInfo DER of an Ed25519 public key, without its 32 bytes (RFC 8410). */
export const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * What an update signature covers (docs/agent-binaries.md): the target, the version and the binary's SHA-256, so
 * that a signature cannot be replayed for another binary, another platform or an older version.
 */
export function updateSigningMessage(target: string, version: string, sha256: string): Buffer {
  return Buffer.from(`rmm-agent-update:v1:${target}:${version}:${sha256}`, 'utf8');
}

/** An Ed25519 public key from the base64 of its raw 32 bytes (what the agents keep as `update_key`). */
export function publicKeyFromBase64(raw: string): KeyObject {
  const bytes = Buffer.from(raw, 'base64');
  if (bytes.length !== 32) throw new Error('an Ed25519 public key is 32 bytes');
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, bytes]), format: 'der', type: 'spki' });
}

/** True when `signature` (base64) is `key`'s signature of `message`. */
export function verifyUpdateSignature(key: KeyObject, message: Buffer, signature: string): boolean {
  try {
    return verify(null, message, key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * The server's agent update signing key (Ed25519): RMM_AGENT_SIGNING_KEY, else generated on first start and kept
 * in app_settings, so every instance signs with the same one. Its public half goes into every installer (the
 * agent's `update_key`) and is printed by `npm run cli -- keys show`; the private half never leaves the server.
 */
@Injectable()
export class AgentSigningKey {
  private readonly privateKey: KeyObject;
  /** The public key as the agents keep it: base64 of its raw 32 bytes. */
  readonly publicKeyBase64: string;

  constructor(config: RuntimeConfig) {
    this.privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(config.agentSigningKey, 'base64')]), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(this.privateKey).export({ format: 'der', type: 'spki' });
    this.publicKeyBase64 = spki.subarray(SPKI_ED25519_PREFIX.length).toString('base64');
  }

  /** The base64 signature of an update of `target` to `version` whose binary has this SHA-256 (hex). */
  signUpdate(target: string, version: string, sha256: string): string {
    return sign(null, updateSigningMessage(target, version, sha256), this.privateKey).toString('base64');
  }
}
