public import DCCrypto
import DCEncoding
package import DCHTTP
package import DCJOSE
public import DCJSON
import DCOpenID4VP
import DCQL
public import DCTrust
public import DCX509
public import Foundation

/// The signing material and policy of a redirect-flow verifier (OpenID4VP 1.0 §5, §8.2).
public struct PresentationVerifierConfiguration: Sendable {
  /// The verifier's base URL, such as `http://127.0.0.1:8080` (no trailing `/`): `request_uri`
  /// is `BASE/request/ID`, `response_uri` `BASE/response/ID`.
  package var baseURL: String
  /// The frontend page a same-device wallet is sent back to; the verifier answers the response
  /// with `FRONTEND?transaction_id=ID#response_code=CODE` (§8.2). Default `BASE/done`.
  package var frontendURL: String?
  /// The signer for `x509_san_dns` requests.
  public var x509SANDNS: RequestSigner?
  /// The signer for `x509_hash` requests.
  public var x509Hash: RequestSigner?
  /// The attestation and key for `verifier_attestation` requests.
  public var attestation: VerifierAttestationSigner?
  /// Trusted SD-JWT VC issuer anchors.
  package var sdJWTIssuerAnchors: [Certificate]
  /// Trusted mdoc issuer anchors (IACAs or pinned document signers).
  package var mdocIssuerAnchors: [Certificate]
  /// The credential status check run after every other check passed.
  public var status: StatusChecking
  /// How long a transaction lives, in seconds.
  package var transactionLifetime: TimeInterval
  /// How long a request object is valid after it is served (`exp` − `iat`), in seconds.
  package var requestObjectLifetime: TimeInterval
  /// How the revocation of every issuer and status-list chain is checked; nil: not checked.
  package var revocation: RevocationSettings?
  /// The relying party's registration certificate (ETSI TS 119 475), sent in each request's
  /// `verifier_info` (OpenID4VP 1.0 §5.1).
  package var registrationCertificate: [UInt8]?

  /// A configuration; only the prefixes whose signer is set can be asked for (`redirect_uri`
  /// needs none). `revocation` is how every issuer and status-list chain is checked for
  /// revocation (RFC 5280 §6.3): with a fetcher, the distribution points the presented
  /// certificates name are fetched first; nil: revocation is not checked.
  public init(
    baseURL: String, frontendURL: String? = nil, x509SANDNS: RequestSigner? = nil,
    x509Hash: RequestSigner? = nil, attestation: VerifierAttestationSigner? = nil,
    sdJWTIssuerAnchors: [Certificate] = [], mdocIssuerAnchors: [Certificate] = [],
    status: StatusChecking = .skip, transactionLifetime: TimeInterval = 600,
    requestObjectLifetime: TimeInterval = 300, revocation: RevocationSettings? = nil
  ) {
    self.revocation = revocation
    self.baseURL = baseURL
    self.frontendURL = frontendURL
    self.x509SANDNS = x509SANDNS
    self.x509Hash = x509Hash
    self.attestation = attestation
    self.sdJWTIssuerAnchors = sdJWTIssuerAnchors
    self.mdocIssuerAnchors = mdocIssuerAnchors
    self.status = status
    self.transactionLifetime = transactionLifetime
    self.requestObjectLifetime = requestObjectLifetime
  }
}

/// A transaction just made: the frontend's id and the URI for the wallet.
public struct CreatedPresentationTransaction: Sendable, Hashable {
  /// The frontend's handle on the result: pass it to
  /// ``PresentationVerifier/result(transactionID:responseCode:)``.
  public let transactionID: String
  /// `openid4vp://?client_id=...&request_uri=...[&request_uri_method=post]`, or the whole
  /// request by value for `redirect_uri` (OpenID4VP 1.0 §5.1, §5.10): show it as a QR code
  /// (cross-device) or open it (same-device).
  public let authorizationRequestURI: String
}

/// The verifier of the redirect-based flows, transport-independent: it makes transactions,
/// serves their request objects, accepts `direct_post(.jwt)` responses and reports results
/// (OpenID4VP 1.0 §5, §8.2, §8.3). ``PresentationVerifierHTTPHandler`` mounts it on HTTP.
public struct PresentationVerifier: Sendable {
  /// Signing material and policy.
  package let configuration: PresentationVerifierConfiguration
  /// Where transactions live.
  package let store: any PresentationTransactionStore
  /// The clock.
  package let now: @Sendable () -> Date
  /// Where nonces, states, ids, response codes and keys come from.
  package let random: any RandomSource

