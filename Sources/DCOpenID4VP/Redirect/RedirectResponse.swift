package import DCCrypto
import DCEncoding
package import DCHTTP
import DCJOSE
package import DCJSON
package import Foundation

/// A form to post to the verifier's `response_uri` (OpenID4VP 1.0 §8.2): the wallet sends
/// ``request`` and hands the verifier's answer to its own flow.
package struct ResponsePost: Sendable, Hashable {
  /// The media type of the body (OpenID4VP 1.0 §8.2).
  package static let formType = "application/x-www-form-urlencoded"
  /// `response_uri`.
  package let responseURI: URL
  /// The fields in the order sent.
  package let fields: [Field]
  /// One form field.
  package struct Field: Sendable, Hashable {
    /// The name.
    package let name: String
    /// The value, not encoded.
    package let value: String
  }

  init(responseURI: URL, fields: [(String, String)]) {
    self.responseURI = responseURI
    self.fields = fields.map { Field(name: $0.0, value: $0.1) }
  }

  /// The `application/x-www-form-urlencoded` body.
  package var body: String { FormEncoding.encode(fields.map { ($0.name, $0.value) }) }

  /// The POST to `response_uri`.
  package var request: HTTPRequest {
    HTTPRequest(
      method: .post, url: responseURI, headers: ["Content-Type": Self.formType],
      body: Array(body.utf8))
  }
}

/// The wallet's answer to a redirect-based request (OpenID4VP 1.0 §8.2, §8.3.1).
package struct RedirectAuthorizationResponse: Sendable, Hashable {
  /// `vp_token`: Credential Query id to an array of presentations (OpenID4VP 1.0 §8.1).
  package let vpToken: JSONValue
  /// How it is sent.
  package let responseMode: RedirectResponseMode
  /// What to post.
  package let post: ResponsePost
}

extension RedirectAuthorizationRequest {
  /// Builds the response: the presentations bound to this verifier, then the form to post
  /// (OpenID4VP 1.0 §8.1, §8.2, §8.3.1, Appendix B.2.6.1, B.3.6).
  ///
  /// SD-JWT Key Binding JWTs carry `aud` = the full `client_id` (``RedirectBinding``), the
  /// nonce, `iat` = `now` and the transaction data hashes; mdocs are device-signed over
  /// `[null, null, OpenID4VPHandover]` with the encryption key's thumbprint for
  /// `direct_post.jwt` and null for `direct_post`. `direct_post` posts `vp_token=<JSON>` and
  /// `state`; `direct_post.jwt` posts `response=<JWE>` whose plaintext is
  /// `{"vp_token": ..., "state": ...}` (ECDH-ES to the key from `client_metadata.jwks`).
  ///
  /// - Throws: `invalidRequest` for an unknown Credential Query id, a format the query did not
  ///   ask for, or several presentations where `multiple` is false; `presentationFailed`.
  package func respond(
    presentations: [String: [CredentialPresentation]], now: Date,
    random: any RandomSource = SecureRandom()
  ) throws(OpenID4VPError) -> RedirectAuthorizationResponse {
    let vpToken = try AuthorizationRequest.vpToken(
      dcqlQuery: dcqlQuery, transactionData: transactionData, presentations: presentations,
      keyBindingAudience: RedirectBinding.keyBindingAudience(clientID: clientID), nonce: nonce,
      now: now
    ) { [clientID, nonce, responseEncryption, responseURIText] in
      RedirectBinding.sessionTranscript(
        clientID: clientID, nonce: nonce, jwkThumbprint: responseEncryption?.jwkThumbprint,
        responseURI: responseURIText)
    }
    var members: [(key: String, value: JSONValue)] = [("vp_token", vpToken)]
    if let state { members.append(("state", .string(state))) }
    let post = try makePost(members, random: random)
    return RedirectAuthorizationResponse(vpToken: vpToken, responseMode: responseMode, post: post)
  }

