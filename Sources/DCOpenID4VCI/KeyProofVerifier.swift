import DCCrypto
package import DCJOSE
import DCJSON
package import Foundation

/// A key proof that passed every check of OpenID4VCI 1.0 §F.4.
package struct VerifiedKeyProof: Sendable, Hashable {
  /// The proven public key: the credential is bound to it.
  package let key: JWK
  /// The proof's `nonce` (the `c_nonce`), when it carried one.
  package let nonce: String?
  /// The proof's `iat`.
  package let issuedAt: Date
  /// The key attestation JWT the key came from, when the proof carried one (Appendix D).
  package let keyAttestation: String?
}

/// The issuer's check of `jwt` key proofs (OpenID4VCI 1.0 §8.2.1.1, Appendix F.1, F.4).
package struct KeyProofVerifier: Sendable {
  /// The Credential Issuer Identifier; `aud` must equal it.
  package var credentialIssuer: String
  /// The signature algorithms accepted (`proof_signing_alg_values_supported`).
  package var allowedAlgorithms: Set<JWSAlgorithm>
  /// How old `iat` may be, in seconds.
  package var maxAge: TimeInterval
  /// How far in the future `iat` may lie, for clock skew, in seconds.
  package var leeway: TimeInterval
  /// The clock; tests inject a fixed one.
  package var clock: @Sendable () -> Date
  /// Verifies a `key_attestation` JWT (its signature by a trusted wallet provider, its nonce)
  /// and returns its `attested_keys`; nil when the issuer accepts no key attestations.
  package var keyAttestationVerifier: (@Sendable (String) throws -> [JWK])?

  /// A verifier for the issuer `credentialIssuer`.
  package init(
    credentialIssuer: String, allowedAlgorithms: Set<JWSAlgorithm> = [.es256],
    maxAge: TimeInterval = 300, leeway: TimeInterval = 60,
    clock: @escaping @Sendable () -> Date = { Date() },
    keyAttestationVerifier: (@Sendable (String) throws -> [JWK])? = nil
  ) {
    self.credentialIssuer = credentialIssuer
    self.allowedAlgorithms = allowedAlgorithms
    self.maxAge = maxAge
    self.leeway = leeway
    self.clock = clock
    self.keyAttestationVerifier = keyAttestationVerifier
  }

  /// Checks one key proof (OpenID4VCI 1.0 §F.4).
  ///
  /// - Parameters:
  ///   - proof: the compact JWT from `proofs.jwt`.
  ///   - clientID: the client the access token was issued to; nil after anonymous
  ///     pre-authorized access, where the proof must carry no `iss` (§F.1).
  ///   - nonceCheck: nil when the issuer has no nonce endpoint; otherwise whether the proof's
  ///     `nonce` is a `c_nonce` the issuer issued and still accepts (`invalid_nonce`, §8.3.1.2).
  /// - Returns: the proven key.
  /// - Throws: `OpenID4VCIError` whose code names the failed check.
  package func verify(
    _ proof: String, clientID: String?, nonceCheck: (@Sendable (String) -> Bool)?
  ) throws(OpenID4VCIError) -> VerifiedKeyProof {
    let (verified, _) = try verifyExceptNonce(proof, clientID: clientID)
    if let nonceCheck {
      guard let nonce = verified.nonce, nonceCheck(nonce) else {
        throw OpenID4VCIError(.invalidNonce, "the key proof's nonce is missing or not fresh")
      }
    }
    return verified
  }

  /// Checks the proofs of a batch request (OpenID4VCI 1.0 §8.2): each as ``verify(_:clientID:nonceCheck:)``,
  /// all with the same nonce (checked once, so a single-use `c_nonce` serves the whole batch),
  /// each for a different key, at most `maxCount` (the issuer's `batch_size`).
  package func verifyBatch(
    _ proofs: [String], clientID: String?, nonceCheck: (@Sendable (String) -> Bool)?,
    maxCount: Int
  ) throws(OpenID4VCIError) -> [VerifiedKeyProof] {
    guard !proofs.isEmpty, proofs.count <= maxCount else {
      throw OpenID4VCIError(.proofBatch, "\(proofs.count) proofs; 1 to \(maxCount) accepted")
    }
    var results: [VerifiedKeyProof] = []
    var thumbprints: Set<String> = []
    for proof in proofs {
      let (verified, thumbprint) = try verifyExceptNonce(proof, clientID: clientID)
      guard thumbprints.insert(thumbprint).inserted else {
        throw OpenID4VCIError(.proofBatch, "two proofs in the batch are for the same key")
      }
      if let first = results.first, first.nonce != verified.nonce {
        throw OpenID4VCIError(.proofBatch, "the proofs of a batch carry different nonces")
      }
      results.append(verified)
    }
    if let nonceCheck {
      guard let nonce = results[0].nonce, nonceCheck(nonce) else {
        throw OpenID4VCIError(.invalidNonce, "the key proofs' nonce is missing or not fresh")
      }
    }
    return results
  }

  private func verifyExceptNonce(_ proof: String, clientID: String?) throws(OpenID4VCIError) -> (
    VerifiedKeyProof, String
  ) {
    let header = try ProofJWTReader.header(proof, malformed: .proofMalformed)
    _ = try ProofJWTReader.checkTypeAndAlgorithm(
      header, type: KeyProof.type, allowed: allowedAlgorithms, typeCode: .proofType,
      algorithmCode: .proofAlgorithm)
    let attestation = header["key_attestation"]
    try Self.checkKeyMembers(header)
    let parsed = try ProofJWTReader.parse(proof, header: header, malformed: .proofMalformed)
    let claims = parsed.claims
    let iat = try ProofJWTReader.issuedAt(claims, malformed: .proofMalformed)
    guard claims["aud"] != nil else {
      throw OpenID4VCIError(.proofMalformed, "the key proof has no aud")
    }

    // The candidate keys: the jwk, or the attested keys.
    let (candidates, attestationText) = try candidateKeys(attestation, jwk: parsed.jws.jwk)
    // §F.4: the signature verifies with the named key.
    let proven = try Self.provenKey(candidates, jws: parsed.jws)
    // §F.1: aud is the Credential Issuer Identifier.
    guard claims.aud == [credentialIssuer] else {
      throw OpenID4VCIError(.proofAudience, "aud is not the Credential Issuer Identifier")
    }
    // §F.1: iss is the client_id, and absent after anonymous pre-authorized access.
    if let clientID {
      if let iss = claims.iss, iss != clientID {
        throw OpenID4VCIError(.proofIssuer, "iss is not the client_id")
      }
    } else if claims["iss"] != nil {
      throw OpenID4VCIError(.proofIssuer, "iss must be absent after anonymous access")
    }
    // §F.4: iat within the window the issuer accepts.
    try ProofJWTReader.checkIssuedAt(
      iat, now: clock(), maxAge: maxAge, leeway: leeway, code: .proofIssuedAt)
    return (
      VerifiedKeyProof(
        key: proven, nonce: claims.nonce, issuedAt: iat, keyAttestation: attestationText),
      proven.thumbprintBase64URL
    )
  }

  /// §F.1: the header names its key by exactly one of `jwk`, `kid`, `x5c`, `trust_chain`
  /// (`key_attestation` may come with `kid`), and a `jwk` is a public key.
  private static func checkKeyMembers(_ header: JSONValue) throws(OpenID4VCIError) {
    let attestation = header["key_attestation"]
    // §F.1: the key is named by exactly one of jwk, kid, x5c, trust_chain; key_attestation
    // may come with kid. This verifier resolves jwk and key_attestation.
    let keyMembers = ["jwk", "kid", "x5c", "trust_chain"].filter { header[$0] != nil }
    if attestation == nil {
      guard keyMembers == ["jwk"] else {
        throw OpenID4VCIError(
          .proofKey,
          keyMembers.isEmpty
            ? "the key proof names no key"
            : "the key proof must carry exactly a jwk, found \(keyMembers.joined(separator: ", "))")
      }
    } else {
      guard keyMembers.isEmpty || keyMembers == ["kid"] || keyMembers == ["jwk"] else {
        throw OpenID4VCIError(
          .proofKey, "key_attestation with \(keyMembers.joined(separator: ", ")) is ambiguous")
      }
    }
    if let rawKey = header["jwk"] {
      for member in privateJWKMembers where rawKey[member] != nil {
        throw OpenID4VCIError(.proofKey, "the key proof's jwk carries a private key member")
      }
    }
  }

  /// The keys that may have signed the proof, with the key attestation when there is one: the
  /// header's `jwk`, or the attested keys (narrowed to the `jwk` when both are present).
  private func candidateKeys(_ attestation: JSONValue?, jwk: JWK?) throws(OpenID4VCIError) -> (
    [JWK], String?
  ) {
    guard let attestation else {
      guard let jwk else {
        throw OpenID4VCIError(.proofKey, "the key proof has no jwk")
      }
      return ([jwk], nil)
    }
    guard let text = attestation.string else {
      throw OpenID4VCIError(.proofKey, "key_attestation must be a JWT string")
    }
    guard let keyAttestationVerifier else {
      throw OpenID4VCIError(.proofKey, "this issuer accepts no key attestations")
    }
    let attested: [JWK]
    do {
      attested = try keyAttestationVerifier(text)
    } catch {
      throw OpenID4VCIError(.proofKey, "the key attestation does not verify: \(error)")
    }
    let candidates = attested.map(\.publicJWK)
    guard let jwk else { return (candidates, text) }
    guard candidates.contains(where: { $0.thumbprint() == jwk.thumbprint() }) else {
      throw OpenID4VCIError(.proofKey, "the proof's jwk is not an attested key")
    }
    return ([jwk], text)
  }

  /// The first candidate whose key verifies the proof's signature (§F.4).
  private static func provenKey(_ candidates: [JWK], jws: CompactJWS) throws(OpenID4VCIError)
    -> JWK
  {
    for candidate in candidates {
      guard let key = try? candidate.publicKey() else { continue }
      if (try? jws.verifySignature(with: key)) != nil {
        return candidate
      }
    }
    throw OpenID4VCIError(.proofSignature, "the key proof's signature does not verify")
  }
}
