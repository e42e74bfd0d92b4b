import DCCBOR
import DCCrypto
import DCEncoding
import DCHTTP
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCSDJWT
import DCVerifier
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// A clock the tests move.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date
  init(_ date: Date) { current = date }
  var now: Date { lock.withLock { current } }
  func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// A redirect-flow verifier (x509_san_dns, x509_hash and verifier_attestation signing material),
/// an SD-JWT PID and an mDL with their holder keys, and a minimal test wallet that reads request
/// objects and builds `direct_post(.jwt)` bodies by hand: each binding input can be changed to
/// prove the verifier's checks.
struct RedirectFixture {
  static let base = "https://verifier.example"
  static let dnsName = "verifier.example"
  static let pidType = "urn:eudi:pid:1"

  let pki: TestPKI
  let clock: TestClock
  let verifierRoot: Certificate
  let verifierKey: ECPrivateKey
  let verifierCertificate: Certificate
  let attestationKey: ECPrivateKey
  let attestationIssuerCertificate: Certificate
  let pidRoot: Certificate
  let pidIssuerKey: ECPrivateKey
  let holderKey: ECPrivateKey
  let deviceKey: ECPrivateKey
  let pid: SDJWT
  let mdl: IssuerSigned
  private(set) var verifier: PresentationVerifier
  private(set) var handler: PresentationVerifierHTTPHandler

  init(
    status: StatusChecking = .skip,
    store: any PresentationTransactionStore = InMemoryPresentationTransactionStore()
  ) throws {
    pki = try TestPKI()
    clock = TestClock(pki.clock)
    let from = pki.clock.addingTimeInterval(-86_400)
    let until = pki.clock.addingTimeInterval(86_400 * 365)
    let rootKey = try ECPrivateKey(curve: .p256)
    verifierRoot = try CertificateBuilder.readerRoot(
      commonName: "Test Verifier CA", publicKey: rootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: rootKey)
    verifierKey = try ECPrivateKey(curve: .p256)
    verifierCertificate = try CertificateBuilder.openID4VPVerifier(
      dnsName: Self.dnsName, publicKey: verifierKey.publicKey, notBefore: from, notAfter: until
    ).issued(by: verifierRoot, signer: rootKey)
    // The attestation issuer: a key and a certificate under the verifier CA.
    let attestationIssuerKey = try ECPrivateKey(curve: .p256)
    attestationIssuerCertificate = try CertificateBuilder.openID4VPVerifier(
      dnsName: "attestations.example", publicKey: attestationIssuerKey.publicKey,
      notBefore: from, notAfter: until
    ).issued(by: verifierRoot, signer: rootKey)
    attestationKey = try ECPrivateKey(curve: .p256)
    let attestation = try VerifierAttestationSigner.issue(
      issuer: "https://attestations.example", subject: Self.dnsName,
      confirmationKey: attestationKey.publicKey, issuerSigner: attestationIssuerKey,
      issuerChain: [attestationIssuerCertificate, verifierRoot], issuedAt: pki.clock,
      // No redirect_uris: each transaction has a response_uri of its own (OpenID4VP 1.0 §12).
      expiresAt: until)

    let pidRootKey = try ECPrivateKey(curve: .p256)
    pidRoot = try CertificateBuilder.iaca(
      commonName: "Test PID Root", country: "UT", publicKey: pidRootKey.publicKey,
      notBefore: from, notAfter: until
    ).selfSigned(signer: pidRootKey)
    pidIssuerKey = try ECPrivateKey(curve: .p256)
    let pidIssuer = try CertificateBuilder(
      subject: DistinguishedName(commonName: "Test PID Issuer", country: "UT"),
      publicKey: pidIssuerKey.publicKey, notBefore: from, notAfter: until,
      extensions: [
        .keyUsage(.digitalSignature), .subjectAlternativeNames([.dnsName("pid.example")]),
        .subjectKeyIdentifier(CertificateExtension.keyIdentifier(for: pidIssuerKey.publicKey)),
      ]
    ).issued(by: pidRoot, signer: pidRootKey)
    holderKey = try ECPrivateKey(curve: .p256)
    deviceKey = try ECPrivateKey(curve: .p256)
    pid = try SDJWTIssuer.issue(
      claims: ["given_name": "Erika", "family_name": "Mustermann"],
      selectivelyDisclosable: ["given_name", "family_name"], decoys: 0,
      holderKey: holderKey.publicKey, vct: Self.pidType, issuer: "https://pid.example",
      issuedAt: pki.clock.addingTimeInterval(-3600),
      expiresAt: pki.clock.addingTimeInterval(86_400 * 30), signer: pidIssuerKey,
      x5c: [pidIssuer], random: SecureRandom())
    mdl = try pki.issue(deviceKey: deviceKey.publicKey)

    let clock = self.clock
    verifier = PresentationVerifier(
      configuration: PresentationVerifierConfiguration(
        baseURL: Self.base, frontendURL: Self.base + "/frontend",
        x509SANDNS: .x509SANDNS(
          dnsName: Self.dnsName, certificateChain: [verifierCertificate, verifierRoot],
          signer: verifierKey),
        x509Hash: .x509Hash(
          certificateChain: [verifierCertificate, verifierRoot], signer: verifierKey),
        attestation: VerifierAttestationSigner(
          attestationJWT: attestation, subject: Self.dnsName, signer: attestationKey),
        sdJWTIssuerAnchors: [pidRoot], mdocIssuerAnchors: [pki.iaca], status: status),
      store: store, now: { clock.now })
    handler = PresentationVerifierHTTPHandler(verifier: verifier)
  }

