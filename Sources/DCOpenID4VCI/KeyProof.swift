package import DCCrypto
import DCJOSE
import DCJSON
package import Foundation

/// Key proofs of type `jwt` (OpenID4VCI 1.0 §8.2.1.1, Appendix F.1): the wallet's side.
///
/// Each proof shows the issuer that the wallet holds the private key the credential is to be
/// bound to; a batch request carries one proof per key (§8.2).
package enum KeyProof {
  /// The `typ` of a key proof JWT (OpenID4VCI 1.0 §F.1).
  package static let type = "openid4vci-proof+jwt"

  /// How the proof names its key (OpenID4VCI 1.0 §F.1).
  package enum KeyHeader: Sendable, Hashable {
    /// The public key in the `jwk` header.
    case jwk
    /// A key attestation JWT (OpenID4VCI 1.0 Appendix D) in the `key_attestation` header, whose
    /// `attested_keys` include the signing key; `kid` optionally names it.
    case keyAttestation(String, kid: String? = nil)
  }

  /// Creates one key proof (OpenID4VCI 1.0 §F.1).
  ///
  /// - Parameters:
  ///   - signer: the key to prove; `alg` follows its curve.
  ///   - credentialIssuer: the Credential Issuer Identifier, `aud`.
  ///   - nonce: the `c_nonce` from the nonce endpoint, when the issuer has one (§7).
  ///   - clientID: the `client_id`, `iss`; nil after anonymous pre-authorized access, where
  ///     `iss` must be omitted (§F.1).
  ///   - issuedAt: `iat`.
  ///   - keyHeader: `jwk` (the default) or a `key_attestation`.
  package static func proof(
    signer: any Signer, credentialIssuer: String, nonce: String?, clientID: String?,
    issuedAt: Date = Date(), keyHeader: KeyHeader = .jwk
  ) throws(OpenID4VCIError) -> String {
    var header: [(key: String, value: JSONValue)] = [
      ("typ", .string(type)), ("alg", .string(JWSAlgorithm(curve: signer.curve).rawValue)),
    ]
    switch keyHeader {
    case .jwk:
      header.append(("jwk", JWK(publicKey: signer.publicKey).json))
    case .keyAttestation(let attestation, let kid):
      if let kid { header.append(("kid", .string(kid))) }
      header.append(("key_attestation", .string(attestation)))
    }
    var claims: [(key: String, value: JSONValue)] = []
    if let clientID { claims.append(("iss", .string(clientID))) }
    claims.append(("aud", .string(credentialIssuer)))
    claims.append(("iat", ProofJWTReader.numericDate(issuedAt)))
    if let nonce { claims.append(("nonce", .string(nonce))) }
    return try ProofJWTReader.sign(header: .object(header), claims: .object(claims), signer: signer)
  }

  /// Creates one proof per key, all with the same `c_nonce`, for a batch credential request
  /// (OpenID4VCI 1.0 §8.2: `proofs.jwt` is an array). With `keyAttestation` (Appendix D), each
  /// proof carries it in its `key_attestation` header instead of a `jwk` (§F.1); the attestation
  /// must list every signer's key.
  package static func proofs(
    signers: [any Signer], credentialIssuer: String, nonce: String?, clientID: String?,
    issuedAt: Date = Date(), keyAttestation: String? = nil
  ) throws(OpenID4VCIError) -> [String] {
    var result: [String] = []
    result.reserveCapacity(signers.count)
    for signer in signers {
      result.append(
        try proof(
          signer: signer, credentialIssuer: credentialIssuer, nonce: nonce, clientID: clientID,
          issuedAt: issuedAt, keyHeader: keyAttestation.map { .keyAttestation($0) } ?? .jwk))
    }
    return result
  }
}
