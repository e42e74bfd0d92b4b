public import DCCrypto
import DCEncoding
import DCJOSE
public import DCJSON
public import DCOpenID4VP
import DCQL
public import DCX509

/// A key and certificate chain a verifier signs requests with, under a client identifier
/// (OpenID4VP 1.0 §5.9.3, Appendix A.3.2).
public struct RequestSigner: Sendable {
  /// The full client identifier, prefix included, such as `x509_san_dns:verifier.example`.
  public var clientID: String
  /// The certificate chain, leaf first; a self-signed root at its end is not sent (HAIP 1.0).
  package var certificateChain: [Certificate]
  /// The leaf certificate's private key.
  package var signer: any Signer

  /// Creates a signer for any client identifier.
  public init(clientID: String, certificateChain: [Certificate], signer: any Signer) {
    self.clientID = clientID
    self.certificateChain = certificateChain
    self.signer = signer
  }

  /// The `x5c` sent: the chain without self-signed certificates after the leaf, since HAIP 1.0
  /// forbids sending the trust anchor (and wallets refuse a request that does).
  var x5c: [[UInt8]] {
    certificateChain.enumerated().filter { index, certificate in
      index == 0 || !isSelfSigned(certificate)
    }.map(\.element.derBytes)
  }

  /// `x509_san_dns:<dnsName>`; the leaf must carry `dnsName` as a SAN (OpenID4VP 1.0 §5.9.3).
  public static func x509SANDNS(
    dnsName: String, certificateChain: [Certificate], signer: any Signer
  ) -> RequestSigner {
    RequestSigner(
      clientID: "x509_san_dns:" + dnsName, certificateChain: certificateChain, signer: signer)
  }

  /// `x509_hash:<base64url SHA-256 of the leaf>` (OpenID4VP 1.0 §5.9.3); nil without a leaf.
  public static func x509Hash(certificateChain: [Certificate], signer: any Signer)
    -> RequestSigner?
  {
    guard let leaf = certificateChain.first else { return nil }
    return RequestSigner(
      clientID: "x509_hash:" + leaf.x509Hash, certificateChain: certificateChain, signer: signer)
  }
}

/// How a request is sent: unsigned, signed, or multisigned (OpenID4VP 1.0 Appendix A.3).
extension VerifierRequest {
  /// The `verifier_info` value (OpenID4VP 1.0 §5.1) carrying a relying party's registration
  /// certificate (ETSI TS 119 475, format `registration_cert`), for `verifierInfo:`.
  public static func verifierInfo(registrationCertificate: [UInt8]) -> JSONValue {
    [VerifierInfo.entry(registrationCertificate: registrationCertificate)]
  }
}

public enum RequestSigning: Sendable {
  /// `openid4vp-v1-unsigned` (OpenID4VP 1.0 Appendix A.3.1).
  case unsigned
  /// `openid4vp-v1-signed`: a compact JWS (OpenID4VP 1.0 Appendix A.3.2).
  case signed(RequestSigner)
  /// `openid4vp-v1-multisigned`: a JWS JSON serialization with one signature per signer
  /// (OpenID4VP 1.0 Appendix A.3.2).
  case multisigned([RequestSigner])
}

/// A request ready for `navigator.credentials.get`, and the state to check its response with
/// (OpenID4VP 1.0 Appendix A).
public struct VerifierRequest: Sendable {
  /// The DC API `protocol`.
  public let protocolID: OpenID4VPProtocol
  /// The DC API `data`.
  public let data: JSONValue
  /// What to keep, secretly, until the response arrives.
  public let state: VerifierState