  /// The most bytes a `response_uri` body may have (a `vp_token` with several mdocs fits).
  package static let maximumResponseBodyBytes = 1 << 20
  /// The most bytes a `request_uri` POST body (`wallet_metadata`, `wallet_nonce`) may have.
  package static let maximumRequestFetchBodyBytes = 64 * 1024
  /// `aud` of a request object for static discovery (OpenID4VP 1.0 §5.8).
  package static let staticDiscoveryAudience = "https://self-issued.me/v2"
  /// The content encryptions the verifier decrypts, in preference order (§8.3).
  package static let supportedEncryptions: [JWEEncryption] = [.a128gcm, .a256gcm]

  /// A verifier over `store`.
  public init(
    configuration: PresentationVerifierConfiguration,
    store: any PresentationTransactionStore = InMemoryPresentationTransactionStore(),
    now: @escaping @Sendable () -> Date = { Date() }, random: any RandomSource = SecureRandom()
  ) {
    self.configuration = configuration
    self.store = store
    self.now = now
    self.random = random
  }

  private func token(_ count: Int = 32) -> String { Base64URL.encode(random.bytes(count: count)) }

  // MARK: Transactions

  /// Starts a presentation: makes a transaction for `dcqlQuery` (a fresh 256-bit nonce, state,
  /// transaction id, request id, a `response_code` for same-device, and a fresh P-256 key for
  /// `direct_post.jwt`) and stores it. This is what `POST /transactions` of
  /// ``PresentationVerifierHTTPHandler`` does, for a backend that starts transactions itself.
  ///
  /// - Parameters:
  ///   - dcqlQuery: the `dcql_query` object (OpenID4VP 1.0 §6).
  ///   - options: the flow, Client Identifier Prefix, response mode and transaction data.
  /// - Returns: the transaction id for ``result(transactionID:responseCode:)`` and the
  ///   authorization request URI for the wallet.
  /// - Throws: `invalidOptions` for an invalid query or transaction data, or a prefix without
  ///   configured signing material; `storeFull`.
  public func createTransaction(
    dcqlQuery: JSONValue, options: PresentationTransactionOptions = .init()
  ) async throws(PresentationEndpointFailure) -> CreatedPresentationTransaction {
    let query: DCQLQuery
    do {
      query = try DCQLQuery(ClaimValue(dcqlQuery))
    } catch {
      throw PresentationEndpointFailure(.invalidOptions, "dcql_query: \(error)")
    }
    let clientID = try configuredClientID(for: options.clientIDPrefix)
    let encoded = try Self.encodeTransactionData(
      options.transactionData, credentialQueryIDs: Set(query.credentials.map(\.id)))
    let key = try encryptionKey(for: options.responseMode)
    let requestID = token()
    let responseURI = configuration.baseURL + "/response/" + requestID
    let byValue = options.clientIDPrefix == .redirectURI
    let created = now()
    let transaction = PresentationTransaction(
      id: token(), requestID: requestID, state: token(), nonce: token(),
      clientID: byValue ? "redirect_uri:" + responseURI : clientID, responseURI: responseURI,
      requestURI: byValue ? nil : configuration.baseURL + "/request/" + requestID,
      options: options, dcqlQuery: dcqlQuery, transactionData: encoded, encryptionKey: key,
      responseCode: options.flow == .sameDevice ? token() : nil, createdAt: created,
      expiresAt: created.addingTimeInterval(configuration.transactionLifetime),
      phase: byValue ? .awaitingResponse : .awaitingRequestFetch)
    _ = try await stored { () async throws(PresentationStoreError) in
      try await store.purge(expiredBefore: created)
    }
    guard
      try await stored({ () async throws(PresentationStoreError) in
        try await store.insert(transaction)
      })
    else {
      throw PresentationEndpointFailure(.storeFull, "too many open transactions")
    }
    return CreatedPresentationTransaction(
      transactionID: transaction.id,
      authorizationRequestURI: authorizationRequestURI(transaction))
  }

