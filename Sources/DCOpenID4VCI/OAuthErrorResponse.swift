package import DCJSON
import Foundation

/// An OAuth error code (RFC 6749 §4.1.2.1, §5.2; RFC 6750 §3.1; RFC 9449 §7.1, §8;
/// OpenID4VCI 1.0 §6.3, §8.3.1.2, §9.3, §11.3; attestation-based client auth §7.4). A value,
/// so that codes this package does not name round-trip.
public struct OAuthErrorCode: Hashable, Sendable, CustomStringConvertible {
  /// The code as on the wire.
  public let rawValue: String
  /// A code from its wire value; any string, so that codes not named here round-trip.
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public var description: String { rawValue }

  // RFC 6749
  package static let invalidRequest = OAuthErrorCode("invalid_request")
  package static let invalidClient = OAuthErrorCode("invalid_client")
  package static let invalidGrant = OAuthErrorCode("invalid_grant")
  package static let unauthorizedClient = OAuthErrorCode("unauthorized_client")
  package static let unsupportedGrantType = OAuthErrorCode("unsupported_grant_type")
  package static let invalidScope = OAuthErrorCode("invalid_scope")
  /// `access_denied` (RFC 6749 §4.1.2.1): the user or the authorization server refused the
  /// request.
  public static let accessDenied = OAuthErrorCode("access_denied")
  package static let unsupportedResponseType = OAuthErrorCode("unsupported_response_type")
  package static let serverError = OAuthErrorCode("server_error")
  package static let temporarilyUnavailable = OAuthErrorCode("temporarily_unavailable")
  // RFC 6750 §3.1
  package static let invalidToken = OAuthErrorCode("invalid_token")
  package static let insufficientScope = OAuthErrorCode("insufficient_scope")
  // RFC 9396 §5
  package static let invalidAuthorizationDetails = OAuthErrorCode("invalid_authorization_details")
  // RFC 9449 §7.1, §8
  package static let invalidDPoPProof = OAuthErrorCode("invalid_dpop_proof")
  /// `use_dpop_nonce` (RFC 9449 §8, §9): retry with the nonce of the response's `DPoP-Nonce`
  /// header.
  public static let useDPoPNonce = OAuthErrorCode("use_dpop_nonce")
  // OpenID4VCI 1.0 §8.3.1.2, §9.3, §11.3
  package static let invalidCredentialRequest = OAuthErrorCode("invalid_credential_request")
  package static let unknownCredentialConfiguration = OAuthErrorCode(
    "unknown_credential_configuration")
  package static let unknownCredentialIdentifier = OAuthErrorCode("unknown_credential_identifier")
  package static let invalidProof = OAuthErrorCode("invalid_proof")
  package static let invalidNonce = OAuthErrorCode("invalid_nonce")
  package static let invalidEncryptionParameters = OAuthErrorCode("invalid_encryption_parameters")
  package static let credentialRequestDenied = OAuthErrorCode("credential_request_denied")
  package static let invalidTransactionID = OAuthErrorCode("invalid_transaction_id")
  package static let invalidNotificationID = OAuthErrorCode("invalid_notification_id")
  package static let invalidNotificationRequest = OAuthErrorCode("invalid_notification_request")
  // draft-ietf-oauth-attestation-based-client-auth §7.4
  package static let useAttestationChallenge = OAuthErrorCode("use_attestation_challenge")
  package static let useFreshAttestation = OAuthErrorCode("use_fresh_attestation")
  package static let invalidClientAttestation = OAuthErrorCode("invalid_client_attestation")
}

