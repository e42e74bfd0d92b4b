package import DCHTTP

/// An `HTTPClient` that hands each request to an `HTTPHandler` in the same process, with the
/// size limit a real client enforces.
package struct InProcessHTTPClient: HTTPClient {
  package let handler: any HTTPHandler
  package var maximumResponseBytes = 8 * 1024 * 1024

  package init(handler: any HTTPHandler, maximumResponseBytes: Int = 8 * 1024 * 1024) {
    self.handler = handler
    self.maximumResponseBytes = maximumResponseBytes
  }

  package func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    let response = await handler.handle(request)
    guard response.body.count <= maximumResponseBytes else {
      throw HTTPError(.responseTooLarge, "the response has \(response.body.count) bytes")
    }
    return response
  }
}
