import DCJSON
import Foundation

/// The payload of a registration certificate, read from the JWT's JSON or the CWT's mirror of it
/// (ETSI TS 119 475 v1.2.1 clause 5.2.4, Tables 7 to 10).
struct RegistrationPayload {
  let subject: String
  let name: String
  let legalName: String?
  let country: String
  let registryURI: String
  let entitlements: [String]
  let purpose: [RegistrationCertificate.LocalizedText]
  let privacyPolicy: String?
  let credentials: [RegisteredCredential]
  let providedAttestations: [RegisteredCredential]
  let intermediary: RegistrationCertificate.Intermediary?
  let isPublicBody: Bool?
  let intendedUseID: String?
  let issuedAt: Date
  let expiresAt: Date?
  let statusReference: RegistrationCertificate.StatusReference?

  init(_ json: JSONValue) throws(TrustError) {
    guard json.object != nil else {
      throw TrustError(.malformed, "registration certificate payload is not an object")
    }
    let reader = PayloadReader(json: json)
    // Table 7: sub, name, country, registry_uri and iat are mandatory.
    subject = try reader.requiredString("sub")
    name = try reader.requiredString("name")
    country = try reader.requiredString("country")
    registryURI = try reader.requiredString("registry_uri")
    issuedAt = try reader.requiredDate("iat")
    expiresAt = try reader.date("exp")
    // Table 8: at least one entitlement (GEN-5.2.4-03).
    entitlements = try reader.strings("entitlements")
    guard !entitlements.isEmpty else {
      throw TrustError(.malformed, "entitlements must name at least one (GEN-5.2.4-03)")
    }
    if let legal = try reader.string("sub_ln") {
      legalName = legal
    } else if let given = try reader.string("sub_gn"), let family = try reader.string("sub_fn") {
      legalName = "\(given) \(family)"
    } else {
      legalName = nil
    }
    purpose = try reader.localized("purpose")
    privacyPolicy = try reader.string("privacy_policy")
    credentials = try reader.credentials("credentials")
    providedAttestations = try reader.credentials("provides_attestations")
    intermediary = try reader.intermediary()
    isPublicBody = try reader.bool("public_body")
    intendedUseID = try reader.string("intended_use_id")
    statusReference = try reader.status()
  }

  /// `iat` not in the future, `exp` not passed, and at most 12 months apart (GEN-5.2.4-08).
  func checkValidity(at time: Date) throws(TrustError) {
    // A minute of leeway for clocks that disagree.
    guard issuedAt <= time.addingTimeInterval(60) else {
      throw TrustError(.expired, "registration certificate issued in the future (iat)")
    }
    guard let expiresAt else { return }
    guard time < expiresAt else {
      throw TrustError(.expired, "registration certificate expired at \(expiresAt)")
    }
    guard expiresAt.timeIntervalSince(issuedAt) <= RegistrationLimits.maxLifetime else {
      throw TrustError(.malformed, "exp is more than 12 months after iat (GEN-5.2.4-08)")
    }
  }
}

/// Typed reads of the payload's members, each failing with the member's name.
private struct PayloadReader {
  let json: JSONValue

  func requiredString(_ key: String) throws(TrustError) -> String {
    guard let value = try string(key) else {
      throw TrustError(.malformed, "registration certificate has no \(key)")
    }
    return value
  }

  func string(_ key: String) throws(TrustError) -> String? {
    guard let value = json[key], !value.isNull else { return nil }
    guard let text = value.string, !text.isEmpty else {
      throw TrustError(.malformed, "\(key) must be a non-empty string")
    }
    return text
  }

  func bool(_ key: String) throws(TrustError) -> Bool? {
    guard let value = json[key], !value.isNull else { return nil }
    guard let bool = value.bool else { throw TrustError(.malformed, "\(key) must be a boolean") }
    return bool
  }

  func requiredDate(_ key: String) throws(TrustError) -> Date {
    guard let date = try date(key) else {
      throw TrustError(.malformed, "registration certificate has no \(key)")
    }
    return date
  }

  /// A NumericDate (RFC 7519 §2), in seconds.
  func date(_ key: String) throws(TrustError) -> Date? {
    guard let value = json[key], !value.isNull else { return nil }
    guard let seconds = value.double, seconds.isFinite, seconds >= 0, seconds < 1e11 else {
      throw TrustError(.malformed, "\(key) must be a NumericDate")
    }
    return Date(timeIntervalSince1970: seconds)
  }