/// An OAuth error response: the JSON body of a token, PAR, credential, deferred or notification
/// error (RFC 6749 §5.2; OpenID4VCI 1.0 §8.3.1), the query of an authorization error redirect
/// (RFC 6749 §4.1.2.1), or the `WWW-Authenticate` challenge of a protected resource
/// (RFC 6750 §3, RFC 9449 §7.1). Also an `Error`, so that it can travel as the underlying error
/// of ``OpenID4VCIErrorCode/errorResponse``.
public struct OAuthErrorResponse: Error, Sendable, Hashable, CustomStringConvertible {
  /// `error`.
  public var error: OAuthErrorCode
  /// `error_description`: ASCII `%x20-21 / %x23-5B / %x5D-7E` (RFC 6749 §5.2).
  public var errorDescription: String?
  /// `error_uri`.
  package var errorURI: String?
  /// The `DPoP-Nonce` header that came with the response (RFC 9449 §8.1, §9), if any.
  package var dpopNonce: String?
  /// The HTTP status, when known.
  package var status: Int?

  /// An error response.
  ///
  /// - Parameters:
  ///   - error: `error`, the code.
  ///   - errorDescription: `error_description`, ASCII `%x20-21 / %x23-5B / %x5D-7E`.
  ///   - errorURI: `error_uri`, a page about the error.
  ///   - dpopNonce: the `DPoP-Nonce` header to send with it (RFC 9449 §8.1, §9).
  ///   - status: the HTTP status, when known.
  package init(
    error: OAuthErrorCode, errorDescription: String? = nil, errorURI: String? = nil,
    dpopNonce: String? = nil, status: Int? = nil
  ) {
    self.error = error
    self.errorDescription = errorDescription
    self.errorURI = errorURI
    self.dpopNonce = dpopNonce
    self.status = status
  }

  public var description: String {
    errorDescription.map { "\(error.rawValue): \($0)" } ?? error.rawValue
  }

  /// Whether the server asks for a retry with its `DPoP-Nonce` (RFC 9449 §8, §9).
  package var isUseDPoPNonce: Bool { error == .useDPoPNonce && dpopNonce != nil }

  /// The JSON body (RFC 6749 §5.2).
  package var json: JSONValue {
    var object = ObjectBuilder()
    object.set("error", error.rawValue)
    object.set("error_description", errorDescription)
    object.set("error_uri", errorURI)
    return object.value
  }

  /// The error parameters for an authorization error redirect (RFC 6749 §4.1.2.1); `state` and
  /// `iss` (RFC 9207 §2) are added by the caller.
  package var parameters: FormParameters {
    FormParameters([
      ("error", error.rawValue), ("error_description", errorDescription),
      ("error_uri", errorURI),
    ])
  }

  /// The `WWW-Authenticate` value of a protected resource's error (RFC 6750 §3, RFC 9449 §7.1):
  /// `scheme error="...", error_description="..."`.
  package func wwwAuthenticate(scheme: String) -> String {
    var value = "\(scheme) error=\"\(error.rawValue)\""
    if let errorDescription { value += ", error_description=\"\(errorDescription)\"" }
    return value
  }

  /// Checks the `error` and `error_description` character sets (RFC 6749 §5.2:
  /// `%x20-21 / %x23-5B / %x5D-7E`, no quote or backslash).
  static func checkCharacters(_ text: String, _ name: String) throws(OpenID4VCIError) {
    for byte in text.utf8 where !(0x20...0x7E).contains(byte) || byte == 0x22 || byte == 0x5C {
      throw OpenID4VCIError(.invalidErrorResponse, "\(name) has a character outside RFC 6749 §5.2")
    }
  }

  /// Reads a JSON error body (RFC 6749 §5.2).
  package init(jsonBytes: some Collection<UInt8>, dpopNonce: String? = nil, status: Int? = nil)
    throws(OpenID4VCIError)
  {
    let json: JSONValue
    do {
      json = try parseJSON(jsonBytes, "the error response", maximumLength: messageMaximumLength)
    } catch {
      throw OpenID4VCIError(.invalidErrorResponse, error.reason, underlying: error)
    }
    let fields = try Fields(json, "error response", .invalidErrorResponse)
    try self.init(
      error: fields.nonEmptyString("error"),
      description: fields.optionalString("error_description"),
      uri: fields.optionalString("error_uri"), dpopNonce: dpopNonce, status: status)
  }

