import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AgentSigningKey, publicKeyFromBase64, updateSigningMessage, verifyUpdateSignature } from './signing-key';

const keyOf = (seed: Buffer): AgentSigningKey => new AgentSigningKey(Object.assign(new RuntimeConfig(), { agentSigningKey: seed.toString('base64') }));

describe('AgentSigningKey', () => {
  const sha = 'a'.repeat(64);

  it('signs what the agent verifies with the public half (raw 32 bytes, base64)', () => {
    const key = keyOf(randomBytes(32));
    expect(Buffer.from(key.publicKeyBase64, 'base64')).toHaveLength(32);
    const sig = key.signUpdate('linux-amd64', '0.1.1', sha);
    const pub = publicKeyFromBase64(key.publicKeyBase64);
    expect(verifyUpdateSignature(pub, updateSigningMessage('linux-amd64', '0.1.1', sha), sig)).toBe(true);
  });

  it('a signature covers target, version and hash: any other is refused, as is another key and garbage', () => {
    const key = keyOf(randomBytes(32));
    const pub = publicKeyFromBase64(key.publicKeyBase64);
    const sig = key.signUpdate('linux-amd64', '0.1.1', sha);
    expect(verifyUpdateSignature(pub, updateSigningMessage('linux-arm64', '0.1.1', sha), sig)).toBe(false);
    expect(verifyUpdateSignature(pub, updateSigningMessage('linux-amd64', '0.1.0', sha), sig)).toBe(false);
    expect(verifyUpdateSignature(pub, updateSigningMessage('linux-amd64', '0.1.1', 'b'.repeat(64)), sig)).toBe(false);
    const other = publicKeyFromBase64(keyOf(randomBytes(32)).publicKeyBase64);
    expect(verifyUpdateSignature(other, updateSigningMessage('linux-amd64', '0.1.1', sha), sig)).toBe(false);
    expect(verifyUpdateSignature(pub, updateSigningMessage('linux-amd64', '0.1.1', sha), 'not base64 at all')).toBe(false);
  });

  it('the same seed is the same key (every instance signs alike), and it matches node:crypto Ed25519', () => {
    const seed = randomBytes(32);
    expect(keyOf(seed).publicKeyBase64).toBe(keyOf(seed).publicKeyBase64);
    // an independent Ed25519 pair: its raw public key round-trips through publicKeyFromBase64
    const { publicKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
    expect(publicKeyFromBase64(raw).export({ format: 'der', type: 'spki' })).toEqual(publicKey.export({ format: 'der', type: 'spki' }));
  });
});
