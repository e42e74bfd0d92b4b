public import DCAPI
public import DCCrypto
import DCEncoding
public import DCJSON
import DCMdoc
public import DCOpenID4VP
import DCOrgIsoMdoc
import DCQL
public import DCTrust
public import DCX509
public import Foundation

/// What a verifier behind a web page asks for in one `navigator.credentials.get` call, and how
/// it checks the answer (W3C Digital Credentials API §2; ISO/IEC TS 18013-7 Annex C;
/// OpenID4VP 1.0 Appendix A).
public struct DigitalCredentialVerifierConfiguration: Sendable {
  /// The page's origin: every request is bound to it and every response verified for it. It is
  /// configured here, never read from what the page posts.
  package var origin: WebOrigin
  /// The protocols of the requests in each call, in this order; the wallet picks one.
  package var protocols: [DigitalCredentialProtocol]
  /// The signer of `openid4vp-v1-signed` requests.
  package var signer: RequestSigner?
  /// The signers of `openid4vp-v1-multisigned` requests, one signature each.
  package var multisigners: [RequestSigner]
  /// The reader key and chain that sign each `org-iso-mdoc` doc request (readerAuth).
  package var reader: AnnexCVerifier.ReaderCredentials?
  /// `dc_api.jwt` (default: the response encrypted to a fresh key) or `dc_api`.
  package var responseMode: ResponseMode
  /// Trusted SD-JWT VC issuer anchors.
  package var sdJWTIssuerAnchors: [Certificate]
  /// Trusted mdoc issuer anchors (IACAs or pinned document signers).
  package var mdocIssuerAnchors: [Certificate]
  /// The credential status check run after every other check passed.
  package var status: StatusChecking
  /// How long a transaction takes a response, in seconds.
  package var transactionLifetime: TimeInterval
  /// How the revocation of every issuer and status-list chain is checked; nil: not checked.
  package var revocation: RevocationSettings?
  /// The relying party's registration certificate (ETSI TS 119 475), sent in each OpenID4VP
  /// request's `verifier_info` (OpenID4VP 1.0 §5.1); `org-iso-mdoc` carries the `reader`'s.
  package var registrationCertificate: [UInt8]?

  /// A configuration for pages served at `origin`. A protocol is offered only when what it
  /// needs is given: `openid4vp-v1-signed` a `signer`, `openid4vp-v1-multisigned` at least one
  /// of `multisigners`; `org-iso-mdoc` is signed with `reader` when given. `revocation` is how
  /// every issuer and status-list chain is checked for revocation (RFC 5280 §6.3): with a
  /// fetcher, the distribution points the presented certificates name are fetched before their
  /// chains are validated; nil: revocation is not checked.
  public init(
    origin: WebOrigin, protocols: [DigitalCredentialProtocol], signer: RequestSigner? = nil,
    multisigners: [RequestSigner] = [], reader: AnnexCVerifier.ReaderCredentials? = nil,
    sdJWTIssuerAnchors: [Certificate] = [], mdocIssuerAnchors: [Certificate] = [],
    status: StatusChecking = .skip, revocation: RevocationSettings? = nil
  ) {
    self.revocation = revocation
    self.origin = origin
    self.protocols = protocols
    self.signer = signer
    self.multisigners = multisigners
    self.reader = reader
    self.responseMode = .dcAPIJWT
    self.sdJWTIssuerAnchors = sdJWTIssuerAnchors
    self.mdocIssuerAnchors = mdocIssuerAnchors
    self.status = status
    self.transactionLifetime = 600
  }
}

/// One DC API transaction just made: its id, the argument the page passes to
/// `navigator.credentials.get`, and the same query over `request_uri` for another device.
public struct DigitalCredentialTransaction: Sendable {
  /// The page's handle on the transaction; it posts the response with it.
  public let id: String
  /// Each request: its protocol and `data` (W3C Digital Credentials API §2.3).
  package let requests: [(protocolID: DigitalCredentialProtocol, data: JSONValue)]
  /// The cross-device fallback: a redirect-flow transaction for the same query, when the
  /// verifier has one.
  package let crossDevice: CreatedPresentationTransaction?

