@_exported public import DCErrors

/// An error from OpenID4VCI issuance (OpenID4VCI 1.0) and the OAuth pieces it uses (PKCE, DPoP):
/// an extensible code naming the failed check, and a reason.
///
/// Codes are values rather than enum cases so that new failure kinds break no client
/// (the convention of `JOSEError` and `CryptoError`).
public typealias OpenID4VCIError = DCError<OpenID4VCIErrorCode>

/// What kind of failure this is; match on it, never on the reason text.
public struct OpenID4VCIErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }

  /// The code's name, for logs.
  public var description: String { name }

  // MARK: PKCE (RFC 7636)

  /// A `code_verifier` is not 43-128 characters of the unreserved set (RFC 7636 §4.1).
  package static let invalidCodeVerifier = Self("invalidCodeVerifier")
  /// A `code_challenge_method` other than `S256` (RFC 7636 §4.2; HAIP 1.0 requires S256).
  package static let unsupportedCodeChallengeMethod = Self("unsupportedCodeChallengeMethod")
  /// The `code_verifier` does not hash to the stored `code_challenge` (RFC 7636 §4.6).
  package static let codeChallengeMismatch = Self("codeChallengeMismatch")

  // MARK: DPoP (RFC 9449)

  /// A DPoP proof is not a well-formed JWT or lacks a required claim (RFC 9449 §4.3 steps 2-3).
  package static let dpopMalformed = Self("dpopMalformed")
  /// The DPoP proof's `typ` is not `dpop+jwt` (RFC 9449 §4.3 step 4).
  package static let dpopType = Self("dpopType")
  /// The DPoP proof's `alg` is not in the allowed set (RFC 9449 §4.3 step 5).
  package static let dpopAlgorithm = Self("dpopAlgorithm")
  /// The DPoP proof's `jwk` is missing, invalid or carries private key members (§4.3 step 7).
  package static let dpopKey = Self("dpopKey")
  /// The DPoP proof's signature does not verify with its `jwk` (RFC 9449 §4.3 step 6).
  package static let dpopSignature = Self("dpopSignature")
  /// `htm` is not the request's method (RFC 9449 §4.3 step 8).
  package static let dpopMethodMismatch = Self("dpopMethodMismatch")
  /// `htu` is not the request's URI, after normalisation (RFC 9449 §4.3 step 9).
  package static let dpopURIMismatch = Self("dpopURIMismatch")
  /// `iat` is outside the accepted window (RFC 9449 §4.3 step 11, §11.1).
  package static let dpopIssuedAt = Self("dpopIssuedAt")
  /// The server requires a nonce and the proof has none or a stale one: the client retries
  /// with the `DPoP-Nonce` the server sends, error `use_dpop_nonce` (RFC 9449 §8, §9).
  package static let useDPoPNonce = Self("useDPoPNonce")
  /// `ath` is missing or is not the hash of the presented access token (RFC 9449 §4.3 step 12).
  package static let dpopAccessTokenHash = Self("dpopAccessTokenHash")
  /// The proof's key is not the key the access token is bound to, `cnf.jkt` (RFC 9449 §6, §7.1).
  package static let dpopKeyBinding = Self("dpopKeyBinding")
  /// The proof's `jti` was seen before: a replay (RFC 9449 §11.1).
  package static let dpopReplay = Self("dpopReplay")

  // MARK: Key proofs (OpenID4VCI 1.0 §8.2.1.1, Appendix F.1)

  /// A key proof is not a well-formed JWT or lacks a required claim (OpenID4VCI 1.0 §F.1).
  package static let proofMalformed = Self("proofMalformed")
  /// The key proof's `typ` is not `openid4vci-proof+jwt` (OpenID4VCI 1.0 §F.1).
  package static let proofType = Self("proofType")
  /// The key proof's `alg` is not in the allowed set (OpenID4VCI 1.0 §F.1, §F.4).
  package static let proofAlgorithm = Self("proofAlgorithm")
  /// The key proof's key header is missing, ambiguous, private or not verifiable (§F.1).
  package static let proofKey = Self("proofKey")
  /// The key proof's signature does not verify (OpenID4VCI 1.0 §F.4).
  package static let proofSignature = Self("proofSignature")
  /// `aud` is not the Credential Issuer Identifier (OpenID4VCI 1.0 §F.1).
  package static let proofAudience = Self("proofAudience")
  /// `iat` is outside the accepted window (OpenID4VCI 1.0 §F.4).
  package static let proofIssuedAt = Self("proofIssuedAt")
  /// `iss` is not the expected client_id, or is present after anonymous pre-authorized
  /// access (OpenID4VCI 1.0 §F.1).
  package static let proofIssuer = Self("proofIssuer")
  /// The `nonce` is missing or is not a fresh c_nonce: error `invalid_nonce`
  /// (OpenID4VCI 1.0 §8.3.1.2).
  package static let invalidNonce = Self("invalidNonce")
  /// A batch of proofs is inconsistent: two proofs for one key, or different nonces
  /// (OpenID4VCI 1.0 §8.2).
  package static let proofBatch = Self("proofBatch")

  // MARK: Shared

  /// The signer or the crypto backend failed while producing a proof.
  package static let signingFailed = Self("signingFailed")

  // MARK: Offers and metadata (OpenID4VCI 1.0 §4, §12; RFC 8414)

  /// Text is not JSON under RFC 8259 and the JSON module's limits, or is larger than allowed.
  public static let invalidJSON = Self("invalidJSON")
  /// A credential offer URI is not `openid-credential-offer://` or `haip-vci://` with exactly
  /// one of `credential_offer` and `credential_offer_uri` (OpenID4VCI 1.0 §4.1.2, §4.1.3).
  package static let invalidOfferURI = Self("invalidOfferURI")
  /// A credential offer object breaks OpenID4VCI 1.0 §4.1.1.
  public static let invalidOffer = Self("invalidOffer")
  /// A URL is not an `https` URL (or a loopback `http` URL when the development policy
  /// allows it), or an identifier has a query or fragment (OpenID4VCI 1.0 §12.2.1, RFC 8414 §2).
  package static let invalidURL = Self("invalidURL")
  /// Credential issuer or authorization server metadata breaks OpenID4VCI 1.0 §12.2.4 or
  /// RFC 8414 §2.
  public static let invalidMetadata = Self("invalidMetadata")
  /// The metadata names an issuer other than the one whose well-known URL was fetched
  /// (OpenID4VCI 1.0 §12.2.4 `credential_issuer`, RFC 8414 §3.3 `issuer`).
  package static let issuerMismatch = Self("issuerMismatch")
  /// Signed metadata is not a well-formed JWT of OpenID4VCI 1.0 §12.2.3.
  package static let invalidSignedMetadata = Self("invalidSignedMetadata")
  /// Signed metadata does not verify: no `x5c`, a chain reaching no trust anchor, a bad
  /// signature, or an expired or future-dated JWT (OpenID4VCI 1.0 §12.2.3).
  package static let untrustedSignedMetadata = Self("untrustedSignedMetadata")

  // MARK: Wire messages (OpenID4VCI 1.0 §5-§11; RFC 6749, RFC 9126, RFC 9207)

  /// An `application/x-www-form-urlencoded` body or query is malformed: a bad percent-encoding,
  /// not UTF-8, a repeated or empty parameter name, or too large (RFC 6749 §3.1, Appendix B).
  package static let invalidForm = Self("invalidForm")
  /// An authorization request (or its pushed form) breaks RFC 6749 §4.1.1, RFC 7636 §4.3,
  /// RFC 9126 §2.1 or OpenID4VCI 1.0 §5.1.
  package static let invalidAuthorizationRequest = Self("invalidAuthorizationRequest")
  /// A pushed authorization response lacks `request_uri` or `expires_in` (RFC 9126 §2.2).
  package static let invalidPushedAuthorizationResponse = Self(
    "invalidPushedAuthorizationResponse")
  /// An authorization response (the redirect) is malformed or was sent to another redirect URI
  /// (RFC 6749 §4.1.2).
  package static let invalidAuthorizationResponse = Self("invalidAuthorizationResponse")
  /// The authorization response's `state` is missing or not the one sent (RFC 6749 §4.1.2,
  /// §10.12).
  package static let stateMismatch = Self("stateMismatch")
  /// The authorization response's `iss` is missing where the server advertises it, or is not
  /// the authorization server's issuer identifier (RFC 9207 §2.4).
  package static let authorizationResponseIssuer = Self("authorizationResponseIssuer")
  /// The server answered with an OAuth error response (RFC 6749 §4.1.2.1, §5.2; RFC 6750 §3;
  /// OpenID4VCI 1.0 §8.3.1); the ``OAuthErrorResponse`` is the underlying error.
  public static let errorResponse = Self("errorResponse")
  /// An OAuth error response is itself malformed (RFC 6749 §5.2).
  package static let invalidErrorResponse = Self("invalidErrorResponse")
  /// A token request breaks RFC 6749 §4.1.3, §6 or OpenID4VCI 1.0 §6.1.
  package static let invalidTokenRequest = Self("invalidTokenRequest")
  /// A token response breaks RFC 6749 §5.1 or OpenID4VCI 1.0 §6.2.
  package static let invalidTokenResponse = Self("invalidTokenResponse")
  /// A nonce response lacks `c_nonce` (OpenID4VCI 1.0 §7.2).
  package static let invalidNonceResponse = Self("invalidNonceResponse")
  /// A credential or deferred credential request breaks OpenID4VCI 1.0 §8.2 or §9.1.
  package static let invalidCredentialRequest = Self("invalidCredentialRequest")
  /// A credential or deferred credential response breaks OpenID4VCI 1.0 §8.3 or §9.2.
  package static let invalidCredentialResponse = Self("invalidCredentialResponse")
  /// An encrypted response does not decrypt with the wallet's key, uses other parameters than
  /// requested, or arrived unencrypted when encryption was requested (OpenID4VCI 1.0 §10).
  package static let responseEncryption = Self("responseEncryption")
  /// A notification request breaks OpenID4VCI 1.0 §11.1.
  package static let invalidNotificationRequest = Self("invalidNotificationRequest")

  // MARK: Attestations (draft-ietf-oauth-attestation-based-client-auth; OpenID4VCI 1.0 App. D, E)

  /// A client (wallet) attestation JWT is malformed, of the wrong `typ`, untrusted, expired, or
  /// names another client (attestation-based client auth §4, §7.1; OpenID4VCI 1.0 App. E).
  package static let invalidClientAttestation = Self("invalidClientAttestation")
  /// A client attestation PoP JWT is malformed, of the wrong `typ`, not signed by the `cnf`
  /// key, for another audience, stale, or without the expected challenge (§5.1, §7.2).
  package static let invalidClientAttestationPoP = Self("invalidClientAttestationPoP")
  /// A key attestation JWT is malformed, of the wrong `typ`, untrusted, expired, or carries
  /// no usable `attested_keys` (OpenID4VCI 1.0 Appendix D.1).
  package static let invalidKeyAttestation = Self("invalidKeyAttestation")
}
