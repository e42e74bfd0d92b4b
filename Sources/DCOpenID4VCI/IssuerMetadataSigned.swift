package import DCJOSE
package import DCJSON
package import DCX509
package import Foundation

/// Signed credential issuer metadata (OpenID4VCI 1.0 §12.2.3): a JWS of type
/// `openidvci-issuer-metadata+jwt` whose payload holds every metadata parameter as a top-level
/// claim, with `sub` (the credential issuer identifier), `iat` and optionally `iss` and `exp`.
///
/// It arrives as the `application/jwt` body of the well-known URL, or (OpenID4VCI drafts 13–15)
/// as the `signed_metadata` member. Parsing checks only the form; trust comes from
/// ``verify(trustAnchors:at:expectedIssuer:policies:urlPolicy:leeway:)``.
package struct SignedIssuerMetadata: Sendable, Hashable {
  /// The JWS as received.
  package let jws: CompactJWS
  /// The payload claims.
  package let claims: JSONValue
  /// `sub`: the credential issuer identifier the metadata is about.
  package let subject: String
  /// `iss`: the party attesting to the metadata, when named.
  package let issuer: String?
  /// `iat`.
  package let issuedAt: Date
  /// `exp`, when present.
  package let expiresAt: Date?

  /// The `typ` header value (§12.2.3).
  package static let type = "openidvci-issuer-metadata+jwt"

  /// Parses the compact JWS and checks `typ`, `sub` and `iat` (§12.2.3).
  package init(compact: String) throws(OpenID4VCIError) {
    guard compact.utf8.count <= CredentialIssuerMetadata.maximumLength else {
      throw OpenID4VCIError(.invalidSignedMetadata, "signed metadata is too large")
    }
    let jws: CompactJWS
    do {
      jws = try CompactJWS(compact)
    } catch {
      throw OpenID4VCIError(
        .invalidSignedMetadata, "not a compact JWS: \(error.reason)", underlying: error)
    }
    guard jws.type == Self.type else {
      throw OpenID4VCIError(
        .invalidSignedMetadata, "typ is '\(jws.type ?? "(none)")', not '\(Self.type)'")
    }
    let claims: JSONValue
    do {
      claims = try JSONValue(parsing: jws.payload)
    } catch {
      throw OpenID4VCIError(
        .invalidSignedMetadata, "payload is not JSON: \(error.reason)", underlying: error)
    }
    let fields = try Fields(claims, "signed metadata payload", .invalidSignedMetadata)
    subject = try fields.nonEmptyString("sub")
    issuer = try fields.optionalString("iss")
    guard let iat = try fields.optionalInteger("iat") else { throw fields.fail("iat is missing") }
    issuedAt = Date(timeIntervalSince1970: TimeInterval(iat))
    expiresAt = try fields.optionalInteger("exp").map {
      Date(timeIntervalSince1970: TimeInterval($0))
    }
    self.jws = jws
    self.claims = claims
  }

  /// Verifies the JWS and returns the metadata it carries.
  ///
  /// The signer's key is the leaf of `x5c`, whose chain must reach one of `trustAnchors` at `now`
  /// under `policies` (X509Certificates' validator); the signature must verify with it, `iat`
  /// must not be after `now` + `leeway` and `exp` (if any) not before `now` − `leeway`; `sub`
  /// and the payload's `credential_issuer` must both equal `expectedIssuer` (§12.2.3, §12.2.4).
  package func verify(
    trustAnchors: [Certificate], at now: Date, expectedIssuer: IssuerIdentifier,
    policies: [any CertificatePolicy] = [], urlPolicy: URLPolicy = .standard,
    leeway: TimeInterval = 60
  ) throws(OpenID4VCIError) -> CredentialIssuerMetadata {
    // Without x5c the chain is empty, which the validator refuses.
    var chain: [Certificate] = []
    for certificate in jws.x5c ?? [] {
      do {
        chain.append(try Certificate(derEncoded: certificate))
      } catch {
        throw OpenID4VCIError(
          .untrustedSignedMetadata, "an x5c certificate does not parse: \(error)",
          underlying: error)
      }
    }
    let validator = CertificateValidator(
      trustAnchors: trustAnchors, policies: policies, revocation: .current)
    let trusted: TrustedChain
    switch validator.validate(chain: chain, at: now) {
    case .trusted(let path): trusted = path
    case .untrusted(let reason), .malformed(let reason):
      throw OpenID4VCIError(.untrustedSignedMetadata, "x5c chain: \(reason)")
    }
    guard let key = trusted.leaf.publicKey.ecPublicKey else {
      throw OpenID4VCIError(.untrustedSignedMetadata, "the x5c leaf key is not an EC key")
    }
    do {
      try jws.verifySignature(with: key)
    } catch {
      throw OpenID4VCIError(
        .untrustedSignedMetadata, "signature: \(error.reason)", underlying: error)
    }
    if issuedAt > now.addingTimeInterval(leeway) {
      throw OpenID4VCIError(.untrustedSignedMetadata, "iat is in the future")
    }
    if let expiresAt, expiresAt < now.addingTimeInterval(-leeway) {
      throw OpenID4VCIError(.untrustedSignedMetadata, "the signed metadata has expired")
    }
    guard subject == expectedIssuer.string else {
      throw OpenID4VCIError(
        .issuerMismatch, "sub '\(subject)' is not the credential issuer '\(expectedIssuer)'")
    }
    var payload = claims
    for claim in ["iss", "sub", "iat", "exp"] { payload = payload.removing(claim) }
    return try CredentialIssuerMetadata(json: payload, policy: urlPolicy)
      .validated(for: expectedIssuer)
  }
}
