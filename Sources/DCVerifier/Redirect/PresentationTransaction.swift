public import DCErrors
public import DCJOSE
public import DCJSON
public import DCOpenID4VP
public import Foundation

/// Where the wallet runs relative to the page that asked (OpenID4VP 1.0 §2, §8.2).
public enum PresentationFlow: String, Sendable, Hashable, CaseIterable {
  /// The wallet on the same device: the verifier answers the response with a `redirect_uri`
  /// carrying a `response_code`, which the frontend needs to read the result (§8.2, §14.2).
  case sameDevice = "same_device"
  /// The wallet on another device (a QR code): the frontend polls for the result.
  case crossDevice = "cross_device"
}

/// The response modes of the redirect-based flows (OpenID4VP 1.0 §8.2, §8.3.1).
public enum DirectPostMode: String, Sendable, Hashable, CaseIterable {
  /// `direct_post`: `vp_token` and `state` as form fields (§8.2).
  case directPost = "direct_post"
  /// `direct_post.jwt`: `response`, a JWE to the verifier's key in `client_metadata.jwks`,
  /// whose payload carries `vp_token` and `state` (§8.3.1).
  case directPostJWT = "direct_post.jwt"
}

/// How the wallet fetches the request object from `request_uri` (OpenID4VP 1.0 §5.10).
public enum VerifierRequestURIMethod: String, Sendable, Hashable, CaseIterable {
  /// A plain GET (RFC 9101 §5.2).
  case get
  /// A form POST with `wallet_metadata` and `wallet_nonce` (§5.10.1).
  case post
}

/// What a transaction asks for, besides the DCQL query.
public struct PresentationTransactionOptions: Sendable, Hashable {
  /// Same-device or cross-device.
  public var flow: PresentationFlow
  /// The Client Identifier Prefix the request is sent under: `x509_san_dns`, `x509_hash`,
  /// `verifier_attestation` (signed, by reference) or `redirect_uri` (unsigned, by value).
  public var clientIDPrefix: ClientIdentifier.Prefix
  /// `direct_post` or `direct_post.jwt`.
  public var responseMode: DirectPostMode
  /// GET or POST at `request_uri`; ignored for `redirect_uri` (by value).
  package var requestURIMethod: VerifierRequestURIMethod
  /// `transaction_data` entries (JSON objects with `type` and `credential_ids`), base64url-encoded
  /// into the request (§5.1, §8.4).
  package var transactionData: [JSONValue]

  /// Options; the defaults are a cross-device `x509_san_dns` request fetched with GET and
  /// answered with `direct_post.jwt`.
  public init(
    flow: PresentationFlow = .crossDevice, clientIDPrefix: ClientIdentifier.Prefix = .x509SANDNS,
    responseMode: DirectPostMode = .directPostJWT,
    requestURIMethod: VerifierRequestURIMethod = .get, transactionData: [JSONValue] = []
  ) {
    self.flow = flow
    self.clientIDPrefix = clientIDPrefix
    self.responseMode = responseMode
    self.requestURIMethod = requestURIMethod
    self.transactionData = transactionData
  }
}

/// Where a transaction stands.
public enum PresentationResult: Sendable, Hashable {
  /// No response yet.
  case pending
  /// A response arrived and every check passed.
  case verified(VerifiedAuthorizationResponse)
  /// A response arrived and a check failed: the error's code and reason.
  case failed(code: OpenID4VPErrorCode, reason: String)
  /// The wallet answered with an error response (OpenID4VP 1.0 §8.5).
  case walletError(OpenID4VPErrorResponse)
}

/// One presentation exchange: what the verifier sent and must check the answer against.
///
/// - Important: it holds the response decryption **private key** (`direct_post.jwt`) and the
///   `response_code`; keep it server-side.
public struct PresentationTransaction: Sendable, Hashable {
  /// The exchange's progress; each step happens once (OpenID4VP 1.0 §5.10, §8.2).
  public enum Phase: String, Sendable, Hashable {
    /// The request object waits at `request_uri`.
    case awaitingRequestFetch = "awaiting_request_fetch"
    /// The request was fetched (or sent by value); the response is awaited.
    case awaitingResponse = "awaiting_response"
    /// A response (or error response) was accepted; no other is.
    case answered
  }

  /// The frontend's handle on the result; never sent to the wallet.
  public let id: String
  /// The random path segment of `request_uri` and `response_uri`.
  package let requestID: String
  /// `state` (OpenID4VP 1.0 §5.1): the wallet echoes it with the response.
  public let state: String
  /// `nonce` (§5.2).
  public let nonce: String
  /// The full Client Identifier, prefix included (§5.9).
  public let clientID: String
  /// `response_uri` (§8.2).
  package let responseURI: String
  /// `request_uri`; nil for a request sent by value.
  package let requestURI: String?
  /// The transaction's options.
  public let options: PresentationTransactionOptions
  /// `dcql_query` as sent.
  package let dcqlQuery: JSONValue
  /// `transaction_data` entries as sent (base64url).
  package let transactionData: [String]
  /// The private response encryption key for `direct_post.jwt` (§8.3); nil for `direct_post`.
  package let encryptionKey: JWK?
  /// The `response_code` of a same-device transaction (§8.2); nil for cross-device.
  package let responseCode: String?
  /// When the transaction was made.
  package let createdAt: Date
  /// When it expires: no request is served and no response accepted after.
  package let expiresAt: Date
  /// Its progress.
  package var phase: Phase
  /// Its result.
  public var result: PresentationResult

