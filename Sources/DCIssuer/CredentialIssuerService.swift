public import DCCrypto
import DCEncoding
package import DCHTTP
import DCJOSE
import DCJSON
public import DCOpenID4VCI
import DCX509
public import Foundation

/// An OpenID4VCI 1.0 credential issuer that is its own authorization server (HAIP 1.0 profile),
/// as transport-independent handlers: each takes an `HTTPRequest` and returns an
/// `HTTPResponse` (DCHTTP), so any server mounts them (``IssuerHTTPHandler`` routes by path).
///
/// State lives in an ``IssuerStateStore``; time and randomness are injected.
public final class CredentialIssuerService: Sendable {
  /// What the issuer issues and demands.
  package let configuration: IssuerConfiguration
  /// Where codes, tokens, nonces and transactions are kept.
  package let store: any IssuerStateStore
  /// The endpoint URLs.
  public let endpoints: IssuerEndpoints
  /// The clock.
  let clock: @Sendable () -> Date
  /// The source of codes, tokens, nonces and credential salts.
  let random: any RandomSource
  /// Checks DPoP proofs; accepted `jti` values go to ``store``.
  let dpopVerifier: DPoPVerifier

  /// An issuer with `configuration`, keeping state in `store`.
  public init(
    configuration: IssuerConfiguration, store: any IssuerStateStore,
    clock: @escaping @Sendable () -> Date = { Date() },
    random: any RandomSource = SecureRandom()
  ) {
    self.configuration = configuration
    self.store = store
    self.endpoints = IssuerEndpoints(issuer: configuration.credentialIssuer)
    self.clock = clock
    self.random = random
    self.dpopVerifier = DPoPVerifier(replayStore: store, clock: clock)
  }

  // MARK: Metadata

  /// The credential issuer metadata (OpenID4VCI 1.0 §12.2.4) this configuration publishes.
  public var issuerMetadata: CredentialIssuerMetadata {
    var metadata = CredentialIssuerMetadata(
      credentialIssuer: configuration.credentialIssuer,
      credentialEndpoint: endpoints.url(.credential),
      nonceEndpoint: endpoints.url(.nonce),
      deferredCredentialEndpoint: configuration.deferred == nil
        ? nil : endpoints.url(.deferredCredential),
      notificationEndpoint: endpoints.url(.notification),
      credentialResponseEncryption: configuration.responseEncryption.map {
        CredentialResponseEncryptionMetadata(
          algorithms: [JWEAlgorithm.ecdhES.rawValue],
          encryptionMethods: JWEEncryption.allCases.map(\.rawValue),
          encryptionRequired: $0.required)
      },
      batchSize: configuration.batchSize, display: configuration.display,
      credentialConfigurations: configuration.credentials.map(metadata(for:)),
      mdocIACAsURI: configuration.iacas.isEmpty ? nil : endpoints.url(.iacas))
    metadata.authorizationServers = []
    metadata.registrationCertificates = configuration.registrationCertificate.map { [$0] } ?? []
    return metadata
  }

  /// One `credential_configurations_supported` entry (§12.2.4, Appendix A.2.2, A.3.2).
  func metadata(for credential: IssuableCredential) -> CredentialConfiguration {
    let keyAttestations =
      configuration.attestation.requireKeyAttestation ? KeyAttestationRequirement() : nil
    let proofTypes = [
      ProofTypeMetadata(
        name: "jwt", signingAlgorithms: [JWSAlgorithm.es256.rawValue],
        keyAttestationsRequired: keyAttestations)
    ]
    switch credential.content {
    case .mdoc:
      return CredentialConfiguration(
        id: credential.id, format: credential.format, scope: credential.scope,
        bindingMethods: ["cose_key"], signingAlgorithms: [.cose(-7)], proofTypes: proofTypes,
        display: credential.display, claims: credential.claims)
    case .sdJWT:
      return CredentialConfiguration(
        id: credential.id, format: credential.format, scope: credential.scope,
        bindingMethods: ["jwk"], signingAlgorithms: [.jose(JWSAlgorithm.es256.rawValue)],
        proofTypes: proofTypes, display: credential.display, claims: credential.claims)
    }
  }

  /// The authorization server metadata (RFC 8414 §2; OpenID4VCI 1.0 §12.3): the issuer is its
  /// own authorization server.
  package var authorizationServerMetadata: AuthorizationServerMetadata {
    AuthorizationServerMetadata(
      issuer: configuration.credentialIssuer,
      authorizationEndpoint: endpoints.url(.authorize), tokenEndpoint: endpoints.url(.token),
      pushedAuthorizationRequestEndpoint: endpoints.url(.pushedAuthorization),
      requirePushedAuthorizationRequests: configuration.requirePushedAuthorizationRequests,
      dpopSigningAlgorithms: configuration.requireDPoP ? [JWSAlgorithm.es256.rawValue] : [],
      codeChallengeMethods: [PKCE.method],
      grantTypes: [
        CredentialOffer.authorizationCodeGrantType, CredentialOffer.preAuthorizedCodeGrantType,
        "refresh_token",
      ],
      authorizationResponseIssParameterSupported: true,
      preAuthorizedGrantAnonymousAccessSupported: !configuration.attestation
        .requireClientAttestation,
      tokenEndpointAuthMethods: configuration.attestation.requireClientAttestation
        ? [ClientAttestation.authenticationMethod] : nil)
  }