  /// The client identifier configured for `prefix`; empty for `redirect_uri`, whose identifier
  /// is the response_uri itself (OpenID4VP 1.0 §5.9.3).
  private func configuredClientID(for prefix: ClientIdentifier.Prefix)
    throws(PresentationEndpointFailure) -> String
  {
    switch prefix {
    case .x509SANDNS:
      guard let signer = configuration.x509SANDNS else {
        throw PresentationEndpointFailure(.invalidOptions, "no x509_san_dns signer is configured")
      }
      return signer.clientID
    case .x509Hash:
      guard let signer = configuration.x509Hash else {
        throw PresentationEndpointFailure(.invalidOptions, "no x509_hash signer is configured")
      }
      return signer.clientID
    case .verifierAttestation:
      guard let attestation = configuration.attestation else {
        throw PresentationEndpointFailure(
          .invalidOptions, "no verifier attestation is configured")
      }
      return attestation.clientID
    case .redirectURI:
      return ""
    default:
      throw PresentationEndpointFailure(
        .invalidOptions, "client id prefix \(prefix) is not supported")
    }
  }

  /// Base64url-encodes each transaction data entry, checking it against the query's
  /// credential IDs.
  private static func encodeTransactionData(
    _ transactionData: [JSONValue], credentialQueryIDs ids: Set<String>
  ) throws(PresentationEndpointFailure) -> [String] {
    var encoded: [String] = []
    for entry in transactionData {
      let text = Base64URL.encode(entry.serializedBytes())
      do {
        _ = try TransactionData(encoded: text, credentialQueryIDs: ids)
      } catch {
        throw PresentationEndpointFailure(.invalidOptions, "transaction_data: \(error.reason)")
      }
      encoded.append(text)
    }
    return encoded
  }

  /// A fresh P-256 response encryption key for `direct_post.jwt`; nil for other modes.
  private func encryptionKey(for responseMode: DirectPostMode)
    throws(PresentationEndpointFailure) -> JWK?
  {
    guard responseMode == .directPostJWT else { return nil }
    let privateKey: ECPrivateKey
    do {
      privateKey = try VerifierRequest.makeKey(random: random)
    } catch {
      throw PresentationEndpointFailure(.invalidOptions, error.reason)
    }
    return JWK(
      privateKey: privateKey, kid: token(8), use: "enc", alg: JWEAlgorithm.ecdhES.rawValue)
  }

  /// The URI for the wallet (OpenID4VP 1.0 §5.1, §5.10; RFC 9101 §5.2).
  func authorizationRequestURI(_ transaction: PresentationTransaction) -> String {
    var items = [URLQueryItem(name: "client_id", value: transaction.clientID)]
    if let requestURI = transaction.requestURI {
      items.append(URLQueryItem(name: "request_uri", value: requestURI))
      if transaction.options.requestURIMethod == .post {
        items.append(URLQueryItem(name: "request_uri_method", value: "post"))
      }
    } else {
      // By value: every parameter in the URI; JSON-valued ones as their JSON text (§5.1).
      for (name, value) in requestParameters(transaction, encryptions: Self.supportedEncryptions)
      where name != "client_id" {
        items.append(URLQueryItem(name: name, value: value.string ?? value.serialized()))
      }
    }
    var components = URLComponents()
    components.scheme = "openid4vp"
    components.host = ""
    components.path = "/"
    components.queryItems = items
    // URLQueryItem leaves `+`, `&`-free JSON punctuation and `:` / `/` unescaped; escape every
    // reserved character so a wallet's form decoder reads the values exactly.
    components.percentEncodedQuery = items.map {
      Self.formEncode($0.name) + "=" + Self.formEncode($0.value ?? "")
    }.joined(separator: "&")
    return "openid4vp://?" + (components.percentEncodedQuery ?? "")
  }