  /// `{"digital": {"requests": [{"protocol", "data"}, ...]}}`: the whole argument of
  /// `navigator.credentials.get` (W3C Digital Credentials API §2.3, `DigitalCredentialRequestOptions`).
  public var credentialRequestOptions: JSONValue {
    .object([
      (
        "digital",
        .object([
          (
            "requests",
            .array(
              requests.map {
                .object([("protocol", .string($0.protocolID.rawValue)), ("data", $0.data)])
              })
          )
        ])
      )
    ])
  }
}

/// A verified DC API response: what the protocol the wallet picked reports.
public enum DigitalCredentialVerification: Sendable {
  /// An `org-iso-mdoc` response (ISO/IEC TS 18013-7 Annex C).
  case mdoc(AnnexCVerifier.Result)
  /// An OpenID4VP response (OpenID4VP 1.0 Appendix A).
  case openID4VP(protocolID: OpenID4VPProtocol, VerifiedAuthorizationResponse)
  /// A response a wallet on another device posted to the `response_uri` of the transaction's
  /// cross-device link (OpenID4VP 1.0 §8.2).
  case crossDevice(VerifiedAuthorizationResponse)
}

/// The relying party behind a web page: it makes a DC API transaction carrying one request per
/// configured protocol, and verifies the `DigitalCredential` the page got back for the
/// configured origin. ``DigitalCredentialVerifierHTTPHandler`` mounts it, with its browser
/// module and page, on HTTP.
public struct DigitalCredentialVerifier: Sendable {
  /// The origin, protocols, signers and anchors.
  package let configuration: DigitalCredentialVerifierConfiguration
  /// The redirect-flow verifier the cross-device fallback runs on, if any.
  package let crossDevice: PresentationVerifier?
  /// Where open transactions live.
  package let store: any DigitalCredentialTransactionStoring
  /// The clock.
  package let now: @Sendable () -> Date
  /// Where nonces, ids and keys come from.
  package let random: any RandomSource

  /// A verifier; `crossDevice` (a redirect-flow verifier) gives each transaction an
  /// `openid4vp://` link for a wallet on another device.
  ///
  /// `store` is where the DC API transactions live: a ``SQLitePresentationTransactionStore`` or
  /// ``PostgreSQLPresentationTransactionStore`` keeps them in its database (table
  /// `dc_api_transactions`), so every instance on that database can verify a transaction another
  /// made, and the database lets exactly one response through. Nil: `crossDevice`'s store when
  /// it is one of those; otherwise (or for another store) this process's memory.
  public init(
    configuration: DigitalCredentialVerifierConfiguration,
    crossDevice: PresentationVerifier? = nil, store: (any PresentationTransactionStore)? = nil,
    now: @escaping @Sendable () -> Date = { Date() }, random: any RandomSource = SecureRandom()
  ) {
    self.configuration = configuration
    self.crossDevice = crossDevice
    self.store =
      (store ?? crossDevice?.store) as? any DigitalCredentialTransactionStoring
      ?? DigitalCredentialTransactionStore()
    self.now = now
    self.random = random
  }

