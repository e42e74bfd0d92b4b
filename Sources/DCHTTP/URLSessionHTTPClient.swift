import DCErrors
public import Foundation

#if canImport(FoundationNetworking)
  // URLSession lives in FoundationNetworking on Linux (swift-corelibs-foundation, over libcurl).
  internal import FoundationNetworking
#endif

/// An ``HTTPClient`` over `URLSession`, with the checks OpenID4VCI and OAuth clients need.
///
/// - The request URL must pass the configuration's `policy` (`https`; loopback `http` only with
///   ``HTTPURLPolicy/development``), checked before anything is sent.
/// - Redirects are never followed: a 3xx response is returned as is, with its `Location` and body,
///   and its target is neither checked nor fetched (OpenID4VCI 1.0 and RFC 9126 give no endpoint
///   that redirects; RFC 6749 §3.2 and RFC 8414 §3 forbid following some).
/// - The configuration's `timeout` bounds the whole exchange, from sending to the last body byte.
/// - The configuration's `maxResponseBytes` bounds the body while it arrives: a declared
///   `Content-Length` above it, or the first chunk that would pass it, ends the exchange with
///   ``HTTPErrorCode/responseTooLarge`` and cancels the task; nothing beyond the limit is kept.
/// - Request headers and body are sent as given; a header that could split the request (CR, LF
///   or NUL in a value, a name that is not a token) is refused with
///   ``HTTPErrorCode/invalidRequest``.
///
/// Each ``send(_:)`` uses its own ephemeral session (no cookies, no cache, no credential
/// storage), so no state passes from one request to the next.
///
/// Response header fields come from `HTTPURLResponse.allHeaderFields`, a dictionary: repeated
/// fields arrive joined with ", " (RFC 9110 §5.3) and the order is by name. Foundation may add
/// `Accept`, `Accept-Encoding` and `User-Agent` to the request, and decodes a compressed body
/// before the limit counts it.
///
/// On Linux (swift-corelibs-foundation) the delegate receives the body as operations queued by
/// libcurl's callback, with no back-pressure, and a cancel reaches libcurl asynchronously: bytes
/// libcurl read before the cancel took effect pass through Foundation's queue and are dropped here
/// (docs/LIMITS.md, "HTTP").
public struct URLSessionHTTPClient: HTTPClient {
  /// What a client allows.
  public struct Configuration: Sendable, Hashable {
    /// The URLs the client may send to.
    package var policy: HTTPURLPolicy
    /// The longest the whole exchange may take, in seconds.
    package var timeout: TimeInterval
    /// The largest response body accepted, in bytes.
    package var maxResponseBytes: Int

    /// Creates a configuration; the defaults suit OpenID4VCI endpoints (JSON and credentials
    /// well under 1 MiB).
    public init(
      policy: HTTPURLPolicy = .standard, timeout: TimeInterval = 30,
      maxResponseBytes: Int = 1 << 20
    ) {
      self.policy = policy
      self.timeout = timeout
      self.maxResponseBytes = maxResponseBytes
    }
  }

  /// The client's limits and policy.
  package let configuration: Configuration

  /// Creates a client.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
  }

  /// Sends `request` and returns the response, whatever its status (3xx included).
  ///
  /// - Throws: ``HTTPError`` with code `urlNotAllowed` (nothing was sent), `invalidRequest`
  ///   (nothing was sent), `connectionFailed`, `timedOut`, `responseTooLarge` or `cancelled`;
  ///   `underlying` keeps Foundation's error when there is one.
  public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    try configuration.policy.check(request.url)
    let urlRequest = try makeURLRequest(request)

    let sessionConfiguration = URLSessionConfiguration.ephemeral
    // No state between requests, and nothing buffered beside the delegate: a URL cache would
    // keep a copy of every body chunk until the task ends.
    sessionConfiguration.urlCache = nil
    sessionConfiguration.httpCookieStorage = nil
    sessionConfiguration.httpShouldSetCookies = false
    sessionConfiguration.urlCredentialStorage = nil
    sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
    // The deadline below is what bounds the exchange; these only keep Foundation's idle timeouts
    // (60 s and 7 days by default) from ending a longer allowed exchange first.
    sessionConfiguration.timeoutIntervalForRequest = Self.seconds(configuration.timeout)
    sessionConfiguration.timeoutIntervalForResource = Self.seconds(configuration.timeout)

    let exchange = Exchange(maxResponseBytes: configuration.maxResponseBytes)
    let session = URLSession(
      configuration: sessionConfiguration, delegate: exchange, delegateQueue: nil)
    let task = session.dataTask(with: urlRequest)
    exchange.task = task
    // The session keeps its delegate until it is invalidated; this lets the one task finish,
    // then releases the exchange.
    defer { session.finishTasksAndInvalidate() }

    let timeout = Self.seconds(configuration.timeout)
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        exchange.start(continuation)
        task.resume()
        // The whole-exchange deadline; Foundation's own timeouts only bound idle gaps.
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak exchange] in
          exchange?.fail(
            HTTPError(.timedOut, "no complete response within \(timeout) seconds"))
        }
      }
    } onCancel: {
      exchange.fail(HTTPError(.cancelled, "the sending task was cancelled"))
    }
    return try result.get()
  }

  /// The `URLRequest` for `request`, once its header fields are known to be safe to send.
  private func makeURLRequest(_ request: HTTPRequest) throws(HTTPError) -> URLRequest {
    guard Self.isToken(request.method.rawValue) else {
      throw HTTPError(.invalidRequest, "the method is not an RFC 9110 token")
    }
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method.rawValue
    urlRequest.timeoutInterval = Self.seconds(configuration.timeout)
    urlRequest.httpShouldHandleCookies = false
    for field in request.headers {
      // RFC 9110 §5.1 (field-name is a token), §5.5 (CR, LF and NUL are never valid in a
      // field value): libcurl writes header lines as given, so these would split the request.
      guard Self.isToken(field.name) else {
        throw HTTPError(.invalidRequest, "a header name is not an RFC 9110 token")
      }
      guard !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
        throw HTTPError(.invalidRequest, "the value of header \(field.name) holds CR, LF or NUL")
      }
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
    return urlRequest
  }

  /// `value` as a usable interval: negative or NaN is 0, anything above a year (or infinite) is a
  /// year, so no deadline arithmetic overflows.
  static func seconds(_ value: TimeInterval) -> TimeInterval {
    guard value > 0 else { return 0 }
    return min(value, 365 * 86_400)
  }

  /// Whether `text` is an RFC 9110 §5.6.2 token (`tchar`s, at least one).
  static func isToken(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "A")...UInt8(ascii: "Z"):
          return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }
}

