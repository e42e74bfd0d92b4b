import DCAPI
import DCCBOR
import DCEncoding
package import DCJSON
import DCOpenID4VP
import DCQL
package import DCTrust

/// A verified DC API response as the page shows it: per credential its claims, the portrait as
/// an image where the credential has one, the issuer trust and the status; then every check.
///
/// `{"protocol", "credentials": [{"id", "format", "type", "claims": [{"name", "path", "value"}],
/// "portrait"?, "trust"?, "status"?}], "checks": [...]}`; `checkText` words a check (the command
/// line gives English sentences, the default its case name).
package enum DigitalCredentialReport {
  package static func json(
    _ verification: DigitalCredentialVerification,
    checkText: (VerificationCheck) -> String,
    trustText: (TrustSource) -> String = { "\($0)" }
  ) -> JSONValue {
    switch verification {
    case .mdoc(let result):
      let credentials = result.documents.map { document in
        credential(
          id: document.docType, format: "mso_mdoc", type: document.docType,
          claims: document.elements.map {
            ([$0.nameSpace, $0.identifier], JSONValue(cbor: $0.value), $0.value.bytes)
          },
          checks: result.report.checks.filter { $0.concerns(docType: document.docType) },
          checkText: checkText, issuerTrust: document.issuerTrust.map(trustText))
      }
      return report(
        DigitalCredentialProtocol.orgIsoMdoc.rawValue, credentials, result.report.checks,
        checkText)
    case .openID4VP(let protocolID, let verified):
      return json(
        verified, protocolName: protocolID.rawValue, checkText: checkText, trustText: trustText)
    case .crossDevice(let verified):
      return json(verified, protocolName: "openid4vp", checkText: checkText, trustText: trustText)
    }
  }

  private static func json(
    _ verified: VerifiedAuthorizationResponse, protocolName: String,
    checkText: (VerificationCheck) -> String, trustText: (TrustSource) -> String
  ) -> JSONValue {
    var credentials: [JSONValue] = []
    var checks = verified.report.checks
    for (id, presented) in verified.credentials.sorted(by: { $0.key < $1.key }) {
      for item in presented {
        checks += item.report.checks
        credentials.append(
          credential(
            id: id, format: item.format, type: item.vct ?? item.docType ?? "",
            claims: item.claims.map { claim in
              let names = claim.path.components.compactMap { component -> String? in
                if case .key(let key) = component { return key }
                return nil
              }
              // mdoc byte strings arrive as base64url (Appendix B.2.4), as text does: only the
              // portrait is known to be bytes.
              let bytes =
                item.format == "mso_mdoc" && names.last == "portrait"
                ? claim.value.string.flatMap(Base64URL.decodeOrNil) : nil
              return (names, claim.value, bytes)
            }, checks: item.report.checks, checkText: checkText,
            issuerTrust: item.issuerTrust.map(trustText)))
      }
    }
    return report(protocolName, credentials, checks, checkText)
  }

  private static func report(
    _ protocolName: String, _ credentials: [JSONValue], _ checks: [VerificationCheck],
    _ checkText: (VerificationCheck) -> String
  ) -> JSONValue {
    .object([
      ("protocol", .string(protocolName)), ("credentials", .array(credentials)),
      ("checks", .array(checks.map { .string(checkText($0)) })),
    ])
  }

  /// One credential's entry; `claims` are (path names, value, raw bytes of a byte string).
  private static func credential(
    id: String, format: String, type: String,
    claims: [(names: [String], value: JSONValue, bytes: [UInt8]?)], checks: [VerificationCheck],
    checkText: (VerificationCheck) -> String, issuerTrust: String? = nil
  ) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("id", .string(id)), ("format", .string(format)), ("type", .string(type)),
      (
        "claims",
        .array(
          claims.map { claim in
            .object([
              ("name", .string(claim.names.last ?? "")),
              ("path", .array(claim.names.map { .string($0) })),
              (
                "value",
                claim.bytes == nil ? claim.value : .string("(\(claim.bytes?.count ?? 0) bytes)")
              ),
            ])
          })
      ),
    ]
    // ISO 18013-5 §7.2.1: portrait is a JPEG or JPEG 2000 byte string; a browser shows the JPEG.
    if let portrait = claims.first(where: { $0.names.last == "portrait" })?.bytes,
      let type = imageType(portrait)
    {
      members.append(("portrait", .string("data:\(type);base64," + Base64.encode(portrait))))
    }
    if let trust = checks.first(where: \.isIssuerTrust) {
      members.append(("trust", .string(checkText(trust))))
    }
    if let status = checks.first(where: \.isStatus) {
      members.append(("status", .string(checkText(status))))
    }
    // Issue 29: what trusted the issuer (the anchor, or the list, entity and service type).
    if let issuerTrust { members.append(("issuer_trust", .string(issuerTrust))) }
    return .object(members)
  }

  /// The image type by its signature: JPEG (`FF D8 FF`) or PNG; nil for anything else.
  static func imageType(_ bytes: [UInt8]) -> String? {
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
    return nil
  }
}

extension VerificationCheck {
  /// Whether this check names `docType` (an Annex C document's own checks).
  fileprivate func concerns(docType: String) -> Bool {
    switch self {
    case .documentIssuer(let type, _, _), .documentDeviceSignature(let type),
      .documentDeviceMac(let type), .deviceSignaturePayloadAttached(let type),
      .onlyRequestedElements(let type, _):
      type == docType
    case .credentialStatus(let credential, _): credential == docType
    default: false
    }
  }

  /// Whether this check says why the issuer is trusted.
  fileprivate var isIssuerTrust: Bool {
    switch self {
    case .documentIssuer, .mdocIssuerAuth, .sdJWTIssuerSignature: true
    default: false
    }
  }

  /// Whether this check reports a credential status.
  fileprivate var isStatus: Bool {
    if case .credentialStatus = self { return true }
    return false
  }
}

extension Base64URL {
  /// The bytes of base64url text, nil when it is not.
  fileprivate static func decodeOrNil(_ text: String) -> [UInt8]? { try? decode(text) }
}