  /// Makes a transaction for `dcqlQuery`: one request per configured protocol, each with a
  /// fresh nonce and key; `org-iso-mdoc` asks for the query's `mso_mdoc` credentials (and is
  /// left out when it has none).
  ///
  /// - Throws: `invalidRequest` for an invalid query, a configuration that yields no request,
  ///   or a full store; `cryptoFailure`.
  public func makeTransaction(dcqlQuery: JSONValue) async throws(VerifierError)
    -> DigitalCredentialTransaction
  {
    let query: DCQLQuery
    do {
      query = try DCQLQuery(ClaimValue(dcqlQuery))
    } catch {
      throw VerifierError(.invalidRequest, "dcql_query: \(error)", underlying: error)
    }
    var entry = DigitalCredentialTransactionStore.Entry(
      id: Base64URL.encode(random.bytes(count: 32)),
      expiresAt: now().addingTimeInterval(configuration.transactionLifetime))
    var requests: [(protocolID: DigitalCredentialProtocol, data: JSONValue)] = []
    for protocolID in configuration.protocols {
      if protocolID == .orgIsoMdoc {
        let items = Self.itemsRequests(query)
        guard !items.isEmpty else { continue }
        let state = try AnnexCVerifier.makeRequest(
          itemsRequests: items, origin: configuration.origin, reader: configuration.reader,
          random: random)
        entry.annexC = state
        requests.append((protocolID, state.request.data))
      } else if let request = try openID4VPRequest(protocolID, dcqlQuery: dcqlQuery) {
        entry.openID4VP[request.protocolID] = request.state
        requests.append((protocolID, request.data))
      }
    }
    guard !requests.isEmpty else {
      throw VerifierError(.invalidRequest, "no configured protocol can carry this query")
    }
    var fallback: CreatedPresentationTransaction? = nil
    if let crossDevice {
      do {
        fallback = try await crossDevice.createTransaction(dcqlQuery: dcqlQuery)
      } catch {
        throw VerifierError(.invalidRequest, "cross-device: \(error.reason)", underlying: error)
      }
    }
    entry.crossDeviceID = fallback?.transactionID
    let inserted = try await Self.stored { () async throws(PresentationStoreError) in
      try await store.insertDCAPITransaction(entry, now: now())
    }
    guard inserted else {
      throw VerifierError(.invalidRequest, "too many open transactions")
    }
    return DigitalCredentialTransaction(id: entry.id, requests: requests, crossDevice: fallback)
  }

  /// The OpenID4VP request of `protocolID` (Appendix A.3), nil when the configuration lacks
  /// its signer.
  private func openID4VPRequest(_ protocolID: DigitalCredentialProtocol, dcqlQuery: JSONValue)
    throws(VerifierError) -> VerifierRequest?
  {
    let signing: RequestSigning
    switch protocolID {
    case .openID4VPUnsigned: signing = .unsigned
    case .openID4VPSigned:
      guard let signer = configuration.signer else { return nil }
      signing = .signed(signer)
    case .openID4VPMultisigned:
      guard !configuration.multisigners.isEmpty else { return nil }
      signing = .multisigned(configuration.multisigners)
    default: return nil
    }
    do {
      // A.3.2: a signed request names the page's origin in expected_origins.
      return try VerifierRequest(
        dcqlQuery: dcqlQuery, origin: configuration.origin.serialized,
        responseMode: configuration.responseMode, signing: signing,
        verifierInfo: configuration.registrationCertificate.map {
          VerifierRequest.verifierInfo(registrationCertificate: $0)
        }, random: random)
    } catch {
      throw VerifierError(.invalidRequest, error.reason, underlying: error)
    }
  }

  /// One ItemsRequest per `mso_mdoc` Credential Query with a `doctype_value` and claims whose
  /// paths are `[namespace, element]` (OpenID4VP 1.0 Appendix B.2.4).
  static func itemsRequests(_ query: DCQLQuery) -> [ItemsRequest] {
    query.credentials.compactMap { credential -> ItemsRequest? in
      guard credential.format == "mso_mdoc", let docType = credential.meta.doctypeValue,
        let claims = credential.claims, !claims.isEmpty
      else { return nil }
      var nameSpaces: [(nameSpace: String, elements: [ItemsRequest.Element])] = []
      for claim in claims {
        guard claim.path.components.count == 2,
          case .key(let nameSpace) = claim.path.components[0],
          case .key(let element) = claim.path.components[1]
        else { return nil }
        let requested = ItemsRequest.Element(
          element, intentToRetain: claim.intentToRetain ?? false)
        if let index = nameSpaces.firstIndex(where: { $0.nameSpace == nameSpace }) {
          nameSpaces[index].elements.append(requested)
        } else {
          nameSpaces.append((nameSpace, [requested]))
        }
      }
      return ItemsRequest(docType: docType, nameSpaces: nameSpaces)
    }
  }