  /// Builds a request (OpenID4VP 1.0 §5, Appendix A).
  ///
  /// A fresh 256-bit nonce is drawn from `random`; for `dc_api.jwt` a fresh P-256 key is made
  /// and published in `client_metadata.jwks` with `use: enc`, `alg: ECDH-ES` and a `kid`
  /// (§8.3). Signed requests carry `client_id` and `expected_origins` (default `[origin]`) in
  /// the payload; multisigned requests carry each `client_id` and `x5c` in that signature's
  /// protected header and travel as `{"request": <JWS JSON serialization>}` (A.3.2). Every JWS
  /// has `typ: oauth-authz-req+jwt`; `x5c` never holds a self-signed root (HAIP 1.0).
  ///
  /// - Parameters:
  ///   - dcqlQuery: the DCQL query; it is validated before it is sent.
  ///   - origin: the verifier's own origin, as the browser will assert it.
  ///   - responseMode: `dc_api`, or `dc_api.jwt` for a response encrypted to a fresh key (§8.3).
  ///   - signing: whether the request goes unsigned, signed or multisigned (Appendix A.3).
  ///   - expectedOrigins: `expected_origins` of a signed request; nil for `[origin]`.
  ///   - transactionData: JSON objects with `type` and `credential_ids`, base64url-encoded here.
  ///   - verifierInfo: `verifier_info`, when given.
  ///   - random: the source of the nonce and of the encryption key.
  /// - Throws: `invalidRequest` for an invalid query or transaction data, `internalFailure`.
  public init(
    dcqlQuery: JSONValue, origin: String, responseMode: ResponseMode,
    signing: RequestSigning = .unsigned, expectedOrigins: [String]? = nil,
    transactionData: [JSONValue] = [], verifierInfo: JSONValue? = nil,
    random: any RandomSource = SecureRandom()
  ) throws(OpenID4VPError) {
    let query = try Self.parseQuery(dcqlQuery)
    let nonce = Base64URL.encode(random.bytes(count: 32))
    var params: [(key: String, value: JSONValue)] = [
      ("response_type", "vp_token"), ("response_mode", .string(responseMode.rawValue)),
      ("nonce", .string(nonce)), ("dcql_query", dcqlQuery),
    ]
    let (clientMetadata, privateKey) = try Self.clientMetadata(
      responseMode: responseMode, random: random)
    params.append(("client_metadata", clientMetadata))
    let encodedEntries = try Self.encodeTransactionData(
      transactionData, credentialQueryIDs: Set(query.credentials.map(\.id)))
    if !encodedEntries.isEmpty {
      params.append(("transaction_data", .array(encodedEntries.map { .string($0) })))
    }
    let expectedOrigins = expectedOrigins ?? [origin]
    let (protocolID, data) = try Self.requestData(
      params, signing: signing, expectedOrigins: expectedOrigins, verifierInfo: verifierInfo)
    self.protocolID = protocolID
    self.data = data
    state = VerifierState(
      protocolID: protocolID, origin: origin, nonce: nonce, responseMode: responseMode,
      encryptionKey: privateKey, dcqlQuery: dcqlQuery, transactionData: encodedEntries)
  }

  /// Parses and validates the DCQL query before it is sent.
  private static func parseQuery(_ dcqlQuery: JSONValue) throws(OpenID4VPError) -> DCQLQuery {
    do {
      return try DCQLQuery(ClaimValue(dcqlQuery))
    } catch {
      throw OpenID4VPError(.invalidRequest, "dcql_query: \(error)", underlying: error)
    }
  }

  /// `client_metadata`, with a fresh encryption key published in `jwks` for `dc_api.jwt`
  /// (OpenID4VP 1.0 §8.3); the private key is returned alongside.
  private static func clientMetadata(
    responseMode: ResponseMode, random: any RandomSource
  ) throws(OpenID4VPError) -> (metadata: JSONValue, privateKey: JWK?) {
    guard responseMode == .dcAPIJWT else {
      return (.object([("vp_formats_supported", vpFormats)]), nil)
    }
    let key = try makeKey(random: random)
    let kid = Base64URL.encode(random.bytes(count: 8))
    let jwk = JWK(privateKey: key, kid: kid, use: "enc", alg: JWEAlgorithm.ecdhES.rawValue)
    let metadata: JSONValue = .object([
      ("jwks", JWKSet(keys: [jwk.publicJWK]).json),
      (
        "encrypted_response_enc_values_supported",
        .array([
          .string(JWEEncryption.a128gcm.rawValue), .string(JWEEncryption.a256gcm.rawValue),
        ])
      ),
      ("vp_formats_supported", vpFormats),
    ])
    return (metadata, jwk)
  }

  /// Base64url-encodes each transaction data entry, checking it against the query's
  /// credential IDs.
  private static func encodeTransactionData(
    _ transactionData: [JSONValue], credentialQueryIDs ids: Set<String>
  ) throws(OpenID4VPError) -> [String] {
    var encodedEntries: [String] = []
    for entry in transactionData {
      let encoded = Base64URL.encode(entry.serializedBytes())
      do {
        _ = try TransactionData(encoded: encoded, credentialQueryIDs: ids)
      } catch {
        throw OpenID4VPError(.invalidRequest, error.reason, underlying: error)
      }
      encodedEntries.append(encoded)
    }
    return encodedEntries
  }