  /// Another instance of the same verifier (configuration, keys, clock) over `store`: what a
  /// second server behind a load balancer is (issue 31).
  func instance(on store: any PresentationTransactionStore) -> RedirectFixture {
    var copy = self
    let clock = self.clock
    copy.verifier = PresentationVerifier(
      configuration: verifier.configuration, store: store, now: { clock.now })
    copy.handler = PresentationVerifierHTTPHandler(verifier: copy.verifier)
    return copy
  }

  static let pidQuery: JSONValue = [
    "credentials": [
      [
        "id": "pid", "format": "dc+sd-jwt", "meta": ["vct_values": [.string(pidType)]],
        "claims": [["path": ["given_name"]]],
      ]
    ]
  ]
  static let mdlQuery: JSONValue = [
    "credentials": [
      [
        "id": "mdl", "format": "mso_mdoc", "meta": ["doctype_value": "org.iso.18013.5.1.mDL"],
        "claims": [["path": ["org.iso.18013.5.1", "family_name"]]],
      ]
    ]
  ]

  // MARK: The test wallet

  /// The query parameters of an `openid4vp://` URI.
  static func parameters(_ uri: String) throws -> [String: String] {
    let components = try #require(URLComponents(string: uri))
    var result: [String: String] = [:]
    for item in components.queryItems ?? [] { result[item.name] = item.value }
    return result
  }

  /// The request id in a `request_uri` or `response_uri`.
  static func requestID(_ uri: String) -> String { String(uri.split(separator: "/").last ?? "") }

  /// Fetches and decodes the request object (signature checked by the caller when it matters).
  func fetch(_ uri: String, method: HTTPMethod = .get, form: [(String, String)] = []) async throws
    -> CompactJWS
  {
    let requestURI = try #require(try Self.parameters(uri)["request_uri"])
    let body = form.map { "\($0.0)=\(PresentationVerifierTestsEncoding.encode($0.1))" }
      .joined(separator: "&")
    let response = await handler.handle(
      HTTPRequest(
        method: method, url: try #require(URL(string: requestURI)),
        headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array(body.utf8)))
    guard response.status == 200 else {
      throw PresentationEndpointFailureBody(response: response)
    }
    return try CompactJWS(String(decoding: response.body, as: UTF8.self))
  }

