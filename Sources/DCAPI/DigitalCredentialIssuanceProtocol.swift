/// The issuance protocol identifiers of the W3C Digital Credentials API that this SDK answers:
/// what a website passes to `navigator.credentials.create({digital: {requests: [{protocol,
/// data}]}})` (DC API §"The `DigitalCredentialCreateRequest` dictionary", and the issuance rows of
/// the table of supported protocols, `DigitalCredentialIssuanceProtocol`).
public enum DigitalCredentialIssuanceProtocol: String, Sendable, Hashable, CaseIterable {
  /// OpenID4VCI over the DC API: `data` is a Credential Offer object (OpenID4VCI 1.0 §4.1.1),
  /// by value. The DC API registry names OpenID4VCI 1.0 for it with the section still "Coming
  /// Soon" (OpenID4VCI#410); the draft annex (openid/OpenID4VCI PR #476, "OpenID4VCI over the
  /// Digital Credentials API") adds `credential_issuer_metadata` and
  /// `authorization_server_metadata` to the offer and answers `{"status": "offer_accepted"}`.
  case openID4VCI = "openid4vci-v1"

  /// The identifiers read as each protocol, the registered one first. Historical aliases are
  /// accepted on read only (a response echoes the identifier the request used):
  /// - `openid4vci1.0`, `openid4vci-1.0`: Chrome's first issuance builds and demo pages, Google's
  ///   Credential Manager issuance matcher (android/identity-samples) and its CMWallet provider;
  ///   the offer is OpenID4VCI 1.0's.
  /// - `openid4vci1.1`, `openid4vci-1.1`: the same matcher lists them for OpenID4VCI 1.1 drafts,
  ///   whose Credential Offer parameters (§4.1.1) are those of 1.0, word for word.
  /// - `openid4vci`: the unversioned name CMWallet's create provider accepted and answered with.
  package static let identifiers: [(identifier: String, protocol: Self)] = [
    ("openid4vci-v1", .openID4VCI), ("openid4vci1.0", .openID4VCI),
    ("openid4vci-1.0", .openID4VCI), ("openid4vci1.1", .openID4VCI),
    ("openid4vci-1.1", .openID4VCI), ("openid4vci", .openID4VCI),
  ]

  /// The protocol an identifier names, the registered one or a historical alias; nil for any
  /// other string (compared exactly: identifiers are lower-case ASCII, DC API §2).
  package init?(identifier: String) {
    guard let entry = Self.identifiers.first(where: { $0.identifier == identifier }) else {
      return nil
    }
    self = entry.protocol
  }
}

extension ProtocolRequest {
  /// The issuance protocol of a well-formed entry, registered or alias; nil for a presentation
  /// or unknown protocol.
  package var issuanceProtocol: DigitalCredentialIssuanceProtocol? {
    problem == nil ? DigitalCredentialIssuanceProtocol(identifier: protocolIdentifier) : nil
  }
}
