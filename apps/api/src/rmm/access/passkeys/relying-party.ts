/**
 * Who the passkeys are for (docs/sso.md, "Passkeys"): the relying party id is PUBLIC_URL's host name, the origin
 * the browser must report is PUBLIC_URL's origin. A passkey is bound to its relying party id: changing PUBLIC_URL's
 * host makes every registered passkey useless (the operators sign in otherwise and register new ones).
 */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: `RMM (${url.hostname})` };
}