  /// The authorization server metadata object, with `response_types_supported` (RFC 8414 §2:
  /// required).
  var authorizationServerMetadataJSON: JSONValue {
    authorizationServerMetadata.json.setting(
      "response_types_supported", to: .array([.string("code")]))
  }

  /// Signed metadata (§12.2.3): a JWT of type `openidvci-issuer-metadata+jwt` whose claims are
  /// the metadata parameters with `sub` (the issuer identifier) and `iat`, signed by the
  /// configured key with its chain in `x5c`.
  package func signedIssuerMetadata() throws(OpenID4VCIError) -> String {
    guard case .object(var claims) = issuerMetadata.json else {
      throw OpenID4VCIError(.invalidMetadata, "the metadata is not an object")
    }
    claims.append(("sub", .string(configuration.credentialIssuer.string)))
    claims.append(("iat", .integer(Int64(clock().timeIntervalSince1970.rounded(.down)))))
    var header: [(key: String, value: JSONValue)] = [
      ("typ", .string(SignedIssuerMetadata.type))
    ]
    if !configuration.certificateChain.isEmpty {
      header.append(("x5c", JWS.x5c(configuration.certificateChain.map(\.derBytes))))
    }
    do {
      return try JWS.sign(
        payload: JSONValue.object(claims).serializedBytes(), protectedHeader: .object(header),
        signer: configuration.signer)
    } catch {
      throw OpenID4VCIError(.signingFailed, "signing the metadata failed", underlying: error)
    }
  }

  /// GET `/.well-known/openid-credential-issuer`: the metadata as JSON, or signed as
  /// `application/jwt` when the issuer signs metadata and the client accepts only that
  /// (§12.2.2: "the Wallet MAY use the Accept header ... application/jwt").
  package func handleIssuerMetadata(_ request: HTTPRequest) -> HTTPResponse {
    if configuration.signsMetadata, Self.prefersJWT(request.headers["Accept"]) {
      guard let signed = try? signedIssuerMetadata() else {
        return IssuerEndpointFailure(
          "server_error", "the metadata could not be signed", status: 500
        )
        .response
      }
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/jwt"], body: Array(signed.utf8))
    }
    return Self.json(issuerMetadata.json)
  }

  /// GET `/.well-known/oauth-authorization-server` (RFC 8414 §3) or the OpenID Connect
  /// configuration URL.
  package func handleAuthorizationServerMetadata(_ request: HTTPRequest) -> HTTPResponse {
    Self.json(authorizationServerMetadataJSON)
  }

  /// GET `mdoc_iacas_uri`: `{"iacas": [{"certificate": "<base64 DER>"}]}` (this project's
  /// issuer contract, issue 13).
  package func handleIACAs(_ request: HTTPRequest) -> HTTPResponse {
    Self.json(
      .object([
        (
          "iacas",
          .array(
            configuration.iacas.map {
              .object([("certificate", .string(Base64.encode($0.derBytes)))])
            })
        )
      ]))
  }

  /// Whether an `Accept` header asks for `application/jwt` and not JSON.
  static func prefersJWT(_ accept: String?) -> Bool {
    guard let accept = accept?.lowercased() else { return false }
    let types = accept.split(separator: ",").map {
      $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }
    return types.contains("application/jwt") && !types.contains("application/json")
  }

  // MARK: Shared

  /// Deletes expired state (codes, tokens, nonces, DPoP `jti`s, transactions) from the store;
  /// ``IssuerHTTPHandler`` calls it now and then.
  package func purgeExpiredState() throws(IssuerStoreError) {
    try store.purgeExpired(now: now)
  }

  /// A JSON response (`Cache-Control: no-store`, RFC 6749 §5.1).
  static func json(_ value: JSONValue, status: Int = 200, headers: HTTPFields = [:])
    -> HTTPResponse
  {
    var fields = headers
    fields["Content-Type"] = "application/json"
    fields["Cache-Control"] = "no-store"
    return HTTPResponse(status: status, headers: fields, body: value.serializedBytes())
  }

  /// A fresh unguessable value: `bytes` random bytes, base64url.
  func randomToken(bytes: Int = 32) -> String { Base64URL.encode(random.bytes(count: bytes)) }

  /// The current time.
  var now: Date { clock() }
}