  /// RFC 3986 §2.3 unreserved characters stay, everything else is percent-encoded.
  static func formEncode(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }
  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// The Authorization Request parameters (OpenID4VP 1.0 §5.1, §8.2, §8.3).
  func requestParameters(_ transaction: PresentationTransaction, encryptions: [JWEEncryption])
    -> [(key: String, value: JSONValue)]
  {
    var metadata: [(key: String, value: JSONValue)] = []
    if let key = transaction.encryptionKey {
      metadata.append(("jwks", JWKSet(keys: [key.publicJWK]).json))
      metadata.append(
        (
          "encrypted_response_enc_values_supported",
          .array(encryptions.map { .string($0.rawValue) })
        ))
    }
    metadata.append(("vp_formats_supported", VerifierRequest.vpFormats))
    var parameters: [(key: String, value: JSONValue)] = [
      ("client_id", .string(transaction.clientID)), ("response_type", "vp_token"),
      ("response_mode", .string(transaction.options.responseMode.rawValue)),
      ("response_uri", .string(transaction.responseURI)),
      ("nonce", .string(transaction.nonce)), ("state", .string(transaction.state)),
      ("dcql_query", transaction.dcqlQuery), ("client_metadata", .object(metadata)),
    ]
    if !transaction.transactionData.isEmpty {
      parameters.append(
        ("transaction_data", .array(transaction.transactionData.map { .string($0) })))
    }
    if let registration = configuration.registrationCertificate {
      parameters.append(
        ("verifier_info", VerifierRequest.verifierInfo(registrationCertificate: registration)))
    }
    return parameters
  }

  // MARK: request_uri

  /// The signed request object of the transaction at `requestID`, served once (RFC 9101 §5.2,
  /// OpenID4VP 1.0 §5.10): `typ` `oauth-authz-req+jwt`, `aud` `https://self-issued.me/v2`,
  /// `iat`, `exp` and the request parameters; for POST the wallet's `wallet_nonce` is echoed
  /// and `encrypted_response_enc_values_supported` narrowed to the `enc` values of its
  /// `wallet_metadata` (`authorization_encryption_enc_values_supported`).
  ///
  /// - Parameters:
  ///   - walletMetadata: the POSTed `wallet_metadata`, nil for GET.
  ///   - walletNonce: the POSTed `wallet_nonce`, nil for GET.
  /// - Throws: `unknownTransaction`, `expired`, `requestAlreadyFetched`, `noCommonEncryption`,
  ///   `malformedBody`, `invalidOptions` (signing failed).
  package func requestObject(
    requestID: String, method: HTTPMethod, walletMetadata: JSONValue? = nil,
    walletNonce: String? = nil
  ) async throws(PresentationEndpointFailure) -> String {
    guard
      let found = try await stored({ () async throws(PresentationStoreError) in
        try await store.transaction(requestID: requestID)
      }), found.requestURI != nil
    else {
      throw PresentationEndpointFailure(.unknownTransaction, "no request at this request_uri")
    }
    let served = now()
    guard served <= found.expiresAt else {
      throw PresentationEndpointFailure(.expired, "the transaction expired")
    }
    let encryptions = try Self.encryptions(
      method: method, hasKey: found.encryptionKey != nil, walletMetadata: walletMetadata)
    // RFC 9101 §5.2: one fetch; the phase change is atomic, so a racing second fetch fails too.
    guard
      let transaction = try await stored({ () async throws(PresentationStoreError) in
        try await store.advance(
          requestID: requestID, from: .awaitingRequestFetch, to: .awaitingResponse)
      })
    else {
      throw PresentationEndpointFailure(
        .requestAlreadyFetched, "the request object was already fetched")
    }
    let payload = requestObjectPayload(
      transaction, encryptions: encryptions, served: served,
      walletNonce: method == .post ? walletNonce : nil)
    let (header, signer) = try requestObjectSigning(transaction)
    do {
      return try JWS.sign(
        payload: JSONValue.object(payload).serializedBytes(), protectedHeader: .object(header),
        signer: signer)
    } catch {
      throw PresentationEndpointFailure(.invalidOptions, "signing: \(error.reason)")
    }
  }

  /// The `enc` values offered: the supported ones, narrowed for POST to those in the wallet's
  /// `authorization_encryption_enc_values_supported` when the response is encrypted.
  private static func encryptions(
    method: HTTPMethod, hasKey: Bool, walletMetadata: JSONValue?
  ) throws(PresentationEndpointFailure) -> [JWEEncryption] {
    var encryptions = supportedEncryptions
    if method == .post, hasKey,
      let offered = walletMetadata?["authorization_encryption_enc_values_supported"]
    {
      guard let list = offered.array?.compactMap(\.string) else {
        throw PresentationEndpointFailure(
          .malformedBody, "authorization_encryption_enc_values_supported must hold strings")
      }
      encryptions = encryptions.filter { list.contains($0.rawValue) }
      guard !encryptions.isEmpty else {
        throw PresentationEndpointFailure(
          .noCommonEncryption, "the wallet supports none of A128GCM, A256GCM")
      }
    }
    return encryptions
  }

