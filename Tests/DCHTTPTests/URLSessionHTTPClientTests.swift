import DCHTTP
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The client's checks that refuse before anything is sent. Exchanges over loopback are in
/// HTTPServerTests, against the development server.
@Suite struct URLSessionHTTPClientRefusalTests {
  private func code(_ client: URLSessionHTTPClient, _ request: HTTPRequest) async -> HTTPErrorCode?
  {
    do {
      _ = try await client.send(request)
      return nil
    } catch {
      return error.code
    }
  }

  @Test func plainHTTPToANonLoopbackHostIsRefusedBeforeSending() async throws {
    // 192.0.2.0/24 (TEST-NET-1, RFC 5737) is never routed: had anything been sent, the error
    // would be a connection failure or a timeout, not urlNotAllowed.
    let url = try #require(URL(string: "http://192.0.2.1/token"))
    for policy in [HTTPURLPolicy.standard, .development] {
      let client = URLSessionHTTPClient(configuration: .init(policy: policy, timeout: 2))
      #expect(await code(client, HTTPRequest(method: .get, url: url)) == .urlNotAllowed)
    }
  }

  @Test func loopbackHTTPIsRefusedByTheStandardPolicy() async throws {
    let client = URLSessionHTTPClient(configuration: .init(policy: .standard, timeout: 2))
    let url = try #require(URL(string: "http://127.0.0.1:9/"))
    #expect(await code(client, HTTPRequest(method: .get, url: url)) == .urlNotAllowed)
  }

  @Test(arguments: [
    ("X-Evil", "a\r\nInjected: yes"), ("X-Evil", "a\nb"), ("X-Evil", "a\u{0}b"),
    ("Bad Name", "v"), ("Bad:Name", "v"), ("", "v"), ("X-\u{e9}", "v"),
  ])
  func headersThatCouldSplitTheRequestAreRefused(_ name: String, _ value: String) async throws {
    let client = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 2))
    let url = try #require(URL(string: "http://127.0.0.1:9/"))
    let request = HTTPRequest(method: .get, url: url, headers: [name: value])
    #expect(await code(client, request) == .invalidRequest)
  }

  @Test func aMethodThatIsNotATokenIsRefused() async throws {
    let client = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 2))
    let url = try #require(URL(string: "http://127.0.0.1:9/"))
    #expect(
      await code(client, HTTPRequest(method: HTTPMethod("GET /x"), url: url)) == .invalidRequest)
  }

  @Test func aClosedPortIsAConnectionFailureWithItsCause() async throws {
    let client = URLSessionHTTPClient(configuration: .init(policy: .development, timeout: 5))
    // Port 9 (discard) is not served on the test machines.
    let url = try #require(URL(string: "http://127.0.0.1:9/"))
    do {
      _ = try await client.send(HTTPRequest(method: .get, url: url))
      Issue.record("the request succeeded")
    } catch {
      #expect(error.code == .connectionFailed)
      #expect(error.underlying is URLError)
    }
  }
}
