public import DCCrypto
import DCEncoding
import DCJOSE
public import DCJSON
public import DCX509
public import Foundation

/// Issues SD-JWT VCs: makes the chosen claims selectively disclosable, adds decoys, and signs
/// the Issuer-signed JWT (RFC 9901 §4, §5.1; SD-JWT VC §3).
public enum SDJWTIssuer {
  /// Salts carry 128 bits of randomness (RFC 9901 §9.3 recommends at least that).
  static let saltByteCount = 16

  /// Issues an SD-JWT VC with the given claims, selectively disclosable at `selectivelyDisclosable`
  /// (RFC 9901 §4.2, §5.1; SD-JWT VC §3.2).
  ///
  /// Paths name object members and array elements of `claims`; a path below another disclosable
  /// path makes a recursive Disclosure (RFC 9901 §4.2.6). `decoys` decoy digests are added to
  /// every `_sd` array (RFC 9901 §4.2.5). `_sd` arrays are sorted so that order reveals nothing
  /// (RFC 9901 §4.2.4.1). The header is `{"alg", "typ": type, "x5c"?}`.
  ///
  /// - Throws: `malformed` when `claims` is not an object, holds `_sd`, `...` or `_sd_alg`, or
  ///   already holds a claim set by a parameter; `claimNotFound` for a path that names nothing;
  ///   `forbiddenDisclosure` for a path at or below `iss`, `nbf`, `exp`, `cnf`, `vct`,
  ///   `vct#integrity`, `aka_vcts` or `status`;
  ///   `signingFailed`.
  public static func issue(
    claims: JSONValue,
    selectivelyDisclosable: [ClaimPath],
    decoys: Int = 0,
    holderKey: ECPublicKey?,
    vct: String,
    issuer: String?,
    issuedAt: Date?,
    notBefore: Date? = nil,
    expiresAt: Date? = nil,
    hashAlgorithm: SDHashAlgorithm = .sha256,
    type: String = "dc+sd-jwt",
    signer: any Signer,
    x5c: [Certificate] = [],
    random: any RandomSource
  ) throws(SDJWTError) -> SDJWT {
    guard case .object(let members) = claims else {
      throw SDJWTError(.malformed, "claims must be a JSON object")
    }
    let reserved = ["vct", "iss", "iat", "nbf", "exp", "cnf", "_sd_alg"]
    for name in reserved where claims[name] != nil {
      throw SDJWTError(.malformed, "claim \(name) is set by its own parameter, not in claims")
    }
    for path in selectivelyDisclosable {
      if case .key(let name) = path.components.first,
        SDJWTProfile.sdJWTVC.clearClaims.contains(name)
      {
        // SD-JWT VC §3.2.2, "Registered JWT Claims": these claims stay in the clear.
        throw SDJWTError(.forbiddenDisclosure, "claim \(name) must not be selectively disclosed")
      }
      guard !path.components.isEmpty, claims.value(at: path) != nil else {
        throw SDJWTError(.claimNotFound, "no claim at \(path.dotted) to make disclosable")
      }
    }
    var builder = PayloadBuilder(
      disclosable: Set(selectivelyDisclosable), decoys: max(0, decoys),
      algorithm: hashAlgorithm, random: random)
    let body = try builder.build(.object(members), at: [])

    var registered: [(key: String, value: JSONValue)] = []
    if let issuer { registered.append(("iss", .string(issuer))) }
    if let issuedAt { registered.append(("iat", try numericDate(issuedAt))) }
    if let notBefore { registered.append(("nbf", try numericDate(notBefore))) }
    if let expiresAt { registered.append(("exp", try numericDate(expiresAt))) }
    registered.append(("vct", .string(vct)))
    if let holderKey {
      // RFC 7800 §3.2: the holder's public key as a JWK under cnf.
      registered.append(("cnf", .object([("jwk", JWK(publicKey: holderKey).json)])))
    }
    registered.append(("_sd_alg", .string(hashAlgorithm.rawValue)))
    let payload = JSONValue.object(registered + (body.object ?? []))

    var header: [(key: String, value: JSONValue)] = [("typ", .string(type))]
    if !x5c.isEmpty { header.append(("x5c", JWS.x5c(x5c.map(\.derBytes)))) }
    let jwt: String
    do {
      jwt = try JWS.sign(
        payload: payload.serializedBytes(), protectedHeader: .object(header), signer: signer)
    } catch {
      throw SDJWTError(.signingFailed, error.reason, underlying: error)
    }
    let issuance = ([jwt] + builder.disclosures.map(\.encoded)).joined(separator: "~") + "~"
    return try SDJWT(serialized: issuance)
  }

  /// A fresh salt: 16 random bytes in base64url (RFC 9901 §4.2.1).
  static func salt(_ random: any RandomSource) -> String {
    Base64URL.encode(random.bytes(count: saltByteCount))
  }
}

/// Builds the SD-JWT payload bottom-up, so nested Disclosures exist before their parents
/// (RFC 9901 §4.2.6).
private struct PayloadBuilder {
  let disclosable: Set<ClaimPath>
  let decoys: Int
  let algorithm: SDHashAlgorithm
  let random: any RandomSource
  var disclosures: [Disclosure] = []

  mutating func build(_ value: JSONValue, at path: ClaimPath) throws(SDJWTError) -> JSONValue {
    switch value {
    case .object(let members):
      var output: [(key: String, value: JSONValue)] = []
      var digests: [String] = []
      for member in members {
        // RFC 9901 §4.2.4: these names are the digest structures' own.
        guard member.key != "_sd", member.key != "..." else {
          throw SDJWTError(.malformed, "claims must not contain \(member.key) (at \(path.dotted))")
        }
        let childPath = path.appending(.key(member.key))
        let child = try build(member.value, at: childPath)
        if disclosable.contains(childPath) {
          let disclosure = try Disclosure(
            salt: SDJWTIssuer.salt(random), name: member.key, value: child)
          disclosures.append(disclosure)
          digests.append(disclosure.digest(algorithm))
        } else {
          output.append((member.key, child))
        }
      }
      guard !digests.isEmpty else { return .object(output) }
      // RFC 9901 §4.2.5: decoys are digests of random data, indistinguishable from real ones.
      for _ in 0..<decoys {
        digests.append(
          Base64URL.encode(algorithm.digestAlgorithm.hash(Array(SDJWTIssuer.salt(random).utf8))))
      }
      // RFC 9901 §4.2.4.1: sorted, so the order hides which claims were listed first.
      return .object([("_sd", .array(digests.sorted().map { .string($0) }))] + output)
    case .array(let elements):
      var output: [JSONValue] = []
      for (index, element) in elements.enumerated() {
        let childPath = path.appending(.index(index))
        let child = try build(element, at: childPath)
        if disclosable.contains(childPath) {
          let disclosure = try Disclosure(salt: SDJWTIssuer.salt(random), name: nil, value: child)
          disclosures.append(disclosure)
          output.append(.object([("...", .string(disclosure.digest(algorithm)))]))
        } else {
          output.append(child)
        }
      }
      return .array(output)
    default:
      return value
    }
  }
}

/// A NumericDate in whole seconds (RFC 7519 §2); dates outside the 64-bit range are refused.
func numericDate(_ date: Date) throws(SDJWTError) -> JSONValue {
  guard let seconds = Int64(exactly: date.timeIntervalSince1970.rounded(.down)) else {
    throw SDJWTError(.invalidClaim, "date \(date) is not representable as a NumericDate")
  }
  return .integer(seconds)
}
