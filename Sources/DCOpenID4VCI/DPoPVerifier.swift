import DCCrypto
package import DCJOSE
import DCJSON
package import Foundation

/// A DPoP proof that passed every check of RFC 9449 §4.3.
package struct VerifiedDPoPProof: Sendable, Hashable {
  /// The public key the proof was signed with (`jwk`, RFC 9449 §4.2).
  package let key: JWK
  /// The key's RFC 7638 thumbprint, base64url: the `cnf.jkt` a token is bound to (RFC 9449 §6.1).
  package let thumbprint: String
  /// The proof's `jti`.
  package let jti: String
  /// The proof's `iat`.
  package let issuedAt: Date
  /// The proof's `nonce`, when it carried one.
  package let nonce: String?
}

/// The server's check of DPoP proofs (RFC 9449 §4.3), at the authorization server's token
/// endpoint and at resource servers such as the credential endpoint.
package struct DPoPVerifier: Sendable {
  /// The signature algorithms accepted (RFC 9449 §4.3 step 5; HAIP 1.0 requires ES256).
  package var allowedAlgorithms: Set<JWSAlgorithm>
  /// How old a proof's `iat` may be, in seconds (RFC 9449 §11.1).
  package var maxAge: TimeInterval
  /// How far in the future `iat` may lie, for clock skew, in seconds.
  package var leeway: TimeInterval
  /// Where accepted `jti` values are remembered (RFC 9449 §11.1).
  package var replayStore: any DPoPReplayStore
  /// The clock; tests inject a fixed one.
  package var clock: @Sendable () -> Date

  /// A verifier; `maxAge` and `leeway` form the `iat` window.
  package init(
    replayStore: any DPoPReplayStore, allowedAlgorithms: Set<JWSAlgorithm> = [.es256],
    maxAge: TimeInterval = 300, leeway: TimeInterval = 60,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.replayStore = replayStore
    self.allowedAlgorithms = allowedAlgorithms
    self.maxAge = maxAge
    self.leeway = leeway
    self.clock = clock
  }

  /// Checks a DPoP proof for one request (RFC 9449 §4.3) and records its `jti`.
  ///
  /// - Parameters:
  ///   - proof: the value of the request's single `DPoP` header.
  ///   - method: the request's method, compared with `htm` exactly (RFC 9110 §9.1).
  ///   - uri: the request's target URI, compared with `htu` once both are normalized
  ///     (RFC 9449 §4.3 step 9: query and fragment dropped, then RFC 3986 §6.2.2 and §6.2.3
  ///     normalization).
  ///   - nonceCheck: nil when the server does not require a nonce; otherwise a check that the
  ///     proof's `nonce` is one the server issued and still accepts. A missing or refused nonce
  ///     throws `useDPoPNonce`, which the server answers with a fresh `DPoP-Nonce` (§8, §9).
  ///   - accessToken: the access token presented with the request; `ath` must be its hash.
  ///   - boundThumbprint: the `cnf.jkt` of the presented token; the proof's key must match it.
  /// - Returns: the proof's key and its thumbprint, for `cnf.jkt`.
  /// - Throws: `OpenID4VCIError` whose code names the failed check.
  package func verify(
    proof: String, method: String, uri: String,
    nonceCheck: (@Sendable (String) -> Bool)? = nil,
    accessToken: String? = nil, boundThumbprint: String? = nil
  ) throws(OpenID4VCIError) -> VerifiedDPoPProof {
    // Steps 2 and 4-5: the header, before any other work.
    let header = try ProofJWTReader.header(proof, malformed: .dpopMalformed)
    _ = try ProofJWTReader.checkTypeAndAlgorithm(
      header, type: DPoP.type, allowed: allowedAlgorithms, typeCode: .dpopType,
      algorithmCode: .dpopAlgorithm)
    let (parsed, key) = try Self.parseWithKey(proof, header: header)
    // Step 3: the required claims (RFC 9449 §4.2).
    let claims = parsed.claims
    let (jti, htm, htu) = try Self.requiredClaims(claims)
    let iat = try ProofJWTReader.issuedAt(claims, malformed: .dpopMalformed)
    // Step 6: the signature, by the embedded key.
    do {
      try parsed.jws.verifySignature(with: try key.publicKey())
    } catch {
      throw OpenID4VCIError(
        .dpopSignature, "the DPoP proof's signature does not verify", underlying: error)
    }
    // Steps 8-9: htm is the method, htu the URI.
    try Self.checkTarget(htm: htm, htu: htu, method: method, uri: uri)
    // Step 10: the nonce, when the server requires one (§8, §9).
    if let nonceCheck { try Self.checkNonce(claims.nonce, nonceCheck) }
    // Step 11: iat within the window.
    let now = clock()
    try ProofJWTReader.checkIssuedAt(
      iat, now: now, maxAge: maxAge, leeway: leeway, code: .dpopIssuedAt)
    // Step 12: ath, and the key binding, when an access token is presented (§7.1).
    if let accessToken { try Self.checkAccessTokenHash(claims["ath"], accessToken: accessToken) }
    let thumbprint = key.thumbprintBase64URL
    if let boundThumbprint, boundThumbprint != thumbprint {
      throw OpenID4VCIError(.dpopKeyBinding, "the proof's key is not the token's cnf.jkt")
    }
    // §11.1: a jti is accepted once while its proof could still be accepted.
    let expiry = iat.addingTimeInterval(maxAge + leeway)
    guard replayStore.insertIfAbsent(thumbprint + "." + jti, expiry: max(expiry, now), now: now)
    else {
      throw OpenID4VCIError(.dpopReplay, "the DPoP proof's jti was used before")
    }
    return VerifiedDPoPProof(
      key: key, thumbprint: thumbprint, jti: jti, issuedAt: iat, nonce: claims.nonce)
  }

  /// The proof parsed, with the public key of its `jwk` header (step 7).
  private static func parseWithKey(_ proof: String, header: JSONValue) throws(OpenID4VCIError)
    -> (ProofJWT, JWK)
  {
    // Step 7: the jwk is a public key. Checked on the raw header so that the failure has its
    // own code (the JOSE parser would also refuse it, as a malformed header).
    if let rawKey = header["jwk"] {
      for member in privateJWKMembers where rawKey[member] != nil {
        throw OpenID4VCIError(.dpopKey, "the DPoP proof's jwk carries a private key member")
      }
    }
    let parsed = try ProofJWTReader.parse(proof, header: header, malformed: .dpopMalformed)
    guard let key = parsed.jws.jwk else {
      throw OpenID4VCIError(.dpopKey, "the DPoP proof has no jwk header")
    }
    return (parsed, key)
  }

  /// Step 3: the `jti`, `htm` and `htu` every proof carries (RFC 9449 §4.2).
  private static func requiredClaims(_ claims: JWTClaims) throws(OpenID4VCIError) -> (
    jti: String, htm: String, htu: String
  ) {
    guard let jti = claims.jti, !jti.isEmpty else {
      throw OpenID4VCIError(.dpopMalformed, "the DPoP proof has no jti")
    }
    guard let htm = claims["htm"]?.string else {
      throw OpenID4VCIError(.dpopMalformed, "the DPoP proof has no htm string")
    }
    guard let htu = claims["htu"]?.string else {
      throw OpenID4VCIError(.dpopMalformed, "the DPoP proof has no htu string")
    }
    return (jti, htm, htu)
  }

  /// Steps 8-9: `htm` is the method (RFC 9110 §9.1: methods are case-sensitive); `htu` is the
  /// URI without query and fragment, compared normalised.
  private static func checkTarget(htm: String, htu: String, method: String, uri: String)
    throws(OpenID4VCIError)
  {
    // Step 8: htm is the method (RFC 9110 §9.1: methods are case-sensitive).
    guard htm == method else {
      throw OpenID4VCIError(.dpopMethodMismatch, "htm \(htm) is not the request's \(method)")
    }
    // Step 9: htu is the URI without query and fragment, compared normalised.
    guard let expected = DPoP.normalizedURI(uri) else {
      throw OpenID4VCIError(.dpopURIMismatch, "the request URI is not absolute http(s)")
    }
    guard DPoP.normalizedURI(htu) == expected else {
      throw OpenID4VCIError(.dpopURIMismatch, "htu does not match the request URI")
    }
  }

  /// Step 10: the proof's nonce is present and one the server accepts (§8, §9).
  private static func checkNonce(_ nonce: String?, _ nonceCheck: (String) -> Bool)
    throws(OpenID4VCIError)
  {
    guard let nonce else {
      throw OpenID4VCIError(.useDPoPNonce, "the server requires a DPoP nonce")
    }
    guard nonceCheck(nonce) else {
      throw OpenID4VCIError(.useDPoPNonce, "the DPoP nonce is not current")
    }
  }

  /// Step 12: `ath` is the presented access token's hash (§7.1), compared in constant time.
  private static func checkAccessTokenHash(_ ath: JSONValue?, accessToken: String)
    throws(OpenID4VCIError)
  {
    guard let ath = ath?.string else {
      throw OpenID4VCIError(.dpopAccessTokenHash, "the DPoP proof has no ath")
    }
    guard constantTimeEquals(Array(ath.utf8), Array(DPoP.accessTokenHash(accessToken).utf8)) else {
      throw OpenID4VCIError(.dpopAccessTokenHash, "ath is not the access token's hash")
    }
  }
}