  /// The error response to post when the user declines or the request cannot be answered
  /// (OpenID4VP 1.0 §8.5): `error`, `error_description` and `state`, encrypted like a response
  /// for `direct_post.jwt` (JARM §2.3.1: error responses of the `.jwt` modes are JWTs too).
  ///
  /// - Throws: `presentationFailed` when encryption fails.
  package func errorResponse(
    _ error: OpenID4VPErrorResponse, random: any RandomSource = SecureRandom()
  ) throws(OpenID4VPError) -> ResponsePost {
    var members = error.data.object ?? []
    if let state { members.append(("state", .string(state))) }
    return try makePost(members, random: random)
  }

  /// The `response_uri` and `state` of a request that failed its checks, read without trust
  /// from the URI or request object, to post an error response to (OpenID4VP 1.0 §8.5); nil
  /// when there is no usable `response_uri` (not `https` or loopback `http`). The verifier is
  /// not authenticated: post only an error, never credentials.
  package static func errorDestination(uri: AuthorizationRequestURI, requestObject: String?)
    -> (responseURI: URL, state: String?)?
  {
    let parameters: JSONValue?
    switch uri.form {
    case .parameters(let values): parameters = values
    case .requestObject(let text): parameters = unverifiedPayload(text)
    case .byReference: parameters = requestObject.flatMap(unverifiedPayload)
    }
    // §5.9.3: a redirect_uri client identifier is its own response URI when none is sent.
    let derived = uri.clientID.prefix == .redirectURI ? uri.clientID.value : nil
    guard let text = parameters?["response_uri"]?.string ?? derived,
      let url = try? AuthorizationRequestURI.checkedURL(text, name: "response_uri")
    else { return nil }
    return (url, parameters?["state"]?.string)
  }

  /// A plain error form for ``errorDestination(uri:requestObject:)`` (OpenID4VP 1.0 §8.5).
  package static func errorPost(
    _ error: OpenID4VPErrorResponse, responseURI: URL, state: String?
  ) -> ResponsePost {
    var fields = (error.data.object ?? []).compactMap { member in
      member.value.string.map { (member.key, $0) }
    }
    if let state { fields.append(("state", state)) }
    return ResponsePost(responseURI: responseURI, fields: fields)
  }

  /// The payload of a compact JWT read without any check, signed or unsecured (`alg` `none`,
  /// as `redirect_uri` requests by reference are).
  static func unverifiedPayload(_ text: String) -> JSONValue? {
    guard text.utf8.count <= maximumRequestObjectLength else { return nil }
    let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
      separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let payload = try? Base64URL.decode(String(parts[1])) else {
      return nil
    }
    return try? JSONValue(parsing: payload)
  }

  func makePost(_ members: [(key: String, value: JSONValue)], random: any RandomSource)
    throws(OpenID4VPError) -> ResponsePost
  {
    guard let encryption = responseEncryption else {
      // §8.2: each member a form field; JSON values (vp_token) as JSON text.
      let fields = members.map { member in
        (member.key, member.value.string ?? member.value.serialized())
      }
      return ResponsePost(responseURI: responseURI, fields: fields)
    }
    // §8.3.1: the whole response, as a JSON object, is the JWE plaintext, posted as `response`.
    let jwe: String
    do {
      jwe = try JWE.encrypt(
        plaintext: JSONValue.object(members).serializedBytes(), recipient: encryption.publicKey,
        enc: encryption.enc, kid: encryption.key.kid, random: random)
    } catch {
      throw OpenID4VPError(
        .presentationFailed, "response encryption: \(error.reason)", underlying: error)
    }
    return ResponsePost(responseURI: responseURI, fields: [("response", jwe)])
  }
}

