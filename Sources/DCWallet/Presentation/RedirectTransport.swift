import DCHTTP
import DCJSON
import DCOpenID4VP
public import Foundation

/// What the verifier answered to a response the wallet posted to its `response_uri`
/// (OpenID4VP 1.0 §8.2): it accepted it, and may have handed back a `redirect_uri` for the
/// holder's user agent.
///
/// The wallet never opens or follows ``redirectURI``: a wallet app opens it in the browser the
/// request came from (same-device flow), the CLI prints it; a cross-device verifier sends none.
public struct RedirectResponseOutcome: Sendable, Hashable {
  /// The `redirect_uri` of the verifier's JSON answer, checked against the URL policy (https,
  /// or plain http to a loopback host when the policy allows it); nil when it sent none.
  public let redirectURI: URL?
  /// What the wallet posted: a presentation, or an error response such as `access_denied`.
  package let posted: Posted

  /// What the wallet posted to the `response_uri`.
  package enum Posted: Sendable, Hashable {
    /// A `vp_token` (`direct_post`) or its encryption (`direct_post.jwt`).
    case presentation
    /// An error response (OpenID4VP 1.0 §8.5), by its `error` code.
    case error(String)
  }

  /// Creates an outcome.
  package init(redirectURI: URL?, posted: Posted) {
    self.redirectURI = redirectURI
    self.posted = posted
  }
}

/// The HTTP exchanges of the redirect flow, over any ``HTTPClient``: fetching the request object
/// at `request_uri` and posting to `response_uri`. Each URL is checked against the policy first,
/// whatever the client's own policy is.
struct RedirectTransport: Sendable {
  let client: any HTTPClient
  let urlPolicy: HTTPURLPolicy

  /// The media type of a request object (RFC 9101 §10.2, OpenID4VP 1.0 §5.10).
  static let requestObjectMediaType = RequestObjectFetch.acceptedType
  /// The largest request object read (docs/LIMITS.md).
  static let maximumRequestObjectBytes = RequestObjectFetch.maximumResponseLength
  /// The largest verifier answer to a posted response read.
  static let maximumAnswerBytes = 64 * 1024

  /// Fetches the request object at `request_uri` (OpenID4VP 1.0 §5.10) with the request the
  /// OpenID4VP module made: a GET, or with `request_uri_method=post` a form POST of
  /// `wallet_metadata` and `wallet_nonce` (§5.10.1). The answer must be 200 with the media type
  /// `application/oauth-authz-req+jwt` (RFC 9101 §5.2.3, §10.2), within the size limit.
  ///
  /// - Throws: `transport` when the URL is not allowed, the verifier cannot be reached or
  ///   answers with another status, media type or an oversized body.
  func fetchRequestObject(_ fetch: HTTPRequest) async throws(WalletError) -> String {
    let response = try await send(fetch, what: "request_uri")
    guard response.status == 200 else {
      throw WalletError(
        .transport,
        "the request_uri answered HTTP \(response.status), not 200 with a request object")
    }
    // RFC 9110 §8.3.1: the type and subtype are case-insensitive; parameters are ignored.
    let mediaType = (response.headers["Content-Type"] ?? "").split(separator: ";").first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard mediaType == Self.requestObjectMediaType else {
      throw WalletError(
        .transport,
        "the request_uri answered \(mediaType.map { "Content-Type \($0)" } ?? "without a Content-Type"), not \(Self.requestObjectMediaType)"
      )
    }
    guard response.body.count <= Self.maximumRequestObjectBytes else {
      throw WalletError(
        .transport,
        "the request object is larger than \(Self.maximumRequestObjectBytes) bytes")
    }
    guard let text = String(validating: response.body, as: UTF8.self) else {
      throw WalletError(.transport, "the request object is not UTF-8 text")
    }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Posts a response form (``ResponsePost/request``) to `response_uri` (OpenID4VP 1.0 §8.2) and reads the verifier's
  /// answer: 200 with a JSON object, whose `redirect_uri` (if any) is returned after the URL
  /// policy check. The `redirect_uri` is never requested.
  ///
  /// - Throws: `transport` when the URL is not allowed, the verifier cannot be reached, answers
  ///   with another status (its OAuth `error` named), or hands back a body that is not a JSON
  ///   object or a `redirect_uri` that is not an allowed absolute URL.
  func post(_ request: HTTPRequest, posted: RedirectResponseOutcome.Posted)
    async throws(WalletError) -> RedirectResponseOutcome
  {
    var request = request
    request.headers["Accept"] = "application/json"
    let response = try await send(request, what: "response_uri")
    guard response.status == 200 else {
      // RFC 6749 §5.2: the verifier's `error` and `error_description`, when it sent them.
      let answer = try? JSONValue(parsing: response.body)
      let error = [answer?["error"]?.string, answer?["error_description"]?.string]
        .compactMap { $0 }.joined(separator: ": ")
      throw WalletError(
        .transport,
        "the response_uri answered HTTP \(response.status)\(error.isEmpty ? "" : " (\(error))")")
    }
    guard response.body.count <= Self.maximumAnswerBytes else {
      throw WalletError(
        .transport, "the verifier's answer is larger than \(Self.maximumAnswerBytes) bytes")
    }
    // §8.2: the verifier answers 200 with a JSON object; an empty body is read as `{}`.
    let answer: JSONValue
    if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) {
      answer = .object([])
    } else {
      do {
        answer = try JSONValue(parsing: response.body)
      } catch {
        throw WalletError(
          .transport, "the verifier's answer is not JSON: \(error.reason)", underlying: error)
      }
    }
    guard case .object = answer else {
      throw WalletError(.transport, "the verifier's answer is not a JSON object")
    }
    guard let value = answer["redirect_uri"] else {
      return RedirectResponseOutcome(redirectURI: nil, posted: posted)
    }
    guard let text = value.string, let redirect = URL(string: text) else {
      throw WalletError(.transport, "the verifier's redirect_uri is not a URL")
    }
    do {
      try urlPolicy.check(redirect)
    } catch {
      throw WalletError(
        .transport, "the verifier's redirect_uri is not allowed: \(error.reason)",
        underlying: error)
    }
    return RedirectResponseOutcome(redirectURI: redirect, posted: posted)
  }

  private func send(_ request: HTTPRequest, what: String) async throws(WalletError)
    -> HTTPResponse
  {
    do {
      try urlPolicy.check(request.url)
    } catch {
      throw WalletError(
        .transport, "the \(what) is not allowed: \(error.reason)", underlying: error)
    }
    do {
      return try await client.send(request)
    } catch {
      throw WalletError(.transport, "the \(what): \(error.reason)", underlying: error)
    }
  }
}
