package import DCAPI
import DCJOSE
package import DCJSON
package import DCQL
package import DCX509
package import Foundation

/// An OpenID4VP Authorization Request received over the W3C Digital Credentials API, checked and
/// with its verifier authenticated (OpenID4VP 1.0 §5, Appendix A).
package struct AuthorizationRequest: Sendable {
  /// The DC API protocol it arrived under (OpenID4VP 1.0 Appendix A.1).
  package let protocolID: OpenID4VPProtocol
  /// Who is asking (OpenID4VP 1.0 Appendix A.3).
  package let verifier: VerifierIdentity
  /// The request parameters as authenticated: the JWS payload, or `data` for unsigned requests
  /// (OpenID4VP 1.0 §5.1).
  package let parameters: JSONValue
  /// `response_mode` (OpenID4VP 1.0 Appendix A.2).
  package let responseMode: ResponseMode
  /// `nonce` (OpenID4VP 1.0 §5.2).
  package let nonce: String
  /// `dcql_query`, parsed (OpenID4VP 1.0 §6).
  package let dcqlQuery: DCQLQuery
  /// `dcql_query` as received.
  package let dcqlQueryJSON: JSONValue
  /// `client_metadata` (OpenID4VP 1.0 §5.1).
  package let clientMetadata: ClientMetadata
  /// The key and `enc` for a `dc_api.jwt` response; nil for `dc_api` (OpenID4VP 1.0 §8.3).
  package let responseEncryption: ResponseEncryption?
  /// `transaction_data`, each entry checked and of a supported type (OpenID4VP 1.0 §5.1).
  package let transactionData: [TransactionData]
  /// `verifier_info`, kept as data for the UI (OpenID4VP 1.0 §5.1).
  package let verifierInfo: JSONValue?
  /// `expected_origins` of a signed request (OpenID4VP 1.0 Appendix A.2).
  package let expectedOrigins: [String]?
  /// Why the request's signature did not verify, when the caller asked to record that instead
  /// of refusing (`recordingInvalidSignature`); the verifier is then only the origin.
  package let signatureFailure: OpenID4VPError?

  /// The origin the platform asserted (never read from the payload).
  package var origin: WebOrigin { verifier.origin }

  /// The `typ` of a signed request object (RFC 9101 §10.8, OpenID4VP 1.0 §5).
  package static let requestObjectType = "oauth-authz-req+jwt"

  /// Parses and checks a request from the DC API `data` for a protocol (OpenID4VP 1.0 Appendix A).
  ///
  /// Unsigned requests ignore `client_id` and `expected_origins` (A.3.1). Signed requests are
  /// verified with the `x5c` leaf key, `typ` must be `oauth-authz-req+jwt`, the client
  /// identifier prefix must be `x509_san_dns` or `x509_hash` and match the leaf, the chain must
  /// validate against `verifierTrustAnchors` at `now`, and `origin` must be in
  /// `expected_origins` (A.2, A.3.2, §5.9.3). A `client_id` sent beside the request object must
  /// be the authenticated one. A multisigned request (`data.request`, a JWS JSON serialization)
  /// is authenticated by its first signature that verifies and chains to a trusted verifier;
  /// the other signatures are ignored. Following HAIP 1.0, `x5c` must not carry a trust anchor
  /// and the signing certificate must not be self-signed. The drafts' `openid4vp` identifier is
  /// refused (`unsupportedProtocol`).
  ///
  /// - Parameters:
  ///   - protocolID: the DC API protocol identifier of the request.
  ///   - data: the request `data`, a JSON object (or a JSON string holding one).
  ///   - origin: the origin asserted by the platform; never taken from the payload.
  ///   - verifierTrustAnchors: the certificates trusted to vouch for verifiers.
  ///   - now: the time for certificate validity.
  ///   - supportedTransactionDataTypes: transaction data types this wallet can bind; any other
  ///     type refuses the request (§5.1).
  ///   - recordingInvalidSignature: when true, a signed request whose signature does not verify
  ///     (`invalidRequestSignature`) is not refused: it is read like an unsigned one (A.3.1: the
  ///     verifier is only the origin; `client_id` and `expected_origins` are dropped) and the
  ///     failure is kept in ``signatureFailure`` for the caller's policy.
  /// - Throws: `OpenID4VPError`; its ``OpenID4VPError/errorResponse`` says what to report.
  package init(
    protocol protocolID: OpenID4VPProtocol, data: JSONValue, origin: WebOrigin,
    verifierTrustAnchors: [Certificate], now: Date,
    supportedTransactionDataTypes: Set<String> = [], recordingInvalidSignature: Bool = false
  ) throws(OpenID4VPError) {
    let data = try Self.readData(data)
    let authenticated: (parameters: JSONValue, identity: VerifierIdentity, verifierInfo: JSONValue?)
    do {
      authenticated = try Self.authenticate(
        protocol: protocolID, data: data, origin: origin,
        verifierTrustAnchors: verifierTrustAnchors, now: now)
      signatureFailure = nil
    } catch  where recordingInvalidSignature && error.code == .invalidRequestSignature {
      authenticated = (
        try Self.unverifiedParameters(protocol: protocolID, data: data), .origin(origin), nil
      )
      signatureFailure = error
    }
    let parameters = authenticated.parameters
    self.protocolID = protocolID
    self.verifier = authenticated.identity
    self.parameters = parameters
    self.verifierInfo = authenticated.verifierInfo
    expectedOrigins =
      protocolID == .unsigned || signatureFailure != nil
      ? nil : parameters["expected_origins"]?.array?.compactMap(\.string)
    let common = try Self.readCommonParameters(parameters)
    responseMode = common.responseMode
    nonce = common.nonce
    let query = try Self.readDCQL(parameters)
    dcqlQuery = query.parsed
    dcqlQueryJSON = query.json
    let metadata = try Self.readClientMetadata(parameters, responseMode: common.responseMode)
    clientMetadata = metadata.clientMetadata
    responseEncryption = metadata.responseEncryption
    transactionData = try Self.readTransactionData(
      parameters["transaction_data"], credentialQueryIDs: Set(query.parsed.credentials.map(\.id)),
      supportedTypes: supportedTransactionDataTypes)
  }

  /// Step 1: the DC API `data`, a JSON object or a JSON string holding one (Appendix A.2).
  package static func readData(_ data: JSONValue) throws(OpenID4VPError) -> JSONValue {
    var data = data
    if case .string(let text) = data {
      do {
        data = try JSONValue(parsing: text)
      } catch {
        throw OpenID4VPError(
          .malformed, "data is a string but not JSON: \(error.reason)", underlying: error)
      }
    }
    guard case .object = data else { throw OpenID4VPError(.malformed, "data must be an object") }
    return data
  }

  /// Step 2: the request parameters and who sent them, per protocol (Appendix A.3): an unsigned
  /// request's verifier is its origin; a signed or multisigned one is authenticated by its
  /// request object.
  package static func authenticate(
    protocol protocolID: OpenID4VPProtocol, data: JSONValue, origin: WebOrigin,
    verifierTrustAnchors: [Certificate], now: Date
  ) throws(OpenID4VPError) -> (
    parameters: JSONValue, identity: VerifierIdentity, verifierInfo: JSONValue?
  ) {
    switch protocolID {
    case .draft:
      // The drafts' `openid4vp` bound responses differently from draft to draft (audience,
      // handover); answering it with 1.0 semantics would produce a response its verifier
      // cannot check, and the identifier does not say which draft is meant.
      throw OpenID4VPError(
        .unsupportedProtocol,
        "openid4vp is the identifier of OpenID4VP drafts; only the openid4vp-v1-* protocols "
          + "of OpenID4VP 1.0 are answered")
    case .unsigned:
      // A.3.1: the verifier is its origin; client_id and expected_origins carry no meaning here.
      let parameters = data.removing("client_id").removing("expected_origins")
      return (parameters, .origin(origin), parameters["verifier_info"])
    case .signed:
      return try authenticateSigned(
        data: data, origin: origin, verifierTrustAnchors: verifierTrustAnchors, now: now)
    case .multisigned:
      return try authenticateMultisigned(
        data: data, origin: origin, verifierTrustAnchors: verifierTrustAnchors, now: now)
    }
  }

  /// Step 2 for a signed request (A.3.1): the request object in `data.request`, authenticated by
  /// its one signature.
  private static func authenticateSigned(
    data: JSONValue, origin: WebOrigin, verifierTrustAnchors: [Certificate], now: Date
  ) throws(OpenID4VPError) -> (JSONValue, VerifierIdentity, JSONValue?) {
    guard let request = data["request"]?.string else {
      throw OpenID4VPError(.malformed, "a signed request needs data.request, a compact JWS")
    }
    let jws: CompactJWS
    do {
      jws = try CompactJWS(request)
    } catch {
      throw Self.jwsParseError(error)
    }
    let parameters = try Self.payloadObject(jws.payload)
    let authenticated = try RequestAuthentication.authenticate(
      header: jws.protectedHeader, x5c: jws.x5c, clientID: parameters["client_id"],
      origin: origin, trustAnchors: verifierTrustAnchors, now: now, signatureIndex: nil
    ) { (key) throws(JOSEError) in try jws.verifySignature(with: key) }
    try Self.checkOuterClientID(data["client_id"], authenticated: authenticated.clientID)
    try Self.checkExpectedOrigins(parameters["expected_origins"], origin: origin.serialized)
    return (parameters, .authenticated(authenticated), parameters["verifier_info"])
  }

  /// Step 2 for a multisigned request (A.3.2): the verifier authenticated by the first of the
  /// signatures this wallet can verify.
  private static func authenticateMultisigned(
    data: JSONValue, origin: WebOrigin, verifierTrustAnchors: [Certificate], now: Date
  ) throws(OpenID4VPError) -> (JSONValue, VerifierIdentity, JSONValue?) {
    let object: JSONValue
    do {
      object = try Self.multisignedObject(data)
    } catch {
      throw Self.jwsParseError(error)
    }
    // Each signature is read on its own: one this wallet cannot read (an algorithm it does not
    // support, a malformed entry) is a failed signature, not a failed request (A.3.2: the
    // wallet authenticates the verifier through a signature it supports).
    var failures: [(index: Int, error: OpenID4VPError)] = []
    let (payload, signatures) = try Self.readSignatures(object, failures: &failures)
    let parameters = try Self.payloadObject(payload)
    // A.3.2: client_id lives only in each signature's protected header.
    guard parameters["client_id"] == nil else {
      throw OpenID4VPError(
        .invalidRequest, "a multisigned request carries client_id only in protected headers")
    }
    var accepted: (AuthenticatedVerifier, JSONValue)? = nil
    for (index, signature) in signatures {
      do {
        let verifier = try RequestAuthentication.authenticate(
          header: signature.protectedHeader, x5c: signature.x5c,
          clientID: signature.protectedHeader["client_id"], origin: origin,
          trustAnchors: verifierTrustAnchors, now: now, signatureIndex: index
        ) { (key) throws(JOSEError) in try signature.verifySignature(with: key) }
        accepted = (verifier, signature.protectedHeader)
        break
      } catch {
        failures.append((index, error))
      }
    }
    guard let (verifier, header) = accepted else {
      throw Self.noSignature(failures.sorted { $0.index < $1.index })
    }
    try Self.checkOuterClientID(data["client_id"], authenticated: verifier.clientID)
    try Self.checkExpectedOrigins(parameters["expected_origins"], origin: origin.serialized)
    return (
      parameters, .authenticated(verifier), header["verifier_info"] ?? parameters["verifier_info"]
    )
  }

  /// The payload of a signed or multisigned request whose signature failed, read without trust
  /// like an unsigned request's parameters (A.3.1): `client_id` and `expected_origins` dropped.
  static func unverifiedParameters(protocol protocolID: OpenID4VPProtocol, data: JSONValue)
    throws(OpenID4VPError) -> JSONValue
  {
    let payload: [UInt8]
    if protocolID == .multisigned {
      let object: JSONValue
      do {
        object = try Self.multisignedObject(data)
      } catch {
        throw Self.jwsParseError(error)
      }
      var failures: [(index: Int, error: OpenID4VPError)] = []
      payload = try Self.readSignatures(object, failures: &failures).payload
    } else {
      do {
        payload = try CompactJWS(data["request"]?.string ?? "").payload
      } catch {
        throw Self.jwsParseError(error)
      }
    }
    return try Self.payloadObject(payload).removing("client_id").removing("expected_origins")
  }

  /// Step 3: `response_type`, `response_mode` and `nonce`, common to every form (§5.1, A.2).
  package static func readCommonParameters(_ parameters: JSONValue) throws(OpenID4VPError) -> (
    responseMode: ResponseMode, nonce: String
  ) {
    // §5.1 / A.2: the parameters common to every form.
    guard let responseType = parameters["response_type"]?.string else {
      throw OpenID4VPError(.invalidRequest, "response_type is required")
    }
    guard responseType == "vp_token" else {
      throw OpenID4VPError(.invalidRequest, "response_type must be vp_token, got \(responseType)")
    }
    guard let mode = parameters["response_mode"]?.string else {
      throw OpenID4VPError(.invalidRequest, "response_mode is required over the DC API")
    }
    guard let responseMode = ResponseMode(rawValue: mode) else {
      throw OpenID4VPError(
        .unsupportedResponseMode, "response_mode \(mode) is not dc_api or dc_api.jwt")
    }
    guard let nonce = parameters["nonce"]?.string, !nonce.isEmpty else {
      throw OpenID4VPError(.invalidRequest, "nonce is required")
    }
    return (responseMode, nonce)
  }

  /// Step 4: `dcql_query`, parsed and as received (§6).
  package static func readDCQL(_ parameters: JSONValue) throws(OpenID4VPError) -> (
    parsed: DCQLQuery, json: JSONValue
  ) {
    guard let query = parameters["dcql_query"] else {
      throw OpenID4VPError(.invalidRequest, "dcql_query is required")
    }
    let parsed: DCQLQuery
    do {
      parsed = try DCQLQuery(ClaimValue(query))
    } catch {
      throw OpenID4VPError(.invalidRequest, "dcql_query: \(error)", underlying: error)
    }
    return (parsed, query)
  }

  /// Step 5: `client_metadata`, its formats, and the response encryption for `dc_api.jwt`
  /// (§5.1, §8.3, §11.1).
  package static func readClientMetadata(
    _ parameters: JSONValue, responseMode: ResponseMode
  ) throws(OpenID4VPError) -> (
    clientMetadata: ClientMetadata, responseEncryption: ResponseEncryption?
  ) {
    let clientMetadata = try ClientMetadata(json: parameters["client_metadata"])
    if let formats = clientMetadata.vpFormatsSupported,
      !formats.keys.contains(where: { Self.supportedFormats.contains($0) })
    {
      throw OpenID4VPError(
        .vpFormatsNotSupported, "vp_formats_supported lists none of \(Self.supportedFormats)")
    }
    let responseEncryption =
      responseMode == .dcAPIJWT ? try clientMetadata.responseEncryption() : nil
    return (clientMetadata, responseEncryption)
  }

  /// Step 6: `transaction_data`, each entry naming Credential Queries of the request and of a
  /// type in `supportedTypes` (§5.1, §8.4).
  package static func readTransactionData(
    _ list: JSONValue?, credentialQueryIDs: Set<String>, supportedTypes: Set<String>
  ) throws(OpenID4VPError) -> [TransactionData] {
    var entries: [TransactionData] = []
    if let list {
      guard let array = list.array, !array.isEmpty else {
        throw OpenID4VPError(
          .unsupportedTransactionData, "transaction_data must be a non-empty array")
      }
      for item in array {
        guard let encoded = item.string else {
          throw OpenID4VPError(.unsupportedTransactionData, "transaction_data holds strings")
        }
        let entry = try TransactionData(encoded: encoded, credentialQueryIDs: credentialQueryIDs)
        // §5.1: the wallet must refuse a request whose transaction data it cannot process.
        guard supportedTypes.contains(entry.type) else {
          throw OpenID4VPError(
            .unsupportedTransactionData, "transaction data type \(entry.type) is not supported")
        }
        entries.append(entry)
      }
    }
    return entries
  }

  /// The Credential formats this module presents (OpenID4VP 1.0 Appendix B.2, B.3).
  package static let supportedFormats: Set<String> = [DCQLFormat.msoMdoc, DCQLFormat.sdJWTVC]

  static func jwsParseError(_ error: JOSEError) -> OpenID4VPError {
    switch error.code {
    case .unsupportedAlgorithm, .algorithmKeyMismatch, .invalidHeader:
      // RFC 9101 §6.1: `none` and unknown algorithms are refused as a signature problem.
      OpenID4VPError(.invalidRequestSignature, "request JWS: \(error.reason)", underlying: error)
    default:
      OpenID4VPError(.malformed, "request JWS: \(error.reason)", underlying: error)
    }
  }

  static func payloadObject(_ payload: [UInt8]) throws(OpenID4VPError) -> JSONValue {
    let json: JSONValue
    do {
      json = try JSONValue(parsing: payload)
    } catch {
      throw OpenID4VPError(
        .malformed, "request payload is not JSON: \(error.reason)", underlying: error)
    }
    guard case .object = json else {
      throw OpenID4VPError(.malformed, "request payload must be a JSON object")
    }
    return json
  }

  /// The JWS JSON serialization of a multisigned request (OpenID4VP 1.0 Appendix A.3.2).
  ///
  /// A.3.2 lists `request` among the DC API parameters and puts the JWS in it, as the
  /// conformance suite and deployed wallets send it: `data.request` holds the general JWS JSON
  /// serialization object (or that object as JSON text). The appendix's non-normative example
  /// shows the bare object, so a `data` without `request` is read as the serialization itself.
  static func multisignedObject(_ data: JSONValue) throws(JOSEError) -> JSONValue {
    // Without `request`, `data` itself must parse as the serialization.
    guard let request = data["request"] else { return data }
    switch request {
    case .object:
      return request
    case .string(let text):
      // A compact JWS is not JSON; only an object serialized as text is accepted here.
      guard let parsed = try? JSONValue(parsing: text), case .object = parsed else {
        throw JOSEError(
          .malformedJWS,
          "data.request of a multisigned request must be a JWS JSON serialization object")
      }
      return parsed
    default:
      throw JOSEError(
        .malformedJWS,
        "data.request of a multisigned request must be a JWS JSON serialization object")
    }
  }

  /// The most signatures a multisigned request may carry: one per trust framework the verifier
  /// takes part in, a handful in practice (A.3.2).
  package static let maximumSignatures = 32

  /// The payload and the readable signatures of a multisigned request, each with its index;
  /// unreadable signatures go to `failures` (RFC 7515 §7.2.1: each signature stands alone).
  ///
  /// - Throws: when no signature can be read at all, the combined failure.
  static func readSignatures(
    _ object: JSONValue, failures: inout [(index: Int, error: OpenID4VPError)]
  ) throws(OpenID4VPError) -> (payload: [UInt8], signatures: [(Int, JWSJSON.Signature)]) {
    guard let entries = object["signatures"]?.array, let payload = object["payload"] else {
      // Not the general form (for example the flattened one): read as a whole.
      do {
        let jws = try JWSJSON(json: object)
        return (jws.payload, Array(jws.signatures.enumerated()))
      } catch {
        throw jwsParseError(error)
      }
    }
    // Hostile input: every entry costs a payload decode, a signature and a chain check.
    guard entries.count <= maximumSignatures else {
      throw OpenID4VPError(
        .malformed,
        "request JWS: \(entries.count) signatures, more than the \(maximumSignatures) read")
    }
    var payloadBytes: [UInt8]? = nil
    var signatures: [(Int, JWSJSON.Signature)] = []
    for (index, entry) in entries.enumerated() {
      do {
        let single = try JWSJSON(
          json: .object([("payload", payload), ("signatures", .array([entry]))]))
        payloadBytes = single.payload
        signatures.append((index, single.signatures[0]))
      } catch {
        failures.append((index, jwsParseError(error)))
      }
    }
    guard let payloadBytes else {
      if failures.isEmpty {
        throw OpenID4VPError(.malformed, "request JWS: signatures must be a non-empty array")
      }
      throw noSignature(failures)
    }
    return (payloadBytes, signatures)
  }

  /// The refusal when no signature of a multisigned request authenticates the verifier: every
  /// signature's reason, and the code of the first failure that is not an unsupported prefix.
  static func noSignature(_ failures: [(index: Int, error: OpenID4VPError)]) -> OpenID4VPError {
    let reasons = failures.map { "[\($0.index)] \($0.error.reason)" }
    // Only unsupported prefixes: say so; otherwise the verifier could not be authenticated.
    let code: OpenID4VPErrorCode =
      failures.allSatisfy { $0.error.code == .unsupportedClientIDPrefix }
      ? .unsupportedClientIDPrefix
      : (failures.first { $0.error.code != .unsupportedClientIDPrefix }?.error.code
        ?? .untrustedVerifier)
    return OpenID4VPError(
      code, "no signature authenticates the verifier: \(reasons.joined(separator: "; "))",
      underlying: failures.first { $0.error.code == code }?.error)
  }

  /// RFC 9101 §5 / OpenID4VP 1.0 §5.9: a `client_id` sent beside the request object must be
  /// the one the request object authenticated.
  static func checkOuterClientID(_ outer: JSONValue?, authenticated: ClientIdentifier)
    throws(OpenID4VPError)
  {
    guard let outer else { return }
    guard outer.string == authenticated.rawValue else {
      throw OpenID4VPError(
        .invalidRequest,
        "client_id \(outer.serialized()) beside the request object differs from the "
          + "authenticated \(authenticated.rawValue)")
    }
  }

  /// A.2: a non-empty array that holds the origin, compared as plain strings.
  static func checkExpectedOrigins(_ value: JSONValue?, origin: String) throws(OpenID4VPError) {
    guard let value else {
      throw OpenID4VPError(.invalidRequest, "a signed request must carry expected_origins")
    }
    guard let array = value.array, !array.isEmpty else {
      throw OpenID4VPError(.invalidRequest, "expected_origins must be a non-empty array")
    }
    guard array.contains(.string(origin)) else {
      throw OpenID4VPError(
        .originMismatch, "origin \(origin) is not in expected_origins \(value.serialized())")
    }
  }
}