  /// Verifies the `DigitalCredential` the page got back, `{"protocol", "data"}` (`data` an
  /// object or its JSON text, as browsers have delivered both), for the configured origin: the
  /// transaction takes one response; the protocol must be one it requested.
  ///
  /// - Throws: `unknownTransaction`, `alreadyAnswered`, `unsupportedProtocol`, `invalidRequest`
  ///   (not a DigitalCredential), `walletError` (an OpenID4VP error response),
  ///   `decryptionFailed`, `verificationFailed`.
  public func verify(transactionID: String, credential: JSONValue) async throws(VerifierError)
    -> DigitalCredentialVerification
  {
    guard let name = credential["protocol"]?.string, var data = credential["data"] else {
      throw VerifierError(.invalidRequest, "a DigitalCredential has protocol and data")
    }
    if let text = data.string {
      guard let parsed = try? JSONValue(parsing: Array(text.utf8)) else {
        throw VerifierError(.invalidRequest, "data is a string but not JSON")
      }
      data = parsed
    }
    // The database marks it answered in the statement that reads it: of two responses racing
    // on two instances, one gets the unanswered entry.
    let taken = try await Self.stored { () async throws(PresentationStoreError) in
      try await store.takeDCAPITransaction(id: transactionID, now: now())
    }
    guard let entry = taken else {
      throw VerifierError(.unknownTransaction, "no open transaction with this id")
    }
    guard !entry.answered else {
      throw VerifierError(.alreadyAnswered, "the transaction already took a response")
    }
    let config = configuration
    if name == DigitalCredentialProtocol.orgIsoMdoc.rawValue, let state = entry.annexC {
      let presented = config.revocation.fetches ? state.presentedCertificates(data) : []
      return .mdoc(
        try await config.revocation.inEffect(
          for: presented, issuers: config.mdocIssuerAnchors
        ) { () async throws(VerifierError) in
          try await AnnexCVerifier.verify(
            responseData: data, state: state, issuerTrustAnchors: config.mdocIssuerAnchors,
            now: now(), status: config.status)
        })
    }
    guard let protocolID = OpenID4VPProtocol(rawValue: name),
      let state = entry.openID4VP[protocolID]
    else {
      throw VerifierError(.unsupportedProtocol, "\(name) was not requested")
    }
    let presented =
      config.revocation.fetches
      ? ((try? state.open(data)).map { PresentedCertificates.inVPToken($0.payload) } ?? []) : []
    do {
      return .openID4VP(
        protocolID: protocolID,
        try await config.revocation.inEffect(
          for: presented, issuers: config.sdJWTIssuerAnchors + config.mdocIssuerAnchors
        ) { () async throws(OpenID4VPError) in
          try await state.verifyResponse(
            data, sdJWTIssuerAnchors: config.sdJWTIssuerAnchors,
            mdocIssuerAnchors: config.mdocIssuerAnchors, now: now(), status: config.status)
        })
    } catch {
      let code: VerifierErrorCode =
        switch error.code {
        case .errorResponse: .walletError
        case .decryptionFailed: .decryptionFailed
        default: .verificationFailed
        }
      throw VerifierError(code, error.reason, underlying: error)
    }
  }
}

