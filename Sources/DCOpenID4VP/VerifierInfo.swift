import DCEncoding
package import DCJSON

/// `verifier_info` (OpenID4VP 1.0 §5.1): attestations about the verifier, each
/// `{"format", "data", "credential_ids"?}`; a relying party's registration certificate (ETSI TS
/// 119 475) has the format `registration_cert`, as the EUDI verifier and wallets send it.
package enum VerifierInfo {
  /// The format of a registration certificate entry (also `issuer_info`'s, ETSI TS 119 472-3).
  package static let registrationCertificateFormat = "registration_cert"
  /// The most entries read.
  package static let maximumEntries = 16

  /// The registration certificates among the entries: a JWT as its text, a CWT as base64url of
  /// its COSE_Sign1 (the spec leaves a CWT's string form open; base64url is JSON's way to carry
  /// bytes here). Entries of other formats are skipped.
  ///
  /// - Throws: `OpenID4VPError.invalidRequest` when `verifier_info` is not a non-empty array of
  ///   objects with a string `format` and a `data`, or when a registration certificate's data is
  ///   not a string.
  package static func registrationCertificates(in value: JSONValue?) throws(OpenID4VPError)
    -> [[UInt8]]
  {
    guard let value, !value.isNull else { return [] }
    guard let entries = value.array, !entries.isEmpty, entries.count <= maximumEntries else {
      throw OpenID4VPError(.invalidRequest, "verifier_info must be a non-empty array (§5.1)")
    }
    var certificates: [[UInt8]] = []
    for entry in entries {
      guard let format = entry["format"]?.string, let data = entry["data"], !data.isNull else {
        throw OpenID4VPError(.invalidRequest, "verifier_info entries need format and data (§5.1)")
      }
      guard format == registrationCertificateFormat else { continue }
      guard let text = data.string else {
        throw OpenID4VPError(.invalidRequest, "a registration_cert's data must be a string")
      }
      certificates.append(decoded(text))
    }
    return certificates
  }

  /// A JWT's text stays text; anything else is read as base64url (a CWT).
  static func decoded(_ text: String) -> [UInt8] {
    if text.utf8.filter({ $0 == UInt8(ascii: ".") }).count == 2 { return Array(text.utf8) }
    return (try? Base64URL.decode(text)) ?? Array(text.utf8)
  }

  /// The entry for a registration certificate, as a verifier or issuer sends it.
  package static func entry(registrationCertificate certificate: [UInt8]) -> JSONValue {
    let isJWT =
      certificate.allSatisfy { $0 < 0x80 }
      && certificate.filter { $0 == UInt8(ascii: ".") }.count == 2
    let data = isJWT ? String(decoding: certificate, as: UTF8.self) : Base64URL.encode(certificate)
    return ["format": .string(registrationCertificateFormat), "data": .string(data)]
  }
}
