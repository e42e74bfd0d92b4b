package import DCCrypto
import DCEncoding
package import DCHTTP
package import DCJSON
package import Foundation

/// An OpenID4VP Authorization Request as a link or QR code outside the DC API: `openid4vp://`,
/// `haip-vp://`, `eudi-openid4vp://`, `eu-eaap://`, or an `https` universal link with the same
/// query (OpenID4VP 1.0 §5, §5.10, HAIP 1.0 §5, ETSI TS 119 472-2 §6.4.1). Reading it does no
/// I/O.
package struct AuthorizationRequestURI: Sendable, Hashable {
  /// How `request_uri` is fetched (OpenID4VP 1.0 §5.10).
  package enum RequestURIMethod: String, Sendable, Hashable, CaseIterable {
    /// A plain GET (the default).
    case get
    /// A POST with `wallet_metadata` and `wallet_nonce` (OpenID4VP 1.0 §5.10.1).
    case post
  }

  /// Where the request parameters are.
  package enum Form: Sendable, Hashable {
    /// `request_uri`: the request object is fetched from this URL (RFC 9101 §5.2, OpenID4VP 1.0
    /// §5.10).
    case byReference(requestURI: URL, method: RequestURIMethod)
    /// `request`: a request object (a JWT) by value (RFC 9101 §5.1).
    case requestObject(String)
    /// The parameters in the query itself (an unsigned request, OpenID4VP 1.0 §5.1): a JSON
    /// object whose JSON-valued parameters (`dcql_query`, `client_metadata`, ...) are parsed.
    case parameters(JSONValue)
  }

  /// The URI schemes of wallets (OpenID4VP 1.0 §13.1.2, HAIP 1.0 §5, the EUDI wallet's, and
  /// ETSI TS 119 472-2 §6.4.1's `eu-eaap` for EAA presentation), plus `https` for universal or
  /// app links.
  package static let schemes: Set<String> = [
    "openid4vp", "haip-vp", "eudi-openid4vp", "eu-eaap", "https",
  ]
  /// The longest URI read: a QR code holds at most 7,089 characters, a by-value request with a
  /// large query a few more (docs/LIMITS.md).
  package static let maximumLength = 65_536
  /// The most query parameters read.
  package static let maximumParameters = 64
  /// The parameters whose value is JSON text in a by-value request (OpenID4VP 1.0 §5.1).
  package static let jsonParameters: Set<String> = [
    "dcql_query", "client_metadata", "transaction_data", "verifier_info",
  ]

  /// The URI as given.
  package let text: String
  /// The scheme, lowercased.
  package let scheme: String
  /// `client_id`, as sent (OpenID4VP 1.0 §5.9: required in every request URI).
  package let clientID: ClientIdentifier
  /// Where the parameters are.
  package let form: Form

  /// Reads a request URI.
  ///
  /// - Throws: `malformed` for an oversized URI, a scheme not in ``schemes``, bad
  ///   percent-encoding, a repeated parameter or a JSON parameter that is not JSON;
  ///   `invalidRequest` for a missing `client_id`, both `request` and `request_uri`, an unknown
  ///   `request_uri_method` (or one without `request_uri`), or a `request_uri` that is neither
  ///   `https` nor loopback `http`.
  package init(_ text: String) throws(OpenID4VPError) {
    guard text.utf8.count <= Self.maximumLength else {
      throw OpenID4VPError(
        .malformed, "the request URI is longer than \(Self.maximumLength) bytes")
    }
    guard let colon = text.firstIndex(of: ":") else {
      throw OpenID4VPError(.malformed, "the request URI has no scheme")
    }
    let scheme = text[..<colon].lowercased()
    guard Self.schemes.contains(scheme) else {
      throw OpenID4VPError(
        .malformed,
        "the request URI scheme \(scheme.prefix(40)) is not one of \(Self.schemes.sorted())")
    }
    var rest = text[text.index(after: colon)...]
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    let query = rest.firstIndex(of: "?").map { rest[rest.index(after: $0)...] } ?? ""
    let fields: [(name: String, value: String)]
    do {
      fields = try FormEncoding.decode(query, maximumFields: Self.maximumParameters)
    } catch {
      throw OpenID4VPError(.malformed, "the request URI query: \(error)")
    }
    let values = Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    // OpenID4VP 1.0 §5.9 / RFC 9101 §5: client_id is present in every form.
    guard let clientID = values["client_id"], !clientID.isEmpty else {
      throw OpenID4VPError(.invalidRequest, "the request URI has no client_id")
    }
    self.text = text
    self.scheme = scheme
    self.clientID = ClientIdentifier(clientID)
    form = try Self.readForm(values, fields: fields)
  }

  /// Which form the request takes: `request_uri` (with its method), `request`, or the
  /// parameters themselves, the JSON-valued ones parsed.
  private static func readForm(_ values: [String: String], fields: [(name: String, value: String)])
    throws(OpenID4VPError) -> Form
  {
    if values["request"] != nil && values["request_uri"] != nil {
      throw OpenID4VPError(
        .invalidRequest, "a request URI carries request or request_uri, not both (RFC 9101 §5)")
    }
    // §5.10: request_uri_method only accompanies request_uri.
    if let method = values["request_uri_method"], values["request_uri"] == nil {
      throw OpenID4VPError(
        .invalidRequest, "request_uri_method \(method.prefix(20)) without request_uri")
    }
    if let requestURI = values["request_uri"] {
      let methodText = values["request_uri_method"] ?? "get"
      guard let method = RequestURIMethod(rawValue: methodText) else {
        throw OpenID4VPError(
          .invalidRequest, "request_uri_method must be get or post, got \(methodText.prefix(20))")
      }
      return .byReference(
        requestURI: try checkedURL(requestURI, name: "request_uri"), method: method)
    } else if let request = values["request"] {
      return .requestObject(request)
    } else {
      var members: [(key: String, value: JSONValue)] = []
      for (name, value) in fields {
        guard jsonParameters.contains(name) else {
          members.append((name, .string(value)))
          continue
        }
        do {
          members.append((name, try JSONValue(parsing: value)))
        } catch {
          throw OpenID4VPError(
            .malformed, "\(name) in the request URI is not JSON: \(error.reason)",
            underlying: error)
        }
      }
      return .parameters(.object(members))
    }
  }

  /// A URL the wallet may fetch from or post to: `https`, or `http` to a loopback host
  /// (issue 16 contract, `HTTPURLPolicy.development`).
  ///
  /// - Throws: `invalidRequest` naming the parameter.
  package static func checkedURL(_ text: String, name: String) throws(OpenID4VPError) -> URL {
    guard let url = URL(string: text) else {
      throw OpenID4VPError(.invalidRequest, "\(name) is not a URL")
    }
    do {
      try HTTPURLPolicy.development.check(url)
    } catch {
      throw OpenID4VPError(.invalidRequest, "\(name): \(error.reason)", underlying: error)
    }
    return url
  }

  /// The HTTP request that fetches the request object, for a ``Form/byReference(requestURI:method:)``
  /// URI; nil for the other forms (OpenID4VP 1.0 §5.10, RFC 9101 §5.2.3).
  ///
  /// GET asks with `Accept: application/oauth-authz-req+jwt`; POST also sends the form
  /// `wallet_metadata=<JSON>&wallet_nonce=<nonce>` (§5.10.1). Keep `RequestObjectFetch.walletNonce`
  /// and hand it to `RedirectAuthorizationRequest` with the fetched object.
  ///
  /// - Parameters:
  ///   - walletMetadata: what the wallet supports, sent with POST.
  ///   - random: the source of the fresh `wallet_nonce` (128 bits, base64url).
  package func requestObjectFetch(
    walletMetadata: WalletMetadata = .standard, random: any RandomSource = SecureRandom()
  ) -> RequestObjectFetch? {
    guard case .byReference(let url, let method) = form else { return nil }
    var headers: HTTPFields = ["Accept": RequestObjectFetch.acceptedType]
    switch method {
    case .get:
      return RequestObjectFetch(
        request: HTTPRequest(method: .get, url: url, headers: headers), walletNonce: nil)
    case .post:
      let nonce = Base64URL.encode(random.bytes(count: 16))
      headers["Content-Type"] = RequestObjectFetch.formType
      let body = FormEncoding.encode([
        ("wallet_metadata", walletMetadata.json.serialized()), ("wallet_nonce", nonce),
      ])
      return RequestObjectFetch(
        request: HTTPRequest(method: .post, url: url, headers: headers, body: Array(body.utf8)),
        walletNonce: nonce)
    }
  }
}