extension DigitalCredentialVerifier {
  /// The answer of a wallet on another device to the transaction's cross-device link; nil
  /// while none arrived (the page polls).
  ///
  /// - Throws: `unknownTransaction` (also for a transaction without a cross-device link),
  ///   `walletError` when the wallet answered with an error, `verificationFailed`.
  public func crossDeviceResult(transactionID: String) async throws(VerifierError)
    -> DigitalCredentialVerification?
  {
    let entry = try await Self.stored { () async throws(PresentationStoreError) in
      try await store.dcAPITransaction(id: transactionID, now: now())
    }
    guard let crossDevice, let entry, let id = entry.crossDeviceID
    else {
      throw VerifierError(.unknownTransaction, "no open transaction with a cross-device link")
    }
    let result: PresentationResult
    do {
      result = try await crossDevice.result(transactionID: id)
    } catch {
      throw VerifierError(.unknownTransaction, error.reason, underlying: error)
    }
    switch result {
    case .pending: return nil
    case .verified(let verified): return .crossDevice(verified)
    case .failed(_, let reason): throw VerifierError(.verificationFailed, reason)
    case .walletError(let error):
      throw VerifierError(
        .walletError,
        error.error.rawValue + (error.errorDescription.map { ": " + $0 } ?? ""))
    }
  }
}

/// Where a ``DigitalCredentialVerifier`` keeps its open transactions: this process's memory
/// (``DigitalCredentialTransactionStore``) or a database shared by several instances (the SQLite
/// and PostgreSQL presentation stores). Each transaction takes one response:
/// ``takeDCAPITransaction(id:now:)`` marks it answered in the same step that reads it.
package protocol DigitalCredentialTransactionStoring: Sendable {
  /// Stores a new transaction after dropping the expired ones; false when full (or the id is
  /// taken).
  func insertDCAPITransaction(_ entry: DigitalCredentialTransactionStore.Entry, now: Date)
    async throws(PresentationStoreError) -> Bool
  /// The transaction, nil when unknown or expired.
  func dcAPITransaction(id: String, now: Date) async throws(PresentationStoreError)
    -> DigitalCredentialTransactionStore.Entry?
  /// The transaction as it was (`answered` true when a response already took it), marked
  /// answered from now on; nil when unknown or expired.
  func takeDCAPITransaction(id: String, now: Date) async throws(PresentationStoreError)
    -> DigitalCredentialTransactionStore.Entry?
}

extension DigitalCredentialVerifier {
  /// A store step, its failure as the verifier's `storeUnavailable`.
  static func stored<T>(_ body: () async throws(PresentationStoreError) -> T)
    async throws(VerifierError) -> T
  {
    do {
      return try await body()
    } catch {
      throw VerifierError(.storeUnavailable, error.reason, underlying: error)
    }
  }
}

/// The open DC API transactions of one process. Each takes one response:
/// ``takeDCAPITransaction(id:now:)`` marks it answered atomically, so two racing posts cannot
/// both be verified.
package actor DigitalCredentialTransactionStore: DigitalCredentialTransactionStoring {
  /// What a transaction keeps until its response: the state of each request sent.
  package struct Entry: Sendable {
    package let id: String
    package let expiresAt: Date
    package var annexC: AnnexCVerifier.State? = nil
    package var openID4VP: [OpenID4VPProtocol: VerifierState] = [:]
    package var crossDeviceID: String? = nil
    package var answered = false
  }

  private var entries: [String: Entry] = [:]
  /// The most transactions kept at once.
  let capacity: Int

  init(capacity: Int = 10_000) { self.capacity = capacity }

  package func insertDCAPITransaction(_ entry: Entry, now: Date) -> Bool {
    entries = entries.filter { $0.value.expiresAt >= now }
    guard entries.count < capacity, entries[entry.id] == nil else { return false }
    entries[entry.id] = entry
    return true
  }

  package func dcAPITransaction(id: String, now: Date) -> Entry? {
    guard let entry = entries[id], entry.expiresAt >= now else { return nil }
    return entry
  }

  package func takeDCAPITransaction(id: String, now: Date) -> Entry? {
    guard let entry = entries[id], entry.expiresAt >= now else { return nil }
    entries[id]?.answered = true
    return entry
  }
}
