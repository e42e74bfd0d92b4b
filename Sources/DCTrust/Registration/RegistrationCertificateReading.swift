import DCCBOR
import DCCOSE
import DCCrypto
import DCJOSE
import DCJSON
public import DCX509
public import Foundation

/// The bounds a registration certificate is read within (docs/LIMITS.md).
package enum RegistrationLimits {
  /// The largest certificate accepted, in bytes.
  package static let maxBytes = 64 * 1024
  /// The most certificates in `x5c` / `x5chain`.
  package static let maxChainLength = 8
  /// The most credentials in `credentials` or `provides_attestations`.
  package static let maxCredentials = 64
  /// The most claims one registered credential may list.
  package static let maxClaimsPerCredential = 256
  /// The most components a claim path may have.
  package static let maxPathLength = 16
  /// The deepest nesting of the payload.
  package static let maxDepth = 16
  /// GEN-5.2.4-08: `exp` is at most 12 months after `iat` (taken as 366 days).
  package static let maxLifetime: TimeInterval = 366 * 86_400
}

extension RegistrationCertificate {
  /// The JWT `typ` (ETSI TS 119 475 clause 5.2.2, Table 5).
  package static let jwtType = "rc-wrp+jwt"
  /// The CWT `typ`, COSE header label 16 (clause 5.2.3, Table 6; RFC 9596).
  package static let cwtType = "rc-wrp+cwt"

  /// Reads and verifies a registration certificate in either form (ETSI TS 119 475 clause 5.2):
  /// the `typ`, the signature by the leaf of `x5c` / `x5chain`, the chain to a
  /// registration-certificate provider through `sources` (anchors or list entries of that service
  /// type), checked against `revocation`'s CRLs when given, the payload (Tables 7 to 10) and its
  /// validity at `time`.
  ///
  /// - Throws: `TrustError` `tooLarge` past a limit, `malformed` for a structure or claim that is
  ///   not the spec's, `unsupported` for another `typ` or algorithm, `invalidSignature`,
  ///   `untrustedSigner` (the reason lists every refusal), `expired` outside `iat`...`exp`.
  public static func verifying(
    _ bytes: [UInt8], sources: TrustSources, at time: Date, revocation: RevocationCheck? = nil
  ) throws(TrustError) -> RegistrationCertificate {
    guard bytes.count <= RegistrationLimits.maxBytes else {
      throw TrustError(
        .tooLarge, "registration certificate of \(bytes.count) bytes is over the limit")
    }
    let signed = try isCompactJWS(bytes) ? readJWT(bytes) : readCWT(bytes)
    let decision = sources.decide(
      chain: signed.chain, for: .registrationCertificateProvider, at: time,
      revocation: revocation)
    if case .untrusted(let refusals) = decision {
      throw TrustError(
        .untrustedSigner,
        "registration certificate signer is not a trusted registration-certificate provider: "
          + refusals.map { "\($0)" }.joined(separator: "; "))
    }
    let claims = try RegistrationPayload(signed.payload)
    try claims.checkValidity(at: time)
    return RegistrationCertificate(
      form: signed.form, bytes: bytes, payload: claims, chain: signed.chain, decision: decision)
  }

  /// Reads a payload's claims from JSON, without a signature (the fuzz target's entry).
  package static func readPayload(json bytes: [UInt8]) throws(TrustError) {
    let json: JSONValue
    do {
      json = try JSONValue(
        parsing: bytes,
        limits: JSONLimits(
          maxDepth: RegistrationLimits.maxDepth, maxLength: RegistrationLimits.maxBytes))
    } catch {
      throw TrustError(.malformed, "registration certificate payload: \(error.reason)")
    }
    _ = try RegistrationPayload(json)
  }

  /// A compact JWS is base64url text with two dots; a COSE_Sign1 starts with a CBOR array or tag.
  static func isCompactJWS(_ bytes: [UInt8]) -> Bool {
    guard let first = bytes.first, first != 0x84, first != 0xD2 else { return false }
    return bytes.allSatisfy { $0 < 0x80 } && bytes.filter { $0 == UInt8(ascii: ".") }.count == 2
  }

  struct Signed {
    let form: Form
    let chain: [Certificate]
    let payload: JSONValue
  }

  /// Clause 5.2.2: a JWS whose header has `typ` `rc-wrp+jwt`, `alg` and `x5c`.
  static func readJWT(_ bytes: [UInt8]) throws(TrustError) -> Signed {
    let jws: CompactJWS
    do {
      jws = try CompactJWS(String(decoding: bytes, as: UTF8.self))
    } catch {
      let code: TrustErrorCode = error.code == .unsupportedAlgorithm ? .unsupported : .malformed
      throw TrustError(code, "registration certificate JWS: \(error.reason)", underlying: error)
    }
    guard jws.type == jwtType else {
      throw TrustError(
        .unsupported, "JWT typ is \(jws.type ?? "absent"), not \(jwtType) (TS 119 475 Table 5)")
    }
    let chain = try certificates(jws.x5c ?? [])
    let key = try leafKey(chain)
    do {
      try jws.verifySignature(with: key)
    } catch {
      throw TrustError(
        .invalidSignature, "registration certificate signature: \(error.reason)",
        underlying: error)
    }
    let payload: JSONValue
    do {
      payload = try JSONValue(
        parsing: jws.payload,
        limits: JSONLimits(
          maxDepth: RegistrationLimits.maxDepth, maxLength: RegistrationLimits.maxBytes))
    } catch {
      throw TrustError(.malformed, "registration certificate payload: \(error.reason)")
    }
    return Signed(form: .jwt, chain: chain, payload: payload)
  }