  /// Creates a transaction (the service makes them; a store reads them back).
  public init(
    id: String, requestID: String, state: String, nonce: String, clientID: String,
    responseURI: String, requestURI: String?, options: PresentationTransactionOptions,
    dcqlQuery: JSONValue, transactionData: [String], encryptionKey: JWK?, responseCode: String?,
    createdAt: Date, expiresAt: Date, phase: Phase, result: PresentationResult = .pending
  ) {
    self.id = id
    self.requestID = requestID
    self.state = state
    self.nonce = nonce
    self.clientID = clientID
    self.responseURI = responseURI
    self.requestURI = requestURI
    self.options = options
    self.dcqlQuery = dcqlQuery
    self.transactionData = transactionData
    self.encryptionKey = encryptionKey
    self.responseCode = responseCode
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.phase = phase
    self.result = result
  }

  /// The state the response verification runs against: the nonce, query, transaction data and
  /// key of this transaction.
  var verifierState: VerifierState {
    VerifierState(
      protocolID: .signed, origin: "", nonce: nonce, responseMode: .dcAPI,
      encryptionKey: encryptionKey, dcqlQuery: dcqlQuery, transactionData: transactionData)
  }

  /// The binding the presentations must carry (OpenID4VP 1.0 Appendix B.2.6.1, B.3.6).
  var binding: PresentationBinding { .redirect(clientID: clientID, responseURI: responseURI) }
}

/// An error of a transaction store: the database could not be reached or a stored transaction
/// does not read back. The endpoints answer it with 503.
public typealias PresentationStoreError = DCError<PresentationStoreErrorCode>

/// What kind of failure of a transaction store this is; match on it, never on the reason.
public struct PresentationStoreErrorCode: DCErrorCode {
  private let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name, for logs.
  public var description: String { name }

  /// The store could not be opened, or a read or write failed.
  public static let unavailable = Self("unavailable")
  /// A stored transaction could not be read back.
  public static let corruptRecord = Self("corruptRecord")
}

/// Where transactions are kept. Each phase change is atomic: two requests racing for the same
/// step cannot both win (one fetch of the request object, one response), even on two
/// instances sharing a database (``SQLitePresentationTransactionStore``,
/// ``PostgreSQLPresentationTransactionStore``).
public protocol PresentationTransactionStore: Sendable {
  /// Stores a new transaction; false when the store is full.
  func insert(_ transaction: PresentationTransaction) async throws(PresentationStoreError) -> Bool
  /// The transaction with frontend id `id`.
  func transaction(id: String) async throws(PresentationStoreError) -> PresentationTransaction?
  /// The transaction whose `request_uri` / `response_uri` carry `requestID`.
  func transaction(requestID: String) async throws(PresentationStoreError)
    -> PresentationTransaction?
  /// Moves the transaction of `requestID` from phase `from` to `to` and returns it as updated;
  /// nil when it is not (or no longer) in `from`.
  func advance(
    requestID: String, from: PresentationTransaction.Phase, to: PresentationTransaction.Phase
  ) async throws(PresentationStoreError) -> PresentationTransaction?
  /// Records the result of the answered transaction of `requestID`, once: a transaction that is
  /// not answered, or already has a result, is left as it is.
  func record(_ result: PresentationResult, requestID: String) async throws(PresentationStoreError)
  /// Deletes the transactions that expired before `date`; returns how many.
  @discardableResult
  func purge(expiredBefore date: Date) async throws(PresentationStoreError) -> Int
}

/// A ``PresentationTransactionStore`` in memory, for one process: its transactions die with it.
public actor InMemoryPresentationTransactionStore: PresentationTransactionStore {
  private var byRequestID: [String: PresentationTransaction] = [:]
  private var requestIDByID: [String: String] = [:]
  /// The most transactions kept at once.
  public let capacity: Int

  /// An empty store holding at most `capacity` transactions.
  public init(capacity: Int = 10_000) { self.capacity = capacity }

  public func insert(_ transaction: PresentationTransaction) -> Bool {
    guard byRequestID.count < capacity, byRequestID[transaction.requestID] == nil,
      requestIDByID[transaction.id] == nil
    else { return false }
    byRequestID[transaction.requestID] = transaction
    requestIDByID[transaction.id] = transaction.requestID
    return true
  }

  public func transaction(id: String) -> PresentationTransaction? {
    requestIDByID[id].flatMap { byRequestID[$0] }
  }

  public func transaction(requestID: String) -> PresentationTransaction? {
    byRequestID[requestID]
  }

  public func advance(
    requestID: String, from: PresentationTransaction.Phase, to: PresentationTransaction.Phase
  ) -> PresentationTransaction? {
    guard var transaction = byRequestID[requestID], transaction.phase == from else { return nil }
    transaction.phase = to
    byRequestID[requestID] = transaction
    return transaction
  }

  public func record(_ result: PresentationResult, requestID: String) {
    guard let transaction = byRequestID[requestID], transaction.phase == .answered,
      transaction.result == .pending
    else { return }
    byRequestID[requestID]?.result = result
  }

  @discardableResult
  public func purge(expiredBefore date: Date) -> Int {
    let expired = byRequestID.values.filter { $0.expiresAt < date }
    for transaction in expired {
      byRequestID[transaction.requestID] = nil
      requestIDByID[transaction.id] = nil
    }
    return expired.count
  }
}