  /// The request parameters: the request object's payload, or the URI's for a request by value.
  func requestParameters(_ uri: String) async throws -> JSONValue {
    let parameters = try Self.parameters(uri)
    if parameters["request_uri"] != nil {
      return try JSONValue(parsing: try await fetch(uri).payload)
    }
    var members: [(key: String, value: JSONValue)] = []
    for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
      if ["dcql_query", "client_metadata", "transaction_data"].contains(name) {
        members.append((name, try JSONValue(parsing: Array(value.utf8))))
      } else {
        members.append((name, .string(value)))
      }
    }
    return .object(members)
  }

  /// An SD-JWT presentation bound to `audience` and `nonce`.
  func sdJWTPresentation(audience: String, nonce: String, hashes: [String]? = nil) throws
    -> String
  {
    try pid.present(
      disclosing: [ClaimPath([.key("given_name")])],
      keyBinding: KeyBinding(
        signer: holderKey, audience: audience, nonce: nonce, issuedAt: pki.clock,
        transactionDataHashes: hashes))
  }

  /// An mdoc presentation signed over `transcript`.
  func mdocPresentation(transcript: SessionTranscript) throws -> String {
    let document = try Document.present(
      mdl, disclosing: ["org.iso.18013.5.1": ["family_name"]], sessionTranscript: transcript,
      deviceKey: deviceKey)
    return Base64URL.encode(DeviceResponse(documents: [document]).bytes)
  }

  /// The form body of a response: `vp_token` and `state` in the clear (direct_post) or
  /// encrypted to the request's key (direct_post.jwt).
  func responseBody(
    vpToken: JSONValue, state: String, parameters: JSONValue, encrypt: Bool,
    enc: JWEEncryption = .a128gcm
  ) throws -> [UInt8] {
    if encrypt {
      let jwk = try #require(
        try parameters["client_metadata"]?["jwks"]?["keys"]?.array?.first.map { try JWK(json: $0) })
      let payload = JSONValue.object([("vp_token", vpToken), ("state", .string(state))])
      let jwe = try JWE.encrypt(
        plaintext: payload.serializedBytes(), recipient: try jwk.publicKey(), enc: enc,
        kid: jwk.kid)
      return Array("response=\(PresentationVerifierTestsEncoding.encode(jwe))".utf8)
    }
    return Array(
      ("vp_token=\(PresentationVerifierTestsEncoding.encode(vpToken.serialized()))"
        + "&state=\(PresentationVerifierTestsEncoding.encode(state))").utf8)
  }

  /// A correct vp_token for the request `parameters` (PID query), with overrides.
  func pidToken(_ parameters: JSONValue, audience: String? = nil, nonce: String? = nil) throws
    -> JSONValue
  {
    let presentation = try sdJWTPresentation(
      audience: audience ?? parameters["client_id"]?.string ?? "",
      nonce: nonce ?? parameters["nonce"]?.string ?? "")
    return .object([("pid", .array([.string(presentation)]))])
  }

  /// Posts `body` to the request's `response_uri`.
  func post(_ body: [UInt8], to parameters: JSONValue) async throws -> HTTPResponse {
    let uri = try #require(parameters["response_uri"]?.string)
    return await handler.handle(
      HTTPRequest(
        method: .post, url: try #require(URL(string: uri)),
        headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body))
  }

  /// Makes a transaction through the verifier's typed API.
  func create(
    _ query: JSONValue = RedirectFixture.pidQuery,
    _ options: PresentationTransactionOptions = .init()
  ) async throws -> CreatedPresentationTransaction {
    try await verifier.createTransaction(dcqlQuery: query, options: options)
  }
}

/// A refused HTTP answer, with its JSON body.
struct PresentationEndpointFailureBody: Error {
  let response: HTTPResponse
  var json: JSONValue? { try? JSONValue(parsing: response.body) }
  var failure: String? { json?["failure"]?.string }
}

enum PresentationVerifierTestsEncoding {
  static func encode(_ text: String) -> String {
    text.addingPercentEncoding(
      withAllowedCharacters: CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? ""
  }
}