  /// Clause 5.2.3: a COSE_Sign1 (RFC 9052) whose protected header has `typ` (label 16)
  /// `rc-wrp+cwt` and `alg`, and `x5chain` (RFC 9360) in either bucket.
  static func readCWT(_ bytes: [UInt8]) throws(TrustError) -> Signed {
    let message: COSESign1
    do {
      message = try COSESign1(bytes: bytes)
    } catch {
      throw TrustError(
        .malformed, "registration certificate CWT: \(error.reason)", underlying: error)
    }
    guard let type = message.headers.protected[16]?.text, type == cwtType else {
      throw TrustError(.unsupported, "CWT typ (label 16) is not \(cwtType) (TS 119 475 Table 6)")
    }
    let der: [[UInt8]]
    do {
      der = try message.headers.x5chain
    } catch {
      throw TrustError(.malformed, "x5chain: \(error.reason)", underlying: error)
    }
    let chain = try certificates(der)
    guard let body = message.payload else {
      throw TrustError(.malformed, "registration certificate CWT has no payload")
    }
    let key = try leafKey(chain)
    do {
      try message.verify(publicKey: key)
    } catch {
      let code: TrustErrorCode =
        error.code == .unsupportedAlgorithm ? .unsupported : .invalidSignature
      throw TrustError(
        code, "registration certificate signature: \(error.reason)", underlying: error)
    }
    let decoded: CBOR
    do {
      decoded = try CBOR.decode(body)
    } catch {
      throw TrustError(.malformed, "CWT payload: \(error.reason)", underlying: error)
    }
    return Signed(form: .cwt, chain: chain, payload: try json(decoded, depth: 0))
  }

  static func certificates(_ der: [[UInt8]]) throws(TrustError) -> [Certificate] {
    guard !der.isEmpty else {
      throw TrustError(.malformed, "registration certificate carries no signing certificate")
    }
    guard der.count <= RegistrationLimits.maxChainLength else {
      throw TrustError(.tooLarge, "signing chain of \(der.count) certificates is over the limit")
    }
    var chain: [Certificate] = []
    for item in der {
      do {
        chain.append(try Certificate(derEncoded: item))
      } catch {
        throw TrustError(.malformed, "signing certificate: \(error.reason)", underlying: error)
      }
    }
    return chain
  }

  static func leafKey(_ chain: [Certificate]) throws(TrustError) -> ECPublicKey {
    guard let key = chain[0].publicKey.ecPublicKey else {
      throw TrustError(
        .unsupported, "signing certificate key is \(chain[0].publicKey), not an EC key")
    }
    return key
  }

  /// The CWT payload is a map with the same text keys as the JWT's (clause 5.2.4 Tables 7 to 10
  /// name one claim set for both forms); it is read as the JSON value it mirrors.
  static func json(_ item: CBOR, depth: Int) throws(TrustError) -> JSONValue {
    guard depth <= RegistrationLimits.maxDepth else {
      throw TrustError(.tooLarge, "CWT payload nests deeper than the limit")
    }
    switch item.unwrapped {
    case .unsigned, .negative:
      guard let int = item.int else { throw TrustError(.malformed, "CWT integer out of range") }
      return .integer(Int64(int))
    case .textString(let text): return .string(text)
    case .boolean(let bool): return .bool(bool)
    case .null: return .null
    case .half, .float, .double: return .number(item.double ?? 0)
    case .tagged(1, let inner): return try json(inner, depth: depth + 1)
    case .array(let items):
      var values: [JSONValue] = []
      for element in items { values.append(try json(element, depth: depth + 1)) }
      return .array(values)
    case .map(let map):
      var members: [(key: String, value: JSONValue)] = []
      for (key, value) in map {
        guard let name = key.text else {
          throw TrustError(.malformed, "CWT payload key \(key) is not a text string")
        }
        members.append((name, try json(value, depth: depth + 1)))
      }
      return .object(members)
    default:
      throw TrustError(.malformed, "CWT payload holds a CBOR item JSON cannot mirror")
    }
  }

  init(
    form: Form, bytes: [UInt8], payload: RegistrationPayload, chain: [Certificate],
    decision: TrustDecision
  ) {
    self.form = form
    self.bytes = bytes
    self.subject = payload.subject
    self.name = payload.name
    self.legalName = payload.legalName
    self.country = payload.country
    self.registryURI = payload.registryURI
    self.entitlements = payload.entitlements
    self.purpose = payload.purpose
    self.privacyPolicy = payload.privacyPolicy
    self.credentials = payload.credentials
    self.providedAttestations = payload.providedAttestations
    self.intermediary = payload.intermediary
    self.isPublicBody = payload.isPublicBody
    self.intendedUseID = payload.intendedUseID
    self.issuedAt = payload.issuedAt
    self.expiresAt = payload.expiresAt
    self.statusReference = payload.statusReference
    self.signingChain = chain
    self.decision = decision
  }
}