/// The fetch of a request object from `request_uri`, as a value (OpenID4VP 1.0 §5.10).
package struct RequestObjectFetch: Sendable, Hashable {
  /// The media type of a request object (RFC 9101 §10.8), the `Accept` of the fetch.
  package static let acceptedType = "application/oauth-authz-req+jwt"
  /// The media type of a POST body (OpenID4VP 1.0 §5.10.1).
  package static let formType = "application/x-www-form-urlencoded"
  /// The longest request object read (docs/LIMITS.md); the HTTP layer should stop reading there.
  package static let maximumResponseLength = 512 * 1024
  /// The request to send.
  package let request: HTTPRequest
  /// The `wallet_nonce` sent with POST, which the request object must echo; nil for GET.
  package let walletNonce: String?
}

/// The wallet's metadata, sent with a `request_uri` POST (OpenID4VP 1.0 §5.10.1, §10,
/// RFC 8414-style names as deployed by the EUDI verifier).
public struct WalletMetadata: Sendable, Hashable {
  /// `vp_formats_supported` (OpenID4VP 1.0 §10, Appendix B).
  package var vpFormatsSupported: JSONValue
  /// `client_id_prefixes_supported` (OpenID4VP 1.0 §10).
  package var clientIDPrefixesSupported: [ClientIdentifier.Prefix]
  /// `request_object_signing_alg_values_supported` (RFC 8414 §2).
  package var requestObjectSigningAlgValuesSupported: [String]
  /// `response_modes_supported` (RFC 8414 §2).
  package var responseModesSupported: [RedirectResponseMode]
  /// `authorization_encryption_alg_values_supported` (JARM §4, as the EUDI verifier reads it).
  package var encryptionAlgValuesSupported: [String]
  /// `authorization_encryption_enc_values_supported`.
  package var encryptionEncValuesSupported: [String]

