import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCX509
import Foundation

/// A JAdES baseline signature in the JWS compact serialization (ETSI TS 119 182-1), verified
/// against the certificates its signer must be one of.
struct JAdESCompact {
  /// The JAdES header parameters this reader processes, which `crit` may list (TS 119 182-1
  /// §5.2: JAdES parameters in the protected header are listed in `crit`).
  static let understoodCritical: Set<String> = ["sigT"]

  /// The verified payload.
  let payload: [UInt8]
  /// The operator certificate that signed.
  let signer: Certificate
  /// The claimed signing time, `sigT` (TS 119 182-1 §5.2.1).
  let signingTime: Date

  /// Parses and verifies `text`: the structure, the JAdES-B-B header (TS 119 182-1 §6.2.1:
  /// `sigT` in `crit`, the signing certificate referenced by `x5c` or `x5t#S256`, §5.1.7 and
  /// its Table 1), the signer being one of
  /// `operatorCertificates`, valid at the signing time, and the signature.
  init(_ text: String, operatorCertificates: [Certificate]) throws(TrustError) {
    let jws: CompactJWS
    do {
      jws = try CompactJWS(text, understoodCriticalParameters: Self.understoodCritical)
    } catch {
      let code: TrustErrorCode = error.code == .unsupportedAlgorithm ? .unsupported : .malformed
      throw TrustError(
        code, "the list is not a JAdES compact JWS: \(error.reason)", underlying: error)
    }
    signingTime = try Self.signingTime(jws.protectedHeader)
    signer = try Self.signer(of: jws, among: operatorCertificates)
    guard let key = signer.publicKey.ecPublicKey else {
      throw TrustError(.unsupported, "the operator certificate's key is \(signer.publicKey)")
    }
    do {
      try jws.verifySignature(with: key)
    } catch {
      throw TrustError(
        .invalidSignature, "the list's signature does not verify: \(error.reason)",
        underlying: error)
    }
    guard signer.notBefore <= signingTime, signingTime <= signer.notAfter else {
      throw TrustError(.expired, "the operator certificate was not valid at the signing time")
    }
    payload = jws.payload
  }

  /// Reads `sigT` (TS 119 182-1 §5.2.1), which must be present and listed in `crit`.
  static func signingTime(_ header: JSONValue) throws(TrustError) -> Date {
    guard let text = header["sigT"]?.string else {
      throw TrustError(.malformed, "the JAdES header has no sigT (TS 119 182-1 §5.2.1)")
    }
    guard header["crit"]?.array?.contains(.string("sigT")) == true else {
      throw TrustError(.malformed, "the JAdES header does not list sigT in crit")
    }
    guard let date = ETSIDateTime.parse(text) else {
      throw TrustError(.malformed, "sigT is not a date-time: \(text.prefix(40))")
    }
    return date
  }

  /// The operator certificate the header names: `x5c`'s first certificate (RFC 7515 §4.1.6)
  /// or the one whose SHA-256 is `x5t#S256` (§4.1.8); when both are present they must agree.
  static func signer(
    of jws: CompactJWS, among operators: [Certificate]
  ) throws(TrustError) -> Certificate {
    var thumbprint: [UInt8]?
    if let value = jws.protectedHeader["x5t#S256"] {
      guard let text = value.string, let bytes = try? Base64URL.decode(text), bytes.count == 32
      else { throw TrustError(.malformed, "x5t#S256 is not a base64url SHA-256") }
      thumbprint = bytes
    }
    let named: [UInt8]
    if let leaf = jws.x5c?.first {
      guard thumbprint == nil || thumbprint == SHA256.hash(data: leaf) else {
        throw TrustError(.malformed, "x5t#S256 does not identify the x5c signing certificate")
      }
      named = SHA256.hash(data: leaf)
    } else if let thumbprint {
      named = thumbprint
    } else {
      throw TrustError(
        .malformed, "the JAdES header names no signing certificate (x5c or x5t#S256)")
    }
    guard let signer = operators.first(where: { SHA256.hash(data: $0.derBytes) == named }) else {
      throw TrustError(.untrustedSigner, "the list is not signed by an operator certificate")
    }
    return signer
  }

  /// Signs `payload` as a JAdES-B-B compact JWS: `alg`, `x5c` with `certificate`, `sigT` in
  /// `crit` (TS 119 182-1 §6.2.1), `typ` and `cty` as the caller gives them.
  static func sign(
    payload: [UInt8], signer: any Signer, certificate: Certificate, signingTime: Date,
    type: String?
  ) throws(TrustError) -> String {
    var header: [(String, JSONValue)] = [
      ("alg", .string(JWSAlgorithm(curve: signer.curve).rawValue))
    ]
    if let type { header.append(("typ", .string(type))) }
    header += [
      ("x5c", JWS.x5c([certificate.derBytes])),
      ("sigT", .string(ETSIDateTime.format(signingTime))),
      ("crit", .array([.string("sigT")])),
    ]
    do {
      return try JWS.sign(
        payload: payload, protectedHeader: .object(header), signer: signer,
        understoodCriticalParameters: understoodCritical)
    } catch {
      throw TrustError(.malformed, "signing the list failed: \(error.reason)", underlying: error)
    }
  }
}
