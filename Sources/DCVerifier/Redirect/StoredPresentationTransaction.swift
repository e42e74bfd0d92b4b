import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCStatusList
import DCTrust
import DCX509
import Foundation

// How a transaction and its result are written to a database row (SQLite or PostgreSQL) and
// read back on any instance. The JSON shapes are this package's own, versioned with the
// stores' schema; a row that does not read back is `.corruptRecord`, never a crash.

extension PresentationTransaction {
  /// Everything but the phase and the result, which live in their own columns.
  var storedBody: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("id", .string(id)), ("request_id", .string(requestID)), ("state", .string(state)),
      ("nonce", .string(nonce)), ("client_id", .string(clientID)),
      ("response_uri", .string(responseURI)),
      ("flow", .string(options.flow.rawValue)),
      ("client_id_prefix", .string(options.clientIDPrefix.rawValue)),
      ("response_mode", .string(options.responseMode.rawValue)),
      ("request_uri_method", .string(options.requestURIMethod.rawValue)),
      ("transaction_data_options", .array(options.transactionData)),
      ("dcql_query", dcqlQuery), ("transaction_data", .array(transactionData.map { .string($0) })),
      ("created_at", .number(createdAt.timeIntervalSince1970)),
      ("expires_at", .number(expiresAt.timeIntervalSince1970)),
    ]
    if let requestURI { members.append(("request_uri", .string(requestURI))) }
    if let encryptionKey { members.append(("encryption_key", encryptionKey.json)) }
    if let responseCode { members.append(("response_code", .string(responseCode))) }
    return .object(members)
  }

  /// A transaction read back from its stored body, phase and result.
  init(storedBody body: JSONValue, phase: String, result: JSONValue?)
    throws(PresentationStoreError)
  {
    func text(_ name: String) throws(PresentationStoreError) -> String {
      guard let value = body[name]?.string else { throw .corrupt("\(name) is missing") }
      return value
    }
    guard let phase = Phase(rawValue: phase),
      let flow = PresentationFlow(rawValue: try text("flow")),
      let mode = DirectPostMode(rawValue: try text("response_mode")),
      let method = VerifierRequestURIMethod(rawValue: try text("request_uri_method")),
      let created = body["created_at"]?.double, let expires = body["expires_at"]?.double,
      let query = body["dcql_query"]
    else { throw .corrupt("a stored transaction lacks a member") }
    var key: JWK? = nil
    if let json = body["encryption_key"] {
      do { key = try JWK(json: json) } catch { throw .corrupt("encryption_key: \(error.reason)") }
    }
    self.init(
      id: try text("id"), requestID: try text("request_id"), state: try text("state"),
      nonce: try text("nonce"), clientID: try text("client_id"),
      responseURI: try text("response_uri"), requestURI: body["request_uri"]?.string,
      options: PresentationTransactionOptions(
        flow: flow, clientIDPrefix: ClientIdentifier.Prefix(rawValue: try text("client_id_prefix")),
        responseMode: mode, requestURIMethod: method,
        transactionData: body["transaction_data_options"]?.array ?? []),
      dcqlQuery: query,
      transactionData: body["transaction_data"]?.array?.compactMap(\.string) ?? [],
      encryptionKey: key, responseCode: body["response_code"]?.string,
      createdAt: Date(timeIntervalSince1970: created),
      expiresAt: Date(timeIntervalSince1970: expires), phase: phase,
      result: try result.map(PresentationResult.init(stored:)) ?? .pending)
  }
}

extension PresentationStoreError {
  static func corrupt(_ reason: String) -> Self { Self(.corruptRecord, reason) }
}

extension PresentationResult {
  /// The result as stored; nil for pending (the column stays NULL until a response).
  var stored: JSONValue? {
    switch self {
    case .pending: nil
    case .verified(let verified):
      .object([("status", "verified"), ("response", verified.stored)])
    case .failed(let code, let reason):
      .object([
        ("status", "failed"), ("code", .string(code.description)), ("reason", .string(reason)),
      ])
    case .walletError(let error):
      .object([("status", "wallet_error"), ("data", error.data)])
    }
  }