  /// The request object's claims: the request parameters, `aud`, `iat`, `exp` and, when
  /// given, the echoed `wallet_nonce` (RFC 9101 §5.2, OpenID4VP 1.0 §5.10).
  private func requestObjectPayload(
    _ transaction: PresentationTransaction, encryptions: [JWEEncryption], served: Date,
    walletNonce: String?
  ) -> [(key: String, value: JSONValue)] {
    var payload = requestParameters(transaction, encryptions: encryptions)
    payload.append(("aud", .string(Self.staticDiscoveryAudience)))
    payload.append(("iat", .integer(Int64(served.timeIntervalSince1970))))
    payload.append(
      (
        "exp",
        .integer(
          Int64(
            served.addingTimeInterval(configuration.requestObjectLifetime)
              .timeIntervalSince1970))
      ))
    if let walletNonce {
      payload.append(("wallet_nonce", .string(walletNonce)))
    }
    return payload
  }

  /// The protected header and signer for the transaction's client identifier prefix: `x5c` for
  /// the X.509 prefixes, the Verifier Attestation JWT in `jwt` otherwise (OpenID4VP 1.0 §12).
  private func requestObjectSigning(_ transaction: PresentationTransaction)
    throws(PresentationEndpointFailure) -> (header: [(key: String, value: JSONValue)], any Signer)
  {
    var header: [(key: String, value: JSONValue)] = [
      ("typ", .string(AuthorizationRequest.requestObjectType))
    ]
    let signer: any Signer
    switch transaction.options.clientIDPrefix {
    case .x509SANDNS, .x509Hash:
      guard
        let requestSigner = transaction.options.clientIDPrefix == .x509SANDNS
          ? configuration.x509SANDNS : configuration.x509Hash
      else {
        throw PresentationEndpointFailure(.invalidOptions, "the signer is no longer configured")
      }
      header.append(("x5c", JWS.x5c(requestSigner.x5c)))
      signer = requestSigner.signer
    default:
      guard let attestation = configuration.attestation else {
        throw PresentationEndpointFailure(.invalidOptions, "the attestation is not configured")
      }
      // OpenID4VP 1.0 §12: the Verifier Attestation JWT in the `jwt` header.
      header.append(("jwt", .string(attestation.attestationJWT)))
      signer = attestation.signer
    }
    return (header, signer)
  }

  // MARK: response_uri

