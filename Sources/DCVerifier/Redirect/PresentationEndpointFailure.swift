package import DCHTTP
import DCJSON

/// Why a verifier endpoint of the redirect flows refused a request, as a value: the code names
/// the failed check, the reason says what was wrong (never key material). Its HTTP answer
/// (built inside the package) is an OAuth-style error object (RFC 6749 §5.2).
public struct PresentationEndpointFailure: Error, Sendable, Hashable {
  /// The check that failed.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// No transaction has this id or request id (or it was purged).
    case unknownTransaction = "unknown_transaction"
    /// The transaction expired.
    case expired
    /// The request object was already fetched: `request_uri` serves it once.
    case requestAlreadyFetched = "request_already_fetched"
    /// A response arrived before the request object was fetched.
    case requestNotFetched = "request_not_fetched"
    /// The transaction already has a response: one per transaction.
    case alreadyAnswered = "already_answered"
    /// The response's `state` is not the transaction's (OpenID4VP 1.0 §5.1, §8.2).
    case stateMismatch = "state_mismatch"
    /// The body is not a well-formed form or JSON of the expected members.
    case malformedBody = "malformed_body"
    /// The body is larger than the endpoint's cap.
    case bodyTooLarge = "body_too_large"
    /// The response does not have the transaction's response mode.
    case responseModeMismatch = "response_mode_mismatch"
    /// The `direct_post.jwt` response did not decrypt.
    case decryptionFailed = "decryption_failed"
    /// The wallet's metadata shares no content encryption with the verifier.
    case noCommonEncryption = "no_common_encryption"
    /// The transaction's options cannot be served (an unconfigured prefix, an invalid query).
    case invalidOptions = "invalid_options"
    /// The same-device result was asked without the right `response_code` (§8.2).
    case wrongResponseCode = "wrong_response_code"
    /// The transaction store is full.
    case storeFull = "store_full"
    /// The transaction store could not be reached (a database down, a row that does not read
    /// back): nothing was changed, the request may be retried.
    case storeUnavailable = "store_unavailable"
    /// The presentations failed verification.
    case verificationFailed = "verification_failed"
    /// No endpoint at this path, or not with this method.
    case notFound = "not_found"
    /// The method is not allowed at this endpoint.
    case methodNotAllowed = "method_not_allowed"
  }

  /// The failed check.
  public let code: Code
  /// What was wrong, for logs and the error description.
  public let reason: String

  /// A failure.
  package init(_ code: Code, _ reason: String) {
    self.code = code
    self.reason = reason
  }

  /// The HTTP status: 404 for unknown ids and paths, 403 for a wrong `response_code`, 405, 413
  /// for a body over the cap, 503 for a full store, 400 otherwise.
  public var status: Int {
    switch code {
    case .unknownTransaction, .notFound: 404
    case .wrongResponseCode: 403
    case .methodNotAllowed: 405
    case .bodyTooLarge: 413
    case .storeFull, .storeUnavailable: 503
    default: 400
    }
  }

  /// The OAuth `error` value (RFC 6749 §5.2, RFC 9101 §7 `invalid_request_uri`).
  public var error: String {
    switch code {
    case .unknownTransaction, .expired, .requestAlreadyFetched: "invalid_request_uri"
    case .wrongResponseCode: "access_denied"
    case .storeFull, .storeUnavailable: "temporarily_unavailable"
    case .notFound: "not_found"
    default: "invalid_request"
    }
  }

  /// `{"error", "error_description", "failure"}` as JSON with `Cache-Control: no-store`;
  /// `failure` is ``code``.
  package var response: HTTPResponse {
    let body = JSONValue.object([
      ("error", .string(error)), ("error_description", .string(reason)),
      ("failure", .string(code.rawValue)),
    ])
    return HTTPResponse(
      status: status, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
      body: body.serializedBytes())
  }
}
