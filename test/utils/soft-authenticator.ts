import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator (ES256, attestation 'none') for HTTP-level tests: it answers the options the
 * server gives as a browser with a platform authenticator would (navigator.credentials.create/get, as JSON the way
 * @simplewebauthn/browser sends it). Each credential keeps its key, user handle and signature counter; a clone shares
 * the key and counter at the moment of cloning (a copied authenticator).
 */
export interface SoftCredential {
  id: string;
  key: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

/** What a test may twist in a ceremony's answer. */
export interface Twist {
  origin?: string;
  rpId?: string;
  /** User verification done (UV flag); default true. */
  uv?: boolean;
  /** Sign with this credential rather than the first the options allow (or the first one kept). */
  credential?: SoftCredential;
  /** The counter to report (default: the credential's previous one + 1). */
  counter?: number;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

const b64u = (b: Uint8Array | string): string => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string): Buffer => createHash('sha256').update(b).digest();

function counterBytes(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** The credential's public key as COSE (EC2, P-256, ES256). */
function coseKey(key: KeyObject): Uint8Array {
  const jwk = key.export({ format: 'jwk' });
  const cose = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
  return isoCBOR.encode(cose);
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(
    /** The page's origin (PUBLIC_URL's). */
    readonly origin: string,
    /** Backup eligible and backed up (a synced passkey) or not. */
    private readonly synced = false,
  ) {}

  /** navigator.credentials.create: a new discoverable credential for the options' RP and user. */
  register(options: CreationOptions, twist: Twist = {}): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rpId = twist.rpId ?? options.rp.id!;
    const id = randomBytes(16);
    const cred: SoftCredential = { id: b64u(id), key: privateKey, rpId, userHandle: options.user.id, counter: twist.counter ?? 0 };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, coseKey(publicKey)]);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags(twist) | FLAG_AT]), counterBytes(cred.counter), attested]);
    const clientData = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: twist.origin ?? this.origin, crossOrigin: false });
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    this.credentials.push(cred);
    return {
      id: cred.id,
      rawId: cred.id,
      type: 'public-key',
      response: { clientDataJSON: b64u(clientData), attestationObject: b64u(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get: an assertion by the credential the options allow (or any kept one: discoverable). */
  assert(options: RequestOptions, twist: Twist = {}): Record<string, unknown> {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const cred = twist.credential ?? this.credentials.find((c) => !allowed?.length || allowed.includes(c.id));
    if (!cred) throw new Error('no credential for these options');
    cred.counter = twist.counter ?? cred.counter + 1;
    const rpId = twist.rpId ?? options.rpId ?? cred.rpId;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags(twist)]), counterBytes(cred.counter)]);
    const clientData = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: twist.origin ?? this.origin, crossOrigin: false });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), cred.key);
    return {
      id: cred.id,
      rawId: cred.id,
      type: 'public-key',
      response: { clientDataJSON: b64u(clientData), authenticatorData: b64u(authData), signature: b64u(signature), userHandle: cred.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** A copy of a credential (same key, same counter now): what a cloned authenticator holds. */
  clone(cred: SoftCredential): SoftCredential {
    return { ...cred };
  }

  private flags(twist: Twist): number {
    return FLAG_UP | (twist.uv === false ? 0 : FLAG_UV) | (this.synced ? FLAG_BE | FLAG_BS : 0);
  }
}
