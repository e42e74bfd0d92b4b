public import DCJOSE
public import DCJSON
public import DCOpenID4VP

/// What a verifier keeps between sending a request and checking its response (OpenID4VP 1.0
/// §5, Appendix A).
///
/// - Important: for `dc_api.jwt` it holds the response decryption **private key**; store it as
///   a secret (server-side session, never in the page or a cookie) and discard it after use.
public struct VerifierState: Sendable, Hashable {
  /// The DC API protocol the request was sent under.
  public let protocolID: OpenID4VPProtocol
  /// The verifier's own origin, which the wallet binds into every presentation.
  public let origin: String
  /// The request nonce (OpenID4VP 1.0 §5.2).
  public let nonce: String
  /// `response_mode` (OpenID4VP 1.0 Appendix A.2).
  package let responseMode: ResponseMode
  /// The private response encryption key for `dc_api.jwt`; nil for `dc_api`.
  package let encryptionKey: JWK?
  /// `dcql_query` as sent (OpenID4VP 1.0 §6).
  package let dcqlQuery: JSONValue
  /// `transaction_data` entries as sent (OpenID4VP 1.0 §5.1).
  package let transactionData: [String]

  /// Creates a state; `encryptionKey` must be private for `dc_api.jwt`.
  package init(
    protocolID: OpenID4VPProtocol, origin: String, nonce: String, responseMode: ResponseMode,
    encryptionKey: JWK?, dcqlQuery: JSONValue, transactionData: [String] = []
  ) {
    self.protocolID = protocolID
    self.origin = origin
    self.nonce = nonce
    self.responseMode = responseMode
    self.encryptionKey = encryptionKey
    self.dcqlQuery = dcqlQuery
    self.transactionData = transactionData
  }

  /// The state as JSON, private key included (see the type's warning).
  public var json: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("protocol", .string(protocolID.rawValue)), ("origin", .string(origin)),
      ("nonce", .string(nonce)), ("response_mode", .string(responseMode.rawValue)),
    ]
    if let encryptionKey { members.append(("encryption_key", encryptionKey.json)) }
    members.append(("dcql_query", dcqlQuery))
    if !transactionData.isEmpty {
      members.append(("transaction_data", .array(transactionData.map { .string($0) })))
    }
    return .object(members)
  }

  /// Reads a state written by ``json``.
  ///
  /// - Throws: `malformed` when a member is missing or of the wrong type.
  public init(json: JSONValue) throws(OpenID4VPError) {
    guard let protocolName = json["protocol"]?.string,
      let protocolID = OpenID4VPProtocol(rawValue: protocolName),
      let origin = json["origin"]?.string, let nonce = json["nonce"]?.string,
      let mode = json["response_mode"]?.string, let responseMode = ResponseMode(rawValue: mode),
      let query = json["dcql_query"]
    else {
      throw OpenID4VPError(.malformed, "verifier state lacks a required member")
    }
    var key: JWK? = nil
    if let value = json["encryption_key"] {
      do {
        key = try JWK(json: value)
      } catch {
        throw OpenID4VPError(
          .malformed, "verifier state encryption_key: \(error.reason)", underlying: error)
      }
    }
    var entries: [String] = []
    for entry in json["transaction_data"]?.array ?? [] {
      guard let string = entry.string else {
        throw OpenID4VPError(.malformed, "verifier state transaction_data holds strings")
      }
      entries.append(string)
    }
    self.init(
      protocolID: protocolID, origin: origin, nonce: nonce, responseMode: responseMode,
      encryptionKey: key, dcqlQuery: query, transactionData: entries)
  }
}
