import DCCrypto
package import DCHTTP
import DCJSON
public import DCOpenID4VCI
package import Foundation

/// The grant an offer carries (OpenID4VCI 1.0 §4.1.1).
public enum OfferGrantKind: Sendable, Hashable {
  /// `urn:ietf:params:oauth:grant-type:pre-authorized_code`, with a transaction code when
  /// `transactionCode` is true.
  case preAuthorized(transactionCode: Bool)
  /// `authorization_code`, with a fresh `issuer_state` tying the authorization request to the
  /// offer.
  case authorizationCode
}

/// An offer the issuer made, with the secrets it handed out.
public struct CreatedOffer: Sendable, Hashable {
  /// The offer object.
  package let offer: CredentialOffer
  /// The offer URI to show as a QR code or link: by value, or by reference to
  /// the offer URL the issuer serves it at.
  public let uri: String
  /// Where the offer is served when passed by reference (§4.1.3).
  package let referenceURL: URL?
  /// The transaction code the user must enter, sent to them over another channel (§4.1.1).
  public let transactionCode: String?
}

extension CredentialIssuerService {
  /// Makes a credential offer for `configurationIDs` and records its grant: a pre-authorized
  /// code (with a transaction code when asked) or an `issuer_state`.
  ///
  /// - Parameters:
  ///   - configurationIDs: keys of the issuer's `credential_configurations_supported`, each
  ///     once.
  ///   - grant: a pre-authorized code (optionally with a transaction code) or an authorization
  ///     code grant with `issuer_state`.
  ///   - byReference: serve the offer at an offer URI and put only that URI in the offer URI
  ///     (§4.1.3), rather than the whole offer (§4.1.2).
  ///   - scheme: the offer URI's scheme: `openid-credential-offer://` or, for HAIP,
  ///     `haip-vci://`.
  /// - Throws: `invalidOffer` for an unknown or repeated configuration id; a store error.
  public func createOffer(
    configurationIDs: [String], grant: OfferGrantKind, byReference: Bool = false,
    scheme: CredentialOfferScheme = .openIDCredentialOffer
  ) throws -> CreatedOffer {
    for id in configurationIDs where configuration.credential(id: id) == nil {
      throw OpenID4VCIError(.invalidOffer, "no credential configuration '\(id)'")
    }
    let now = self.now
    let lifetimes = configuration.lifetimes
    var transactionCode: String?
    let offer: CredentialOffer
    switch grant {
    case .preAuthorized(let withCode):
      (offer, transactionCode) = try preAuthorizedOffer(
        configurationIDs, withCode: withCode, now: now)
    case .authorizationCode:
      offer = try authorizationCodeOffer(configurationIDs, now: now)
    }
    guard byReference else {
      return CreatedOffer(
        offer: offer, uri: offer.uri(scheme: scheme), referenceURL: nil,
        transactionCode: transactionCode)
    }
    let id = randomToken(bytes: 16)
    try store.upsert(
      IssuerStateRecord(
        kind: .offer, key: id, value: offer.json,
        expiresAt: now.addingTimeInterval(lifetimes.offer)))
    let url = endpoints.offerURL(id: id)
    return CreatedOffer(
      offer: offer, uri: CredentialOffer.uri(reference: url, scheme: scheme), referenceURL: url,
      transactionCode: transactionCode)
  }

  /// An offer with a pre-authorized code (and a transaction code when asked), its grant
  /// recorded.
  private func preAuthorizedOffer(
    _ configurationIDs: [String], withCode: Bool, now: Date
  ) throws -> (CredentialOffer, transactionCode: String?) {
    let code = randomToken()
    let transactionCode = withCode ? makeTransactionCode() : nil
    try store.upsert(
      IssuerStateRecord(
        kind: .preAuthorizedCode, key: code,
        value: PreAuthorizedCodeState(
          configurationIDs: configurationIDs, transactionCode: transactionCode, attempts: 0
        ).json,
        expiresAt: now.addingTimeInterval(configuration.lifetimes.preAuthorizedCode)))
    let offer = try CredentialOffer(
      credentialIssuer: configuration.credentialIssuer,
      credentialConfigurationIDs: configurationIDs,
      preAuthorizedCode: PreAuthorizedCodeGrant(
        preAuthorizedCode: code,
        txCode: withCode ? configuration.transactionCode.requirement : nil))
    return (offer, transactionCode)
  }

  /// An offer for the authorization code flow with an `issuer_state`, its grant recorded.
  private func authorizationCodeOffer(
    _ configurationIDs: [String], now: Date
  ) throws -> CredentialOffer {
    let issuerState = randomToken()
    try store.upsert(
      IssuerStateRecord(
        kind: .issuerState, key: issuerState,
        value: .object([("configuration_ids", .array(configurationIDs.map { .string($0) }))]),
        expiresAt: now.addingTimeInterval(configuration.lifetimes.offer)))
    return try CredentialOffer(
      credentialIssuer: configuration.credentialIssuer,
      credentialConfigurationIDs: configurationIDs,
      authorizationCode: AuthorizationCodeGrant(issuerState: issuerState))
  }

  /// GET `credential_offer_uri`: the offer object as JSON (§4.1.3), 404 when unknown or expired.
  package func handleOffer(_ request: HTTPRequest, id: String) -> HTTPResponse {
    guard let record = try? store.find(.offer, id, now: now) else {
      return IssuerEndpointFailure("not_found", "no such offer", status: 404).response
    }
    return Self.json(record.value)
  }

  /// A transaction code from the configured alphabet and length, drawn by rejection sampling
  /// so that every character is equally likely.
  func makeTransactionCode() -> String {
    let settings = configuration.transactionCode
    let alphabet: [Character] =
      settings.inputMode == .numeric
      ? Array("0123456789") : Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    let limit = 256 - 256 % alphabet.count
    var code = ""
    while code.count < max(1, settings.length) {
      for byte in random.bytes(count: 16) where Int(byte) < limit {
        code.append(alphabet[Int(byte) % alphabet.count])
        if code.count == max(1, settings.length) { break }
      }
    }
    return code
  }
}

/// What the store holds for a pre-authorized code.
struct PreAuthorizedCodeState {
  var configurationIDs: [String]
  var transactionCode: String?
  var attempts: Int

  var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("configuration_ids", .array(configurationIDs.map { .string($0) })),
      ("attempts", .integer(Int64(attempts))),
    ]
    if let transactionCode { members.append(("tx_code", .string(transactionCode))) }
    return .object(members)
  }

  init(configurationIDs: [String], transactionCode: String?, attempts: Int) {
    self.configurationIDs = configurationIDs
    self.transactionCode = transactionCode
    self.attempts = attempts
  }

  init?(_ json: JSONValue) {
    guard let ids = json["configuration_ids"]?.array?.compactMap(\.string) else { return nil }
    configurationIDs = ids
    transactionCode = json["tx_code"]?.string
    attempts = json["attempts"]?.int ?? 0
  }
}
