import DCJOSE
public import DCJSON

/// An authorization error response: what the wallet returns to the verifier instead of a
/// `vp_token` (OpenID4VP 1.0 §8.5; over the DC API it is the fulfilled response, Appendix A.2).
public struct OpenID4VPErrorResponse: Sendable, Hashable {
  /// An `error` value (OpenID4VP 1.0 §8.5, RFC 6749 §4.1.2.1), open to new values.
  public struct ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The value on the wire.
    public let rawValue: String
    /// Wraps a value on the wire.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The value on the wire.
    public var description: String { rawValue }

    /// The request is missing a parameter, has an invalid value, or is otherwise malformed
    /// (RFC 6749 §4.1.2.1, OpenID4VP 1.0 §8.5).
    package static let invalidRequest = ErrorCode(rawValue: "invalid_request")
    /// The verifier could not be authenticated or its metadata is inconsistent (OpenID4VP 1.0 §8.5).
    package static let invalidClient = ErrorCode(rawValue: "invalid_client")
    /// The user declined or no credential satisfied the request (RFC 6749 §4.1.2.1,
    /// OpenID4VP 1.0 §8.5).
    public static let accessDenied = ErrorCode(rawValue: "access_denied")
    /// The wallet supports none of the verifier's formats (OpenID4VP 1.0 §8.5).
    package static let vpFormatsNotSupported = ErrorCode(rawValue: "vp_formats_not_supported")
    /// A `transaction_data` entry is malformed, of an unsupported type, or names Credential
    /// Queries that do not exist (OpenID4VP 1.0 §8.5).
    package static let invalidTransactionData = ErrorCode(rawValue: "invalid_transaction_data")
    /// The wallet failed unexpectedly (RFC 6749 §4.1.2.1 `server_error`).
    package static let serverError = ErrorCode(rawValue: "server_error")
  }

  /// `error` (OpenID4VP 1.0 §8.5).
  public let error: ErrorCode
  /// `error_description`, human-readable (RFC 6749 §4.1.2.1).
  public let errorDescription: String?

  /// Creates an error response.
  public init(error: ErrorCode, errorDescription: String? = nil) {
    self.error = error
    self.errorDescription = errorDescription
  }

  /// The user declined to present (OpenID4VP 1.0 §8.5 `access_denied`).
  public static func accessDenied(_ description: String? = nil) -> OpenID4VPErrorResponse {
    OpenID4VPErrorResponse(error: .accessDenied, errorDescription: description)
  }

  /// Reads `{"error": ..., "error_description": ...}` (OpenID4VP 1.0 §8.5); nil when `data`
  /// has no string `error`.
  public init?(data: JSONValue) {
    guard let error = data["error"]?.string else { return nil }
    self.error = ErrorCode(rawValue: error)
    errorDescription = data["error_description"]?.string
  }

  /// The response `data` for the DC API: `{"error": ..., "error_description"?: ...}`
  /// (OpenID4VP 1.0 Appendix A.2, §8.5).
  public var data: JSONValue {
    var members: [(key: String, value: JSONValue)] = [("error", .string(error.rawValue))]
    if let errorDescription { members.append(("error_description", .string(errorDescription))) }
    return .object(members)
  }
}