  init(stored json: JSONValue) throws(PresentationStoreError) {
    switch json["status"]?.string {
    case "verified":
      guard let response = json["response"] else { throw .corrupt("verified without response") }
      self = .verified(try VerifiedAuthorizationResponse(stored: response))
    case "failed":
      guard let code = json["code"]?.string, let reason = json["reason"]?.string else {
        throw .corrupt("a failed result lacks its code")
      }
      self = .failed(code: OpenID4VPErrorCode(code), reason: reason)
    case "wallet_error":
      guard let data = json["data"], let error = OpenID4VPErrorResponse(data: data) else {
        throw .corrupt("a wallet error result does not read back")
      }
      self = .walletError(error)
    default:
      throw .corrupt("unknown result status")
    }
  }
}

extension VerifiedAuthorizationResponse {
  /// The response as stored. An mdoc's MSO is not kept: it served the status check, which ran
  /// before the result was recorded.
  var stored: JSONValue {
    .object([
      ("vp_token", vpToken), ("report", report.stored),
      (
        "credentials",
        .object(
          credentials.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map(\.stored))) })
      ),
    ])
  }

  init(stored json: JSONValue) throws(PresentationStoreError) {
    guard let vpToken = json["vp_token"], case .object(let members) = json["credentials"],
      let report = json["report"]
    else { throw .corrupt("a verified response lacks a member") }
    var credentials: [String: [VerifiedCredential]] = [:]
    for (id, list) in members {
      var read: [VerifiedCredential] = []
      for item in list.array ?? [] { read.append(try VerifiedCredential(stored: item)) }
      credentials[id] = read
    }
    self.init(
      vpToken: vpToken, credentials: credentials,
      report: try VerificationReport(stored: report))
  }
}

extension VerifiedCredential {
  var stored: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("query", .string(credentialQueryID)), ("format", .string(format)),
      (
        "claims",
        .array(claims.map { .object([("path", $0.path.json), ("value", $0.value)]) })
      ),
      ("report", report.stored),
    ]
    if let docType { members.append(("doctype", .string(docType))) }
    if let vct { members.append(("vct", .string(vct))) }
    if let issuerCertificate {
      members.append(("issuer", .string(Base64URL.encode(issuerCertificate.derBytes))))
    }
    if let issuerAnchor {
      members.append(("anchor", .string(Base64URL.encode(issuerAnchor.derBytes))))
    }
    if let issuerTrust { members.append(("issuer_trust", issuerTrust.storedForm)) }
    return .object(members)
  }

  init(stored json: JSONValue) throws(PresentationStoreError) {
    guard let query = json["query"]?.string, let format = json["format"]?.string,
      let claimList = json["claims"]?.array, let report = json["report"]
    else { throw .corrupt("a verified credential lacks a member") }
    var claims: [VerifiedClaim] = []
    for claim in claimList {
      guard let path = claim["path"]?.array, let value = claim["value"] else {
        throw .corrupt("a claim lacks its path or value")
      }
      claims.append(VerifiedClaim(path: try Self.path(path), value: value))
    }
    self.init(
      credentialQueryID: query, format: format, docType: json["doctype"]?.string,
      vct: json["vct"]?.string, claims: claims,
      issuerCertificate: try Self.certificate(json["issuer"]),
      report: try VerificationReport(stored: report),
      issuerAnchor: try Self.certificate(json["anchor"]))
    if let trust = json["issuer_trust"] {
      guard let source = TrustSource(storedForm: trust) else {
        throw .corrupt("a verified credential's issuer_trust does not read back")
      }
      issuerTrust = source
    }
  }

  private static func path(_ components: [JSONValue]) throws(PresentationStoreError) -> ClaimPath {
    var path: [ClaimPath.Component] = []
    for component in components {
      if let key = component.string {
        path.append(.key(key))
      } else if let index = component.int {
        path.append(.index(index))
      } else {
        throw .corrupt("a claim path component is neither a name nor an index")
      }
    }
    return ClaimPath(path)
  }

  private static func certificate(_ json: JSONValue?) throws(PresentationStoreError)
    -> Certificate?
  {
    guard let text = json?.string else { return nil }
    do {
      return try Certificate(derEncoded: try Base64URL.decode(text))
    } catch {
      throw .corrupt("a stored certificate does not read back")
    }
  }
}
