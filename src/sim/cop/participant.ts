/** A participant's signing key as fixtures/participants.json (`signing_key`) or the store give it. */
export interface GivenSigningKey {
  /** The key id of the JWS header and the JWKS; default the key's JWK thumbprint (RFC 7638). */
  kid?: string;
  /** PKCS#8 PEM of an RSA key of at least 2048 bits. */
  private_key: string;
}

/** A name-verification participant: an Open Banking id answered by one organisation for its sort codes. */
export interface Participant {
  open_banking_id: string;
  organisation_id: string;
  name: string;
  sort_codes: string[];
  /** Its PS256 signing key; without one, a key is generated on the first start and kept in the store. */
  signing_key?: GivenSigningKey;
}
