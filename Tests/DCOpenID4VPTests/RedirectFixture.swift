import DCCrypto
import DCJOSE
import DCJSON
import DCOpenID4VP
import DCOpenID4VPTestSupport
import DCQL
import DCX509
import Foundation
import Testing

/// A redirect-flow verifier on top of ``Fixture``: request objects per client identifier
/// prefix, a response encryption key, and a Verifier Attestation issuer under the verifier root.
struct RedirectFixture {
  static let responseURI = "https://verifier.example/response"
  static let requestURI = "https://verifier.example/request/tx1"
  static let clientID = "x509_san_dns:verifier.example"

  let base: Fixture
  let encryptionKey: ECPrivateKey
  let attesterKey: ECPrivateKey
  let attesterCertificate: Certificate
  let rogueAttesterKey: ECPrivateKey
  let rogueAttesterCertificate: Certificate
  var now: Date { base.now }

  init() throws {
    base = try Fixture()
    encryptionKey = try ECPrivateKey(curve: .p256)
    let from = base.now.addingTimeInterval(-86_400)
    let until = base.now.addingTimeInterval(86_400 * 365)
    attesterKey = try ECPrivateKey(curve: .p256)
    attesterCertificate = try CertificateBuilder.openID4VPVerifier(
      dnsName: "attester.example", publicKey: attesterKey.publicKey, notBefore: from,
      notAfter: until
    ).issued(by: base.verifierRoot, signer: base.verifierRootKey)
    let rogueRootKey = try ECPrivateKey(curve: .p256)
    let rogueRoot = try CertificateBuilder.readerRoot(
      commonName: "Rogue Attester Root", publicKey: rogueRootKey.publicKey, notBefore: from,
      notAfter: until
    ).selfSigned(signer: rogueRootKey)
    rogueAttesterKey = try ECPrivateKey(curve: .p256)
    rogueAttesterCertificate = try CertificateBuilder.openID4VPVerifier(
      dnsName: "attester.example", publicKey: rogueAttesterKey.publicKey, notBefore: from,
      notAfter: until
    ).issued(by: rogueRoot, signer: rogueRootKey)
  }

  var encryptionJWK: JWK {
    JWK(publicKey: encryptionKey.publicKey, kid: "enc-1", use: "enc", alg: "ECDH-ES")
  }

