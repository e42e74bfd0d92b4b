public import DCCrypto
import DCJOSE
import DCJSON
import DCOpenID4VP
package import DCX509
package import Foundation

/// A verifier's key for the `verifier_attestation` Client Identifier Prefix (OpenID4VP 1.0
/// §5.9.3, §12): a Verifier Attestation JWT whose `cnf.jwk` is the public key of `signer`, which
/// signs the request objects; the attestation travels in the request object's `jwt` header.
public struct VerifierAttestationSigner: Sendable {
  /// The Verifier Attestation JWT (`typ` `verifier-attestation+jwt`).
  package let attestationJWT: String
  /// Its `sub`: the Client Identifier without the prefix.
  public let subject: String
  /// The key whose public JWK is the attestation's `cnf.jwk`.
  package let signer: any Signer

  /// Wraps an attestation and its confirmation key.
  public init(attestationJWT: String, subject: String, signer: any Signer) {
    self.attestationJWT = attestationJWT
    self.subject = subject
    self.signer = signer
  }

  /// `verifier_attestation:<sub>` (OpenID4VP 1.0 §5.9.3).
  public var clientID: String { "verifier_attestation:" + subject }

  /// The `typ` of a Verifier Attestation JWT (OpenID4VP 1.0 §12).
  package static let attestationType = "verifier-attestation+jwt"

  /// Issues a Verifier Attestation JWT (OpenID4VP 1.0 §12) as an attestation issuer: header
  /// `typ` `verifier-attestation+jwt` and `x5c` (the issuer's chain, leaf first, a self-signed
  /// root left out), claims `iss`, `sub`, `iat`, `exp`, `cnf.jwk` and `redirect_uris` when given.
  ///
  /// - Throws: `JOSEError` when signing fails.
  package static func issue(
    issuer: String, subject: String, confirmationKey: ECPublicKey, issuerSigner: any Signer,
    issuerChain: [Certificate], issuedAt: Date, expiresAt: Date, redirectURIs: [String]? = nil
  ) throws -> String {
    var claims: [(key: String, value: JSONValue)] = [
      ("iss", .string(issuer)), ("sub", .string(subject)),
      ("iat", .integer(Int64(issuedAt.timeIntervalSince1970))),
      ("exp", .integer(Int64(expiresAt.timeIntervalSince1970))),
      ("cnf", .object([("jwk", JWK(publicKey: confirmationKey).json)])),
    ]
    if let redirectURIs {
      claims.append(("redirect_uris", .array(redirectURIs.map { .string($0) })))
    }
    let chain = issuerChain.enumerated().filter { index, certificate in
      index == 0 || !isSelfSigned(certificate)
    }.map(\.element.derBytes)
    return try JWS.sign(
      payload: JSONValue.object(claims).serializedBytes(),
      protectedHeader: .object([
        ("typ", .string(attestationType)), ("x5c", JWS.x5c(chain)),
      ]),
      signer: issuerSigner)
  }
}
