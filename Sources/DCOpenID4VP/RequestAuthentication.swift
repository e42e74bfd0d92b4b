import DCAPI
import DCCrypto
import DCJOSE
import DCJSON
package import DCX509
import Foundation

/// Authenticates the verifier of a signed request through its client identifier and `x5c`
/// (OpenID4VP 1.0 §5.9.3, Appendix A.3.2).
enum RequestAuthentication {
  static func authenticate(
    header: JSONValue, x5c: [[UInt8]]?, clientID: JSONValue?, origin: WebOrigin,
    trustAnchors: [Certificate], now: Date, signatureIndex: Int?,
    verifySignature: (ECPublicKey) throws(JOSEError) -> Void
  ) throws(OpenID4VPError) -> AuthenticatedVerifier {
    // RFC 9101 §10.8 / OpenID4VP 1.0 §5: the request object's media type.
    guard header["typ"]?.string == AuthorizationRequest.requestObjectType else {
      throw OpenID4VPError(
        .invalidRequestSignature,
        "typ must be \(AuthorizationRequest.requestObjectType), got \(header["typ"]?.string ?? "none")"
      )
    }
    guard let raw = clientID?.string, !raw.isEmpty else {
      throw OpenID4VPError(.invalidRequest, "a signed request needs a string client_id")
    }
    let identifier = ClientIdentifier(raw)
    guard let prefix = identifier.prefix, ClientIdentifier.Prefix.supported.contains(prefix)
    else {
      throw OpenID4VPError(
        .unsupportedClientIDPrefix,
        "client_id prefix \(identifier.prefix?.rawValue ?? "(none)") is not supported")
    }
    let verified = try authenticateX509(
      x5c: x5c, identifier: identifier, trustAnchors: trustAnchors, now: now,
      verifySignature: verifySignature)
    return AuthenticatedVerifier(
      origin: origin, clientID: identifier, leafCertificate: verified.chain[0],
      trustedChain: verified.trusted, signatureIndex: signatureIndex)
  }

  /// The `x509_san_dns` / `x509_hash` checks shared by the DC API and the redirect-based flows
  /// (OpenID4VP 1.0 §5.9.3): the `x5c` chain read with HAIP 1.0's rules, the signature verified
  /// with its leaf key, and the chain validated to a trust anchor under the prefix's policy.
  package static func authenticateX509(
    x5c: [[UInt8]]?, identifier: ClientIdentifier, trustAnchors: [Certificate], now: Date,
    verifySignature: (ECPublicKey) throws(JOSEError) -> Void
  ) throws(OpenID4VPError) -> (chain: [Certificate], trusted: TrustedChain) {
    let prefix = identifier.prefix ?? .x509SANDNS
    let chain = try certificateChain(x5c, trustAnchors: trustAnchors, what: "\(prefix) requests")
    guard let key = chain[0].publicKey.ecPublicKey else {
      throw OpenID4VPError(.invalidRequestSignature, "the x5c leaf key is not an EC key")
    }
    do {
      try verifySignature(key)
    } catch {
      throw OpenID4VPError(
        .invalidRequestSignature, "request signature: \(error.reason)", underlying: error)
    }
    let policy: any CertificatePolicy =
      prefix == .x509SANDNS
      ? OpenID4VPSANDNSPolicy(clientID: identifier.value)
      : OpenID4VPX509HashPolicy(hash: identifier.value)
    let validator = CertificateValidator(
      trustAnchors: trustAnchors, policies: [policy], revocation: .current)
    switch validator.validate(chain: chain, at: now) {
    case .trusted(let trusted):
      return (chain, trusted)
    case .untrusted(let reason), .malformed(let reason):
      throw OpenID4VPError(.untrustedVerifier, "verifier \(identifier.rawValue): \(reason)")
    }
  }

  /// An `x5c` chain, parsed, with HAIP 1.0 §5's rules for signed requests: the trust anchor is
  /// not sent in x5c, and the signing certificate is not self-signed. Either would let a pinned
  /// or root key stand for a verifier without a path from a trust anchor to a distinct signing
  /// certificate.
  package static func certificateChain(
    _ x5c: [[UInt8]]?, trustAnchors: [Certificate], what: String
  ) throws(OpenID4VPError) -> [Certificate] {
    guard let x5c, !x5c.isEmpty else {
      throw OpenID4VPError(.invalidRequest, "\(what) carry the certificate in x5c")
    }
    var chain: [Certificate] = []
    for der in x5c {
      do {
        chain.append(try Certificate(derEncoded: der))
      } catch {
        throw OpenID4VPError(
          .invalidRequest, "x5c certificate does not parse: \(error.reason)", underlying: error)
      }
    }
    for (index, certificate) in chain.enumerated()
    where isSelfSigned(certificate)
      || trustAnchors.contains(where: {
        $0.subject == certificate.subject && $0.publicKey == certificate.publicKey
      })
    {
      throw OpenID4VPError(
        .untrustedVerifier,
        index == 0 && isSelfSigned(certificate)
          ? "the request signing certificate \(certificate.subject) is self-signed (HAIP 1.0)"
          : "x5c includes the trust anchor \(certificate.subject), which HAIP 1.0 forbids")
    }
    return chain
  }
}

/// Self-issued (RFC 5280 §3.2: subject equals issuer) and signed by its own key.
package func isSelfSigned(_ certificate: Certificate) -> Bool {
  certificate.isSelfIssued && certificate.isSignatureValid(issuedBy: certificate)
}