  /// Reads the error parameters of an authorization error redirect (RFC 6749 §4.1.2.1); nil
  /// when the parameters carry no `error`.
  package init?(parameters: FormParameters) throws(OpenID4VCIError) {
    guard let error = parameters.optional("error") else { return nil }
    try self.init(
      error: error, description: parameters.optional("error_description"),
      uri: parameters.optional("error_uri"), dpopNonce: nil, status: nil)
  }

  private init(
    error: String, description: String?, uri: String?, dpopNonce: String?, status: Int?
  ) throws(OpenID4VCIError) {
    try Self.checkCharacters(error, "error")
    if let description { try Self.checkCharacters(description, "error_description") }
    self.init(
      error: OAuthErrorCode(error), errorDescription: description, errorURI: uri,
      dpopNonce: dpopNonce, status: status)
  }

  /// Reads a `WWW-Authenticate` challenge (RFC 9110 §11.6.1, RFC 6750 §3): the first challenge
  /// of scheme `DPoP` or `Bearer` that carries an `error` parameter; nil when there is none.
  package init?(wwwAuthenticate value: String, dpopNonce: String? = nil, status: Int? = nil)
    throws(OpenID4VCIError)
  {
    guard let parameters = try Self.challengeParameters(value), let error = parameters["error"]
    else { return nil }
    try self.init(
      error: error, description: parameters["error_description"], uri: parameters["error_uri"],
      dpopNonce: dpopNonce, status: status)
  }

  /// The auth-params of the first challenge (RFC 9110 §11.2: `auth-scheme [ 1*SP ( token68 /
  /// #auth-param ) ]`, `auth-param = token BWS "=" BWS ( token / quoted-string )`), bounded.
  static func challengeParameters(_ value: String) throws(OpenID4VCIError) -> [String: String]? {
    let bytes = Array(value.utf8)
    guard bytes.count <= 4096 else {
      throw OpenID4VCIError(.invalidErrorResponse, "WWW-Authenticate is longer than 4096 bytes")
    }
    var index = 0
    func skipSpace() {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }
    func token() -> String {
      let start = index
      while index < bytes.count, isTokenCharacter(bytes[index]) { index += 1 }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }
    skipSpace()
    let scheme = token()
    guard !scheme.isEmpty else { return nil }
    var result: [String: String] = [:]
    while true {
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard index < bytes.count else { break }
      let name = token().lowercased()
      skipSpace()
      // A token with no "=" starts the next challenge (or is a token68): stop at the first.
      guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else { break }
      index += 1
      skipSpace()
      var parameterValue: [UInt8] = []
      if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
        index += 1
        parameterValue = try quotedString(bytes, at: &index)
      } else {
        let start = index
        while index < bytes.count, isTokenCharacter(bytes[index]) { index += 1 }
        parameterValue = Array(bytes[start..<index])
      }
      guard result[name] == nil else {
        throw OpenID4VCIError(.invalidErrorResponse, "WWW-Authenticate repeats \(name)")
      }
      result[name] = String(decoding: parameterValue, as: UTF8.self)
    }
    return result
  }

  /// The content of a quoted-string (RFC 9110 §5.6.4) whose opening quote is just before
  /// `index`, unescaped; `index` ends after the closing quote.
  private static func quotedString(_ bytes: [UInt8], at index: inout Int) throws(OpenID4VCIError)
    -> [UInt8]
  {
    var value: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "\"") {
        return value
      }
      if byte == UInt8(ascii: "\\") {
        guard index < bytes.count else { break }
        value.append(bytes[index])
        index += 1
      } else {
        value.append(byte)
      }
    }
    throw OpenID4VCIError(.invalidErrorResponse, "WWW-Authenticate has an open quote")
  }

  /// RFC 9110 §5.6.2 `tchar`.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }
}