  /// The request parameters, with `remove` left out and `set` replacing or adding members.
  func parameters(
    clientID: String = RedirectFixture.clientID, mode: String = "direct_post.jwt",
    responseURI: String = RedirectFixture.responseURI, walletNonce: String? = nil,
    set: [(String, JSONValue)] = [], remove: Set<String> = []
  ) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("client_id", .string(clientID)), ("response_type", "vp_token"),
      ("response_mode", .string(mode)), ("response_uri", .string(responseURI)),
      ("nonce", "n-0S6_WzA2Mj"), ("state", "st-42"), ("dcql_query", Fixture.query),
      (
        "client_metadata",
        .object([
          ("jwks", .object([("keys", .array([encryptionJWK.json]))])),
          ("encrypted_response_enc_values_supported", ["A128GCM"]),
        ])
      ),
      ("aud", .string(RedirectAuthorizationRequest.staticDiscoveryAudience)),
      ("iat", .integer(Int64(now.timeIntervalSince1970) - 10)),
      ("exp", .integer(Int64(now.timeIntervalSince1970) + 300)),
    ]
    if let walletNonce { members.append(("wallet_nonce", .string(walletNonce))) }
    for (name, value) in set {
      if let index = members.firstIndex(where: { $0.key == name }) {
        members[index].value = value
      } else {
        members.append((name, value))
      }
    }
    return .object(members.filter { !remove.contains($0.key) })
  }

  /// A request object signed with the verifier's x5c chain (`x509_san_dns` / `x509_hash`).
  func signed(
    _ payload: JSONValue, typ: String = "oauth-authz-req+jwt", key: ECPrivateKey? = nil,
    chain: [Certificate]? = nil
  ) throws -> String {
    let certificates = chain ?? [base.verifierCertificate]
    return try JWS.sign(
      payload: payload.serializedBytes(),
      protectedHeader: .object([
        ("typ", .string(typ)), ("x5c", JWS.x5c(certificates.map(\.derBytes))),
      ]), signer: key ?? base.verifierKey)
  }

  /// A Verifier Attestation JWT for `subject`, binding `cnfKey`.
  func attestation(
    subject: String = "verifier.example", cnfKey: ECPublicKey? = nil,
    typ: String = "verifier-attestation+jwt", expiresIn: TimeInterval = 3600,
    redirectURIs: [String]? = [RedirectFixture.responseURI], rogue: Bool = false,
    withoutExp: Bool = false
  ) throws -> String {
    var claims: [(key: String, value: JSONValue)] = [
      ("iss", "https://attester.example"), ("sub", .string(subject)),
      ("iat", .integer(Int64(now.timeIntervalSince1970) - 10)),
      ("cnf", .object([("jwk", JWK(publicKey: cnfKey ?? base.verifierKey.publicKey).json)])),
    ]
    if !withoutExp {
      claims.append(
        ("exp", .integer(Int64(now.addingTimeInterval(expiresIn).timeIntervalSince1970))))
    }
    if let redirectURIs {
      claims.append(("redirect_uris", .array(redirectURIs.map(JSONValue.string))))
    }
    let certificate = rogue ? rogueAttesterCertificate : attesterCertificate
    return try JWS.sign(
      payload: JSONValue.object(claims).serializedBytes(),
      protectedHeader: .object([
        ("typ", .string(typ)), ("x5c", JWS.x5c([certificate.derBytes])),
      ]), signer: rogue ? rogueAttesterKey : attesterKey)
  }

  /// A request object signed with `key` and carrying `attestation` in its `jwt` header.
  func attested(_ payload: JSONValue, attestation: String, key: ECPrivateKey? = nil) throws
    -> String
  {
    try JWS.sign(
      payload: payload.serializedBytes(),
      protectedHeader: .object([
        ("typ", "oauth-authz-req+jwt"), ("jwt", .string(attestation)),
      ]), signer: key ?? base.verifierKey)
  }

  /// `openid4vp://?client_id=...&request_uri=...`.
  func referenceURI(
    clientID: String = RedirectFixture.clientID, method: String? = nil,
    scheme: String = "openid4vp://"
  ) throws -> AuthorizationRequestURI {
    var fields = [("client_id", clientID), ("request_uri", Self.requestURI)]
    if let method { fields.append(("request_uri_method", method)) }
    return try AuthorizationRequestURI(scheme + "?" + Self.form(fields))
  }

  static func form(_ fields: [(String, String)]) -> String {
    fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
  }

  static func encode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }

  /// Reads `object` as fetched from `request_uri`.
  func read(
    _ object: String, clientID: String = RedirectFixture.clientID, walletNonce: String? = nil,
    walletIssuer: String? = nil, policy: RedirectRequestPolicy = .standard
  ) throws -> RedirectAuthorizationRequest {
    try RedirectAuthorizationRequest(
      uri: referenceURI(clientID: clientID, method: walletNonce == nil ? nil : "post"),
      requestObject: object, verifierTrustAnchors: [base.verifierRoot], walletNonce: walletNonce,
      walletIssuer: walletIssuer, now: now, policy: policy,
      supportedTransactionDataTypes: [Fixture.paymentType])
  }

  /// The default selection of the fixture's PID and mDL for the request's query.
  func presentations(for query: DCQLQuery, mdocDeviceKey: (any Signer)? = nil) throws
    -> [String: [CredentialPresentation]]
  {
    let pid = try SDJWTCredential(id: "stored-pid", sdJWT: base.pid)
    let mdl = MdocCredential(id: "stored-mdl", issuerSigned: base.mdl)
    let credentials: [any DCQLCredential] = [pid, mdl]
    var presentations: [String: [CredentialPresentation]] = [:]
    for (id, candidates) in query.evaluate(credentials).defaultSelection() {
      for candidate in candidates {
        switch credentials[candidate.credentialIndex] {
        case let credential as SDJWTCredential:
          presentations[id, default: []].append(
            credential.presentation(disclosing: candidate.disclosed, holderKey: base.holderKey))
        case let credential as MdocCredential:
          presentations[id, default: []].append(
            credential.presentation(
              disclosing: candidate.disclosed, deviceKey: mdocDeviceKey ?? base.deviceKey))
        default:
          Issue.record("unexpected credential type")
        }
      }
    }
    return presentations
  }
}