/// One request's state, as the session's delegate: the response head, the body received so far
/// (never more than the limit), and the continuation the first outcome resumes.
private final class Exchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let lock = NSLock()
  private let maxResponseBytes: Int
  private var continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>?
  /// An outcome reached before the continuation was installed.
  private var early: Result<HTTPResponse, HTTPError>?
  private var finished = false
  private var head: HTTPURLResponse?
  private var body: [UInt8] = []
  /// The task, to cancel it once the outcome is known early (limit, timeout, cancellation).
  weak var task: URLSessionTask?

  init(maxResponseBytes: Int) { self.maxResponseBytes = maxResponseBytes }

  func start(_ continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>) {
    lock.lock()
    if let early {
      lock.unlock()
      continuation.resume(returning: early)
      return
    }
    self.continuation = continuation
    lock.unlock()
  }

  /// Ends the exchange with `error` (if it has not ended) and cancels the task.
  func fail(_ error: HTTPError) {
    if finish(.failure(error)) { task?.cancel() }
  }

  /// Records the outcome once; returns whether this call was the one that ended the exchange.
  @discardableResult
  private func finish(_ result: Result<HTTPResponse, HTTPError>) -> Bool {
    lock.lock()
    guard !finished else {
      lock.unlock()
      return false
    }
    finished = true
    body = []
    let continuation = self.continuation
    self.continuation = nil
    if continuation == nil { early = result }
    lock.unlock()
    continuation?.resume(returning: result)
    return true
  }

  // MARK: URLSessionTaskDelegate, URLSessionDataDelegate

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // Never follow: the 3xx itself (status, Location, body) becomes the response.
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    if response.expectedContentLength > Int64(maxResponseBytes) {
      completionHandler(.cancel)
      fail(tooLarge("declares a body of \(response.expectedContentLength) bytes"))
      return
    }
    lock.lock()
    head = response as? HTTPURLResponse
    lock.unlock()
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    lock.lock()
    guard !finished else {
      lock.unlock()
      return
    }
    guard data.count <= maxResponseBytes - body.count else {
      lock.unlock()
      fail(tooLarge("body passes the limit"))
      return
    }
    body.append(contentsOf: data)
    lock.unlock()
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    if let error {
      finish(.failure(Self.httpError(error)))
      return
    }
    lock.lock()
    let head = self.head ?? (task.response as? HTTPURLResponse)
    let body = self.body
    lock.unlock()
    guard let head else {
      finish(.failure(HTTPError(.connectionFailed, "the server sent no HTTP response")))
      return
    }
    var headers = HTTPFields()
    let fields = head.allHeaderFields.compactMap { key, value -> (String, String)? in
      guard let name = key.base as? String else { return nil }
      return (name, value as? String ?? String(describing: value))
    }
    for (name, value) in fields.sorted(by: { $0.0 < $1.0 }) {
      headers.append(name: name, value: value)
    }
    finish(.success(HTTPResponse(status: head.statusCode, headers: headers, body: body)))
  }

  private func tooLarge(_ what: String) -> HTTPError {
    HTTPError(.responseTooLarge, "the response \(what) (limit \(maxResponseBytes) bytes)")
  }

  /// Foundation's error as an ``HTTPError``, kept as the cause.
  private static func httpError(_ error: any Error) -> HTTPError {
    guard let urlError = error as? URLError else {
      return HTTPError(.connectionFailed, "the exchange failed")
    }
    switch urlError.code {
    case .timedOut:
      return HTTPError(.timedOut, "the server did not answer in time", underlying: urlError)
    case .cancelled:
      return HTTPError(.cancelled, "the exchange was cancelled", underlying: urlError)
    case .dataLengthExceedsMaximum:
      return HTTPError(.responseTooLarge, "the response is too large", underlying: urlError)
    default:
      return HTTPError(
        .connectionFailed, "the exchange failed (URLError \(urlError.code.rawValue))",
        underlying: urlError)
    }
  }
}