/// A body posted to a verifier's `response_uri`, read (OpenID4VP 1.0 §8.2, §8.3.1, §8.5): what
/// a verifier's response endpoint parses before it checks anything.
package enum DirectPostBody: Sendable, Hashable {
  /// `direct_post`: `vp_token` (a JSON object) and `state`.
  case vpToken(JSONValue, state: String?)
  /// `direct_post.jwt`: the JWE in `response`, to decrypt and read with
  /// ``init(decryptedPayload:)``.
  case encrypted(String)
  /// An error response and its `state`.
  case error(OpenID4VPErrorResponse, state: String?)

  /// The longest body read (docs/LIMITS.md).
  package static let maximumLength = 4 * 1024 * 1024
  /// The most form fields read.
  package static let maximumFields = 16

  /// Reads an `application/x-www-form-urlencoded` body.
  ///
  /// - Throws: `invalidResponse` for an oversized or undecodable body, a repeated field, a
  ///   body with none or several of `vp_token`, `response` and `error`, a `vp_token` that is
  ///   not a JSON object, or an empty `response`.
  package init(formBody: [UInt8]) throws(OpenID4VPError) {
    guard formBody.count <= Self.maximumLength else {
      throw OpenID4VPError(.invalidResponse, "the body is longer than \(Self.maximumLength) bytes")
    }
    guard let text = String(validating: formBody, as: UTF8.self) else {
      throw OpenID4VPError(.invalidResponse, "the body is not UTF-8")
    }
    let fields: [(name: String, value: String)]
    do {
      fields = try FormEncoding.decode(Substring(text), maximumFields: Self.maximumFields)
    } catch {
      throw OpenID4VPError(.invalidResponse, "the form body: \(error)")
    }
    var members: [(key: String, value: JSONValue)] = []
    for (name, value) in fields {
      if name == "vp_token" {
        do {
          members.append((name, try JSONValue(parsing: value)))
        } catch {
          throw OpenID4VPError(
            .invalidResponse, "vp_token is not JSON: \(error.reason)", underlying: error)
        }
      } else {
        members.append((name, .string(value)))
      }
    }
    let object = JSONValue.object(members)
    let kinds = ["vp_token", "response", "error"].filter { object[$0] != nil }
    guard kinds.count == 1 else {
      throw OpenID4VPError(
        .invalidResponse,
        kinds.isEmpty
          ? "the body has none of vp_token, response and error"
          : "the body has several of \(kinds)")
    }
    if let response = object["response"]?.string {
      guard !response.isEmpty else {
        throw OpenID4VPError(.invalidResponse, "response is empty")
      }
      self = .encrypted(response)
      return
    }
    try self.init(decryptedPayload: object)
  }

  /// Reads the plaintext of a `direct_post.jwt` JWE, or the fields of a plain body:
  /// `{"vp_token": {...}, "state": ...}` or `{"error": ..., "error_description": ..., "state": ...}`
  /// (OpenID4VP 1.0 §8.3.1, §8.5).
  ///
  /// - Throws: `invalidResponse` when it is neither, `state` is not a string, or `vp_token` is
  ///   not a JSON object.
  package init(decryptedPayload payload: JSONValue) throws(OpenID4VPError) {
    var state: String? = nil
    if let value = payload["state"] {
      guard let text = value.string else {
        throw OpenID4VPError(.invalidResponse, "state must be a string")
      }
      state = text
    }
    if let error = OpenID4VPErrorResponse(data: payload) {
      guard payload["vp_token"] == nil else {
        throw OpenID4VPError(.invalidResponse, "a response has vp_token or error, not both")
      }
      self = .error(error, state: state)
      return
    }
    guard let token = payload["vp_token"] else {
      throw OpenID4VPError(.invalidResponse, "the response has no vp_token and no error")
    }
    guard case .object = token else {
      throw OpenID4VPError(.invalidResponse, "vp_token must be a JSON object (§8.1)")
    }
    self = .vpToken(token, state: state)
  }

  /// `state`, nil for ``encrypted(_:)`` (inside the JWE) or when absent.
  package var state: String? {
    switch self {
    case .vpToken(_, let state), .error(_, let state): state
    case .encrypted: nil
    }
  }
}
