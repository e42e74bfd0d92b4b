import DCHTTP
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The load client as a browser or a wallet app is one: a single `URLSession` for every
/// request, so its connections stay open between requests (HTTP/1.1 persistent connections,
/// RFC 9112 §9.3; libcurl's connection cache behind Foundation on Linux). `URLSessionHTTPClient`,
/// the package's client, makes a session per request and so a new connection each time.
final class KeepAliveHTTPClient: HTTPClient, @unchecked Sendable {
  private let session: URLSession

  init() {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = 30
    configuration.httpMaximumConnectionsPerHost = 16
    session = URLSession(configuration: configuration)
  }

  deinit { session.invalidateAndCancel() }

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method.rawValue
    for field in request.headers {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
    let result: Result<HTTPResponse, HTTPError> = await withCheckedContinuation { continuation in
      session.dataTask(with: urlRequest) { data, response, error in
        guard error == nil, let http = response as? HTTPURLResponse else {
          continuation.resume(
            returning: .failure(
              HTTPError(.connectionFailed, error.map { "\($0)" } ?? "no HTTP response")))
          return
        }
        var headers = HTTPFields()
        for (name, value) in http.allHeaderFields {
          headers.append(name: "\(name)", value: "\(value)")
        }
        continuation.resume(
          returning: .success(
            HTTPResponse(status: http.statusCode, headers: headers, body: Array(data ?? Data()))))
      }.resume()
    }
    return try result.get()
  }
}