  /// What the verifier answers an accepted response with (OpenID4VP 1.0 §8.2): a same-device
  /// wallet is sent to the frontend with the `response_code`.
  package struct Acknowledgement: Sendable, Hashable {
    /// `FRONTEND?transaction_id=ID#response_code=CODE` for same-device; nil for cross-device.
    package let redirectURI: String?
    /// The 200 response: `{"redirect_uri": ...}` or `{}`.
    package var response: HTTPResponse {
      let body: JSONValue = .object(redirectURI.map { [("redirect_uri", .string($0))] } ?? [])
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
        body: body.serializedBytes())
    }
  }

  /// Accepts a `direct_post` or `direct_post.jwt` body posted to the `response_uri` of
  /// `requestID` (OpenID4VP 1.0 §8.2, §8.3.1, §8.5): the form is read (at most
  /// ``maximumResponseBodyBytes``), a `direct_post.jwt` `response` decrypted with the
  /// transaction's key, `state` compared with the transaction's, the transaction moved to
  /// answered (once), the presentations verified as bound to the client_id, nonce and
  /// response_uri, and the result recorded. An error response (`error`, `state`) is recorded
  /// as the wallet's error.
  ///
  /// - Throws: `unknownTransaction`, `expired`, `bodyTooLarge`, `malformedBody`,
  ///   `responseModeMismatch`, `decryptionFailed`, `stateMismatch`, `requestNotFetched`,
  ///   `alreadyAnswered`, `verificationFailed` (recorded as the result too).
  package func receiveResponse(requestID: String, body: [UInt8])
    async throws(PresentationEndpointFailure) -> Acknowledgement
  {
    guard
      let transaction = try await stored({ () async throws(PresentationStoreError) in
        try await store.transaction(requestID: requestID)
      })
    else {
      throw PresentationEndpointFailure(.unknownTransaction, "no transaction at this response_uri")
    }
    let received = now()
    guard received <= transaction.expiresAt else {
      throw PresentationEndpointFailure(.expired, "the transaction expired")
    }
    guard body.count <= Self.maximumResponseBodyBytes else {
      throw PresentationEndpointFailure(
        .bodyTooLarge, "the body is larger than \(Self.maximumResponseBodyBytes) bytes")
    }
    let parsed: DirectPostBody
    do {
      parsed = try DirectPostBody(formBody: body)
    } catch {
      throw PresentationEndpointFailure(.malformedBody, error.reason)
    }
    let (payload, thumbprint) = try Self.open(parsed, for: transaction)
    guard payload["state"]?.string == transaction.state else {
      throw PresentationEndpointFailure(.stateMismatch, "state does not match the transaction")
    }
    if let walletError = OpenID4VPErrorResponse(data: payload) {
      try await claim(transaction)
      try await record(.walletError(walletError), requestID: requestID)
      return acknowledgement(transaction)
    }
    try await claim(transaction)
    try await verifyAndRecord(
      payload, thumbprint: thumbprint, transaction: transaction, requestID: requestID,
      received: received)
    return acknowledgement(transaction)
  }

  /// The response's payload, decrypted for `direct_post.jwt`, with the thumbprint of the key
  /// that decrypted it; a body of the other response mode is refused (OpenID4VP 1.0 §8.3.1, §8.5).
  private static func open(_ parsed: DirectPostBody, for transaction: PresentationTransaction)
    throws(PresentationEndpointFailure) -> (payload: JSONValue, thumbprint: [UInt8]?)
  {
    var payload: JSONValue
    var thumbprint: [UInt8]? = nil
    switch (parsed, transaction.options.responseMode) {
    case (.error(let error, let state), _):
      // §8.5: an error response in the clear is accepted in both modes.
      payload = error.data
      if let state { payload = payload.setting("state", to: .string(state)) }
    case (.vpToken(let token, let state), .directPost):
      payload = .object([("vp_token", token)] + (state.map { [("state", .string($0))] } ?? []))
    case (.encrypted(let text), .directPostJWT):
      guard let key = transaction.encryptionKey else {
        throw PresentationEndpointFailure(.decryptionFailed, "the transaction has no key")
      }
      do {
        payload = try VerifierState.decrypt(text, with: key)
        // §8.3.1: the plaintext is the same members a direct_post body has.
        _ = try DirectPostBody(decryptedPayload: payload)
      } catch {
        throw PresentationEndpointFailure(
          error.code == .decryptionFailed ? .decryptionFailed : .malformedBody, error.reason)
      }
      thumbprint = key.publicJWK.thumbprint()
    case (.vpToken, _):
      // §8.3.1: with direct_post.jwt everything travels in the JWE; a clear vp_token is refused.
      throw PresentationEndpointFailure(
        .responseModeMismatch, "a direct_post.jwt response is response=<JWE>")
    case (.encrypted, _):
      throw PresentationEndpointFailure(
        .responseModeMismatch, "an encrypted response to a direct_post request")
    }
    return (payload, thumbprint)
  }

  /// Verifies the presentations as bound to the transaction, checks their status, and records
  /// the result; a failure is recorded too.
  private func verifyAndRecord(
    _ payload: JSONValue, thumbprint: [UInt8]?, transaction: PresentationTransaction,
    requestID: String, received: Date
  ) async throws(PresentationEndpointFailure) {
    let verified: VerifiedAuthorizationResponse
    let configuration = configuration
    let revocation = configuration.revocation
    let presented = revocation.fetches ? PresentedCertificates.inVPToken(payload) : []
    do {
      let state = transaction.verifierState
      verified = try await revocation.inEffect(
        for: presented,
        issuers: configuration.sdJWTIssuerAnchors + configuration.mdocIssuerAnchors
      ) { () async throws(OpenID4VPError) in
        try await state.verifyOpened(
          payload, thumbprint: thumbprint, binding: transaction.binding,
          sdJWTIssuerAnchors: configuration.sdJWTIssuerAnchors,
          mdocIssuerAnchors: configuration.mdocIssuerAnchors, now: received
        ).checkingStatus(
          configuration.status, sdJWTIssuerAnchors: configuration.sdJWTIssuerAnchors,
          mdocIssuerAnchors: configuration.mdocIssuerAnchors, now: received)
      }
    } catch {
      try await record(.failed(code: error.code, reason: error.reason), requestID: requestID)
      throw PresentationEndpointFailure(.verificationFailed, error.reason)
    }
    try await record(.verified(verified), requestID: requestID)
  }

  /// Records a result in the store.
  private func record(_ result: PresentationResult, requestID: String)
    async throws(PresentationEndpointFailure)
  {
    try await stored { () async throws(PresentationStoreError) in
      try await store.record(result, requestID: requestID)
    }
  }

  /// Runs a store call; a store failure is the endpoint's `storeUnavailable` (503).
  private func stored<T>(_ work: () async throws(PresentationStoreError) -> T)
    async throws(PresentationEndpointFailure) -> T
  {
    do {
      return try await work()
    } catch {
      throw PresentationEndpointFailure(.storeUnavailable, "the transaction store: \(error.reason)")
    }
  }

  /// Moves the transaction to answered, once; refuses a response before the request was
  /// fetched and a second response.
  private func claim(_ transaction: PresentationTransaction)
    async throws(PresentationEndpointFailure)
  {
    let requestID = transaction.requestID
    guard
      try await stored({ () async throws(PresentationStoreError) in
        try await store.advance(requestID: requestID, from: .awaitingResponse, to: .answered)
      }) != nil
    else {
      let phase = try await stored { () async throws(PresentationStoreError) in
        try await store.transaction(requestID: requestID)?.phase
      }
      if phase == .awaitingRequestFetch {
        throw PresentationEndpointFailure(
          .requestNotFetched, "a response before the request object was fetched")
      }
      throw PresentationEndpointFailure(.alreadyAnswered, "the transaction already has a response")
    }
  }

  private func acknowledgement(_ transaction: PresentationTransaction) -> Acknowledgement {
    guard let code = transaction.responseCode else { return Acknowledgement(redirectURI: nil) }
    let frontend = configuration.frontendURL ?? configuration.baseURL + "/done"
    let separator = frontend.contains("?") ? "&" : "?"
    return Acknowledgement(
      redirectURI: frontend + separator + "transaction_id=" + Self.formEncode(transaction.id)
        + "#response_code=" + Self.formEncode(code))
  }

  // MARK: Results

  /// The result of transaction `transactionID` for the frontend. A same-device result other
  /// than pending is released only with the transaction's `response_code` (OpenID4VP 1.0 §8.2).
  ///
  /// - Throws: `unknownTransaction`, `wrongResponseCode`.
  public func result(transactionID: String, responseCode: String? = nil)
    async throws(PresentationEndpointFailure) -> PresentationResult
  {
    guard
      let transaction = try await stored({ () async throws(PresentationStoreError) in
        try await store.transaction(id: transactionID)
      })
    else {
      throw PresentationEndpointFailure(.unknownTransaction, "no such transaction")
    }
    if let expected = transaction.responseCode, transaction.result != .pending {
      guard let responseCode, constantTimeEqual(Array(responseCode.utf8), Array(expected.utf8))
      else {
        throw PresentationEndpointFailure(
          .wrongResponseCode, "a same-device result needs its response_code")
      }
    }
    return transaction.result
  }
}

/// Compares without an early exit on the first differing byte.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  guard a.count == b.count else { return false }
  var difference: UInt8 = 0
  for (x, y) in zip(a, b) { difference |= x ^ y }
  return difference == 0
}

/// The form POSTed to `request_uri` (OpenID4VP 1.0 §5.10.1), read with the OpenID4VP module's
/// strict form decoder (a repeated name or a bad percent-encoding refused, RFC 6749 §3.1).
struct RequestURIForm {
  private var values: [String: String] = [:]

  subscript(name: String) -> String? { values[name] }

  init(body: [UInt8]) throws(PresentationEndpointFailure) {
    guard let text = String(validating: body, as: UTF8.self) else {
      throw PresentationEndpointFailure(.malformedBody, "the form is not UTF-8")
    }
    do {
      for field in try FormEncoding.decode(Substring(text), maximumFields: 16) {
        values[field.name] = field.value
      }
    } catch {
      throw PresentationEndpointFailure(.malformedBody, "the form: \(error)")
    }
  }
}