  /// The DC API `protocol` and `data` for the parameters, signed as `signing` asks
  /// (OpenID4VP 1.0 Appendix A.3).
  private static func requestData(
    _ params: [(key: String, value: JSONValue)], signing: RequestSigning,
    expectedOrigins: [String], verifierInfo: JSONValue?
  ) throws(OpenID4VPError) -> (OpenID4VPProtocol, JSONValue) {
    switch signing {
    case .unsigned:
      var params = params
      if let verifierInfo { params.append(("verifier_info", verifierInfo)) }
      return (.unsigned, .object(params))
    case .signed(let signer):
      let data = try signedData(
        params, signer: signer, expectedOrigins: expectedOrigins, verifierInfo: verifierInfo)
      return (.signed, data)
    case .multisigned(let signers):
      let data = try multisignedData(
        params, signers: signers, expectedOrigins: expectedOrigins, verifierInfo: verifierInfo)
      return (.multisigned, data)
    }
  }

  /// `{"request": <compact JWS>}` with `client_id` and `expected_origins` in the payload
  /// (OpenID4VP 1.0 Appendix A.3.2).
  private static func signedData(
    _ params: [(key: String, value: JSONValue)], signer: RequestSigner,
    expectedOrigins: [String], verifierInfo: JSONValue?
  ) throws(OpenID4VPError) -> JSONValue {
    var params = params
    params.insert(("client_id", .string(signer.clientID)), at: 0)
    params.insert(("expected_origins", .array(expectedOrigins.map { .string($0) })), at: 1)
    if let verifierInfo { params.append(("verifier_info", verifierInfo)) }
    do {
      let jws = try JWS.sign(
        payload: JSONValue.object(params).serializedBytes(),
        protectedHeader: .object([
          ("typ", .string(AuthorizationRequest.requestObjectType)),
          ("x5c", JWS.x5c(signer.x5c)),
        ]),
        signer: signer.signer)
      return .object([("request", .string(jws))])
    } catch {
      throw OpenID4VPError(
        .internalFailure, "signing the request: \(error.reason)", underlying: error)
    }
  }

  /// `{"request": <JWS JSON serialization>}` with each `client_id`, `x5c` and `verifier_info`
  /// in that signature's protected header (OpenID4VP 1.0 Appendix A.3.2).
  private static func multisignedData(
    _ params: [(key: String, value: JSONValue)], signers: [RequestSigner],
    expectedOrigins: [String], verifierInfo: JSONValue?
  ) throws(OpenID4VPError) -> JSONValue {
    guard !signers.isEmpty else {
      throw OpenID4VPError(.invalidRequest, "a multisigned request needs at least one signer")
    }
    var params = params
    params.insert(("expected_origins", .array(expectedOrigins.map { .string($0) })), at: 0)
    let entries = signers.map { signer in
      var header: [(key: String, value: JSONValue)] = [
        ("typ", .string(AuthorizationRequest.requestObjectType)),
        ("client_id", .string(signer.clientID)),
        ("x5c", JWS.x5c(signer.x5c)),
      ]
      // A.3.2: verifier_info belongs to each signature's protected header.
      if let verifierInfo { header.append(("verifier_info", verifierInfo)) }
      return JWSJSON.SignerEntry(protectedHeader: .object(header), signer: signer.signer)
    }
    do {
      // A.3.2: the JWS travels in `request`, as the conformance suite and wallets expect.
      return .object([
        (
          "request",
          try JWSJSON.sign(payload: JSONValue.object(params).serializedBytes(), signers: entries)
        )
      ])
    } catch {
      throw OpenID4VPError(
        .internalFailure, "signing the request: \(error.reason)", underlying: error)
    }
  }

  static let vpFormats: JSONValue = .object([
    ("dc+sd-jwt", .object([("sd-jwt_alg_values", ["ES256"]), ("kb-jwt_alg_values", ["ES256"])])),
    ("mso_mdoc", .object([("issuerauth_alg_values", [-7]), ("deviceauth_alg_values", [-7])])),
  ])

  /// Draws a P-256 scalar from `random` by rejection sampling (FIPS 186-5 §A.4.2).
  static func makeKey(random: any RandomSource) throws(OpenID4VPError) -> ECPrivateKey {
    for _ in 0..<64 {
      if let key = try? ECPrivateKey(rawRepresentation: random.bytes(count: 32), curve: .p256) {
        return key
      }
    }
    throw OpenID4VPError(.internalFailure, "the random source produced no valid P-256 scalar")
  }
}