  func strings(_ key: String) throws(TrustError) -> [String] {
    guard let value = json[key], !value.isNull else { return [] }
    guard let items = value.array, items.count <= RegistrationLimits.maxClaimsPerCredential else {
      throw TrustError(.malformed, "\(key) must be an array within the limit")
    }
    var result: [String] = []
    for item in items {
      guard let text = item.string else {
        throw TrustError(.malformed, "\(key) must hold strings")
      }
      result.append(text)
    }
    return result
  }

  /// Annex B.2.6 MultiLangString: `[{"lang", "value"}]`.
  func localized(_ key: String) throws(TrustError) -> [RegistrationCertificate.LocalizedText] {
    guard let value = json[key], !value.isNull else { return [] }
    guard let items = value.array, items.count <= RegistrationLimits.maxCredentials else {
      throw TrustError(.malformed, "\(key) must be an array of language-tagged texts")
    }
    var result: [RegistrationCertificate.LocalizedText] = []
    for item in items {
      guard let language = item["lang"]?.string, let text = item["value"]?.string else {
        throw TrustError(.malformed, "\(key) members need lang and value")
      }
      result.append(.init(language: language, value: text))
    }
    return result
  }

  /// Table 10: `intermediary` `{sub, sname}`.
  func intermediary() throws(TrustError) -> RegistrationCertificate.Intermediary? {
    guard let value = json["intermediary"], !value.isNull else { return nil }
    guard let sub = value["sub"]?.string,
      let name = value["sname"]?.string ?? value["name"]?.string
    else {
      throw TrustError(.malformed, "intermediary needs sub and sname")
    }
    // GEN-5.2.4-09: under intermediation `act.sub` names the same intermediary.
    if let act = json["act"], let actor = act["sub"]?.string, actor != sub {
      throw TrustError(.malformed, "act.sub does not name the intermediary (GEN-5.2.4-09)")
    }
    return .init(subject: sub, name: name)
  }

  /// Table 10: `status` `{"status_list": {"idx", "uri"}}`.
  func status() throws(TrustError) -> RegistrationCertificate.StatusReference? {
    guard let value = json["status"], !value.isNull else { return nil }
    guard let list = value["status_list"], let index = list["idx"]?.int, index >= 0,
      let uri = list["uri"]?.string
    else {
      throw TrustError(.malformed, "status must hold status_list with idx and uri")
    }
    return .init(index: index, uri: uri)
  }

  /// Annex B.2.9 Class Credential: `{format, meta, claim?}`.
  func credentials(_ key: String) throws(TrustError) -> [RegisteredCredential] {
    guard let value = json[key], !value.isNull else { return [] }
    guard let items = value.array, items.count <= RegistrationLimits.maxCredentials else {
      throw TrustError(.tooLarge, "\(key) must be an array of at most the limit")
    }
    var result: [RegisteredCredential] = []
    for item in items { result.append(try credential(item, key: key)) }
    return result
  }

  private func credential(_ item: JSONValue, key: String) throws(TrustError)
    -> RegisteredCredential
  {
    guard let format = item["format"]?.string, let meta = item["meta"], meta.object != nil else {
      throw TrustError(.malformed, "\(key) members need format and meta")
    }
    let docType = meta["doctype_value"]?.string
    let vctValues = meta["vct_values"]?.array?.compactMap(\.string) ?? []
    // Tables 8 and 9 name the array `claim`; `claims` (the DCQL spelling) is read too.
    guard let claimList = item["claim"] ?? item["claims"], !claimList.isNull else {
      return RegisteredCredential(
        format: format, docType: docType, vctValues: vctValues, claims: nil)
    }
    guard let claimItems = claimList.array,
      claimItems.count <= RegistrationLimits.maxClaimsPerCredential
    else {
      throw TrustError(.tooLarge, "\(key) claim list must be an array within the limit")
    }
    var claims: [RegistrationClaimPath] = []
    for claim in claimItems { claims.append(try Self.path(claim["path"])) }
    return RegisteredCredential(
      format: format, docType: docType, vctValues: vctValues, claims: claims)
  }

  /// Annex B.2.10: a non-empty array of strings, non-negative integers and nulls.
  static func path(_ value: JSONValue?) throws(TrustError) -> RegistrationClaimPath {
    guard let items = value?.array, !items.isEmpty,
      items.count <= RegistrationLimits.maxPathLength
    else {
      throw TrustError(.malformed, "claim path must be a non-empty array within the limit")
    }
    var components: [RegistrationClaimPath.Component] = []
    for item in items {
      if let key = item.string {
        components.append(.key(key))
      } else if let index = item.int, index >= 0 {
        components.append(.index(index))
      } else if item.isNull {
        components.append(.allElements)
      } else {
        throw TrustError(.malformed, "claim path components are strings, indexes or null")
      }
    }
    return RegistrationClaimPath(components)
  }
}
