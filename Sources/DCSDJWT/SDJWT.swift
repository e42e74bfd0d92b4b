public import DCJOSE
package import DCJSON

/// An SD-JWT in the compact serialization, `<Issuer-signed JWT>~<Disclosure>~...~[<KB-JWT>]`,
/// parsed but not yet verified; every part keeps the exact text received (RFC 9901 §4, §7.1).
public struct SDJWT: Sendable, Hashable {
  /// The whole text parsed (RFC 9901 §4).
  public let serialized: String
  /// The Issuer-signed JWT, with its received signing input (RFC 9901 §4.1).
  public let issuerSignedJWT: CompactJWS
  /// The Issuer-signed JWT payload as received, with `_sd` digests (RFC 9901 §4.1).
  package let issuerPayload: JSONValue
  /// The Disclosures in the order received, each with its exact text (RFC 9901 §4.2).
  public let disclosures: [Disclosure]
  /// The Key Binding JWT when the text ends with one (RFC 9901 §4.3).
  public let keyBindingJWT: CompactJWS?
  /// The hash algorithm from `_sd_alg`, SHA-256 by default (RFC 9901 §4.1.1).
  package let hashAlgorithm: SDHashAlgorithm

  /// Parses the compact serialization (RFC 9901 §4, §7.1 step 1).
  ///
  /// - Throws: `malformed` when there is no `~` after the JWT, a Disclosure is empty, or a JWT
  ///   or the payload does not parse; `invalidDisclosure`; `unsupportedHashAlgorithm`;
  ///   `invalidKeyBinding` for a KB-JWT that is not a compact JWS.
  public init(serialized: String) throws(SDJWTError) {
    let parts = serialized.split(separator: "~", omittingEmptySubsequences: false)
    // RFC 9901 §4: at least the JWT and a final (possibly empty) KB-JWT part.
    guard parts.count >= 2 else {
      throw SDJWTError(.malformed, "an SD-JWT needs at least one ~ after the issuer-signed JWT")
    }
    do {
      issuerSignedJWT = try CompactJWS(String(parts[0]))
    } catch {
      throw SDJWTError(.malformed, "issuer-signed JWT: \(error.reason)", underlying: error)
    }
    do {
      let claims = try JWTClaims(payload: issuerSignedJWT.payload)
      issuerPayload = claims.json
    } catch {
      throw SDJWTError(.malformed, "issuer-signed JWT payload: \(error.reason)", underlying: error)
    }
    hashAlgorithm = try ProcessedSDJWT.hashAlgorithm(of: issuerPayload)
    var disclosures: [Disclosure] = []
    for part in parts.dropFirst().dropLast() {
      guard !part.isEmpty else {
        throw SDJWTError(.malformed, "empty disclosure between two ~")
      }
      disclosures.append(try Disclosure(String(part)))
    }
    self.disclosures = disclosures
    if let last = parts.last, !last.isEmpty {
      do {
        keyBindingJWT = try CompactJWS(String(last))
      } catch {
        throw SDJWTError(.invalidKeyBinding, "KB-JWT: \(error.reason)", underlying: error)
      }
    } else {
      keyBindingJWT = nil
    }
    self.serialized = serialized
  }

  /// The text the KB-JWT's `sd_hash` covers: everything up to and including the last `~`, as
  /// received (RFC 9901 §4.3.1).
  package var sdHashInput: String {
    guard let index = serialized.lastIndex(of: "~") else { return serialized }
    return String(serialized[...index])
  }

  /// The `sd_hash` a KB-JWT for this text must carry (RFC 9901 §4.3.1).
  package var sdHash: String { hashAlgorithm.base64URLDigest(ofASCII: sdHashInput) }

  /// Replaces the Disclosures with those presented and puts them back into the payload
  /// (RFC 9901 §7.1 steps 3-6); the issuer's signature is not checked here.
  public func process() throws(SDJWTError) -> ProcessedSDJWT {
    try ProcessedSDJWT(issuerPayload: issuerPayload, disclosures: disclosures)
  }
}
