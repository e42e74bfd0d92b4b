// A relying party (a website's backend): builds Digital Credentials API requests for each
// protocol, keeps their state server-side, verifies the answer for the page's origin and reads
// the VerificationReport; and mounts the redirect-flow (openid4vp://) verifier on its server.
import DCAPI
import DCCrypto
import DCHTTP
import DCJSON
import DCMdoc
import DCVerifier
import DCX509
import Foundation

/// The relying party's keys and the issuers it trusts.
struct RelyingParty {
  let origin: WebOrigin
  let readerKey: ECPrivateKey
  let readerChain: [Certificate]
  let issuerAnchors: [Certificate]
  let http = URLSessionHTTPClient()

  init(origin: String, readerKeyPEM: String, readerChainPEM: [String], issuerRootsPEM: [String])
    throws
  {
    self.origin = try WebOrigin(origin)
    readerKey = try ECPrivateKey(pemRepresentation: readerKeyPEM)
    readerChain = try readerChainPEM.map { try Certificate(pemEncoded: $0) }
    issuerAnchors = try issuerRootsPEM.map { try Certificate(pemEncoded: $0) }
  }

  // MARK: org-iso-mdoc (ISO/IEC TS 18013-7 Annex C)

  /// An age check for an mDL: the request the page passes to `navigator.credentials.get`, and
  /// the state kept for the answer.
  func ageCheckRequest() throws -> (page: JSONValue, state: AnnexCVerifier.State) {
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [
        ItemsRequest(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: [("org.iso.18013.5.1", [.init("age_over_21", intentToRetain: false)])])
      ], origin: origin, reader: .init(signer: readerKey, chain: readerChain))
    let page = JSONValue.object([
      (
        "requests",
        .array([
          .object([
            ("protocol", .string(DigitalCredentialProtocol.orgIsoMdoc.rawValue)),
            ("data", state.request.data),
          ])
        ])
      )
    ])
    return (page, state)
  }

  /// The page posts back the wallet's answer (`credential.data`).
  func verifyAgeCheck(_ responseData: JSONValue, state: AnnexCVerifier.State) throws -> Bool {
    let result = try AnnexCVerifier.verify(
      responseData: responseData, state: state, issuerTrustAnchors: issuerAnchors, now: Date())
    for document in result.documents {
      for element in document.elements where element.identifier == "age_over_21" {
        print(document.docType, element.nameSpace, element.value)
      }
    }
    print(result.report.checks.count, "checks passed")
    return result.documents.contains { document in
      document.elements.contains { $0.identifier == "age_over_21" && $0.value == true }
    }
  }

  // MARK: OpenID4VP over the DC API

  /// A signed OpenID4VP request with a DCQL query and an encrypted response.
  func pidRequest(signerKey: ECPrivateKey, signerChain: [Certificate]) throws -> VerifierRequest {
    let dcql = try JSONValue(
      parsing: #"""
        {"credentials": [{"id": "pid", "format": "dc+sd-jwt",
          "meta": {"vct_values": ["urn:eudi:pid:1"]},
          "claims": [{"path": ["given_name"]}, {"path": ["age_over_18"]}]}]}
        """#)
    return try VerifierRequest(
      dcqlQuery: dcql, origin: origin.serialized, responseMode: .dcAPIJWT,
      signing: .signed(
        .x509SANDNS(dnsName: "shop.example", certificateChain: signerChain, signer: signerKey)),
      expectedOrigins: [origin.serialized])
  }

  /// An unsigned request, for the page: `{"protocol", "data"}`.
  func unsignedRequest(dcql: JSONValue) throws -> (ProtocolRequest, VerifierState) {
    let request = try VerifierRequest(
      dcqlQuery: dcql, origin: origin.serialized, responseMode: .dcAPIJWT)
    return (
      ProtocolRequest(protocolIdentifier: request.protocolID.rawValue, data: request.data),
      request.state
    )
  }

  /// Verifies the answer to an OpenID4VP request, checking status lists too.
  func verify(_ responseData: JSONValue, state: VerifierState) async throws -> [String] {
    let verified = try await state.verifyResponse(
      responseData, sdJWTIssuerAnchors: issuerAnchors, mdocIssuerAnchors: issuerAnchors,
      now: Date(), status: .fetching(httpClient: http))
    var lines: [String] = []
    for (queryID, credentials) in verified.credentials {
      for credential in credentials {
        for claim in credential.claims {
          lines.append("\(queryID) \(credential.format) \(claim.path) = \(claim.value)")
        }
      }
    }
    for check in verified.report.checks {
      lines.append("\(check)")
    }
    return lines
  }

  // MARK: OpenID4VP redirect flow (openid4vp:// links, same and cross device)

  /// The handler the relying party's HTTP server mounts under `baseURL`: the frontend creates
  /// transactions (`POST /transactions`), the wallet fetches requests and posts responses.
  func redirectVerifier(baseURL: String, signerKey: ECPrivateKey, signerChain: [Certificate])
    -> PresentationVerifierHTTPHandler
  {
    let configuration = PresentationVerifierConfiguration(
      baseURL: baseURL,
      x509SANDNS: .x509SANDNS(
        dnsName: "shop.example", certificateChain: signerChain, signer: signerKey),
      sdJWTIssuerAnchors: issuerAnchors, mdocIssuerAnchors: issuerAnchors,
      status: .fetching(httpClient: http))
    return PresentationVerifierHTTPHandler(
      verifier: PresentationVerifier(
        configuration: configuration, store: InMemoryPresentationTransactionStore()))
  }

  /// The frontend starts a cross-device transaction and later asks for its result.
  func redirectTransaction(_ handler: PresentationVerifierHTTPHandler, baseURL: URL) async throws
    -> PresentationResult
  {
    let body =
      #"{"dcql_query": {"credentials": [{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "age_over_18"]}]}]}, "flow": "cross_device"}"#
    let created = await handler.handle(
      HTTPRequest(
        method: .post, url: baseURL.appendingPathComponent("transactions"),
        headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
    let json = try JSONValue(parsing: String(decoding: created.body, as: UTF8.self))
    let id = json["transaction_id"]?.string ?? ""
    print("show as a QR code:", json["authorization_request_uri"]?.string ?? "")
    return try await handler.verifier.result(transactionID: id)
  }

  /// The backend starts a same-device transaction itself (no HTTP round trip to its own
  /// `/transactions`) and sends the browser to the wallet; the wallet's redirect brings back the
  /// `response_code` the result is released with.
  func sameDeviceTransaction(_ verifier: PresentationVerifier, dcql: JSONValue) async throws
    -> CreatedPresentationTransaction
  {
    let created = try await verifier.createTransaction(
      dcqlQuery: dcql, options: PresentationTransactionOptions(flow: .sameDevice))
    print("open:", created.authorizationRequestURI)
    return created
  }

  /// The result of a same-device transaction, with the `response_code` of the wallet's redirect.
  func sameDeviceResult(
    _ verifier: PresentationVerifier, _ created: CreatedPresentationTransaction,
    responseCode: String
  ) async throws -> PresentationResult {
    try await verifier.result(transactionID: created.transactionID, responseCode: responseCode)
  }
}