  /// Creates metadata.
  package init(
    vpFormatsSupported: JSONValue, clientIDPrefixesSupported: [ClientIdentifier.Prefix],
    requestObjectSigningAlgValuesSupported: [String],
    responseModesSupported: [RedirectResponseMode], encryptionAlgValuesSupported: [String],
    encryptionEncValuesSupported: [String]
  ) {
    self.vpFormatsSupported = vpFormatsSupported
    self.clientIDPrefixesSupported = clientIDPrefixesSupported
    self.requestObjectSigningAlgValuesSupported = requestObjectSigningAlgValuesSupported
    self.responseModesSupported = responseModesSupported
    self.encryptionAlgValuesSupported = encryptionAlgValuesSupported
    self.encryptionEncValuesSupported = encryptionEncValuesSupported
  }

  /// What this module supports: SD-JWT VC and mdoc with ES256, the four prefixes of
  /// `RedirectAuthorizationRequest`, both response modes, ECDH-ES with A128GCM / A256GCM.
  public static let standard = WalletMetadata(
    vpFormatsSupported: .object([
      (
        "dc+sd-jwt",
        .object([("sd-jwt_alg_values", ["ES256"]), ("kb-jwt_alg_values", ["ES256"])])
      ),
      (
        "mso_mdoc",
        .object([("issuerauth_alg_values", [-7]), ("deviceauth_alg_values", [-7])])
      ),
    ]),
    clientIDPrefixesSupported: [.x509SANDNS, .x509Hash, .redirectURI, .verifierAttestation],
    requestObjectSigningAlgValuesSupported: ["ES256"],
    responseModesSupported: [.directPost, .directPostJWT],
    encryptionAlgValuesSupported: ["ECDH-ES"], encryptionEncValuesSupported: ["A128GCM", "A256GCM"])

  /// The JSON object sent as `wallet_metadata`.
  package var json: JSONValue {
    .object([
      ("response_types_supported", ["vp_token"]),
      ("response_modes_supported", .array(responseModesSupported.map { .string($0.rawValue) })),
      ("vp_formats_supported", vpFormatsSupported),
      (
        "client_id_prefixes_supported",
        .array(clientIDPrefixesSupported.map { .string($0.rawValue) })
      ),
      (
        "request_object_signing_alg_values_supported",
        .array(requestObjectSigningAlgValuesSupported.map(JSONValue.string))
      ),
      (
        "authorization_encryption_alg_values_supported",
        .array(encryptionAlgValuesSupported.map(JSONValue.string))
      ),
      (
        "authorization_encryption_enc_values_supported",
        .array(encryptionEncValuesSupported.map(JSONValue.string))
      ),
    ])
  }
}
