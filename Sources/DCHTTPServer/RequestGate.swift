import DCHTTP

/// Why the server refused a request before its handler saw it; each has its RFC 9110 status.
package enum HTTPRefusal: Sendable, Hashable, CaseIterable {
  /// Two different `Content-Length`s, or `Content-Length` with `Transfer-Encoding` (RFC 9112
  /// §6.3): the body's end is ambiguous (request smuggling). 400.
  case ambiguousFraming
  /// No `Host`, or one that does not parse (RFC 9112 §3.2). 400.
  case badHost
  /// A `Forwarded` header from a trusted proxy that does not parse as RFC 7239 §4 (or repeats a
  /// parameter in one element): the proxy's word is unreadable, so nothing it says is guessed
  /// at. 400. From any other peer the header is never read.
  case malformedForwarded
  /// A `Host` (or forwarded host/scheme) other than the server's public origin (RFC 9110
  /// §15.5.20): a misdirected request, or DNS rebinding. 421.
  case misdirected
  /// A state-changing request from another origin's page that the endpoint does not allow, or a
  /// CORS preflight it does not allow. 403.
  case crossOrigin
  /// A body whose `Content-Type` the endpoint does not take (RFC 9110 §15.5.16). 415.
  case unsupportedMediaType
  /// More requests at once from one client behind the trusted proxy than the per-client cap
  /// (RFC 6585 §4). 429.
  case tooManyFromClient

  /// The status the client gets.
  package var status: Int {
    switch self {
    case .ambiguousFraming, .badHost, .malformedForwarded: 400
    case .misdirected: 421
    case .crossOrigin: 403
    case .unsupportedMediaType: 415
    case .tooManyFromClient: 429
    }
  }
}

/// A request's head as the gate sees it: before the body is read.
struct RequestHead {
  var method: HTTPMethod
  /// The path of the request target, percent-encoded, without the query.
  var path: String
  var headers: HTTPFields
  /// The address the connection comes from; nil when libmicrohttpd does not report one.
  var peer: IPAddress?
}

/// What the gate decided for a request head.
enum GateDecision: Equatable {
  /// Refuse with the refusal's status; the body is never read.
  case refuse(HTTPRefusal)
  /// A CORS preflight the endpoint allows, answered by the server itself.
  case preflight(HTTPResponse)
  /// Hand the request on. `client`: the address the per-client cap counts when it came through
  /// a trusted proxy; `origin`: the public origin the request URL is rebuilt on; `corsOrigin`:
  /// the other origin the response allows (`Access-Control-Allow-Origin`).
  case proceed(forwardedClient: IPAddress?, origin: HTTPOrigin, corsOrigin: String?)
}

/// The checks every request head passes before the body is read: framing, `Host` against the
/// public origin (forwarded headers counted only from a trusted proxy), then for the endpoint's
/// ``DCHTTP/HTTPEndpointPolicy``: `Origin`, CORS preflight and `Content-Type`. Pure: no I/O.
struct RequestGate {
  /// The origin the server answers for; nil: loopback development, where `Host` must name
  /// 127.0.0.1, localhost or [::1] (any port: a DNS-rebinding page's `Host` is its own name).
  let publicOrigin: HTTPOrigin?
  let trustedProxies: Set<IPAddress>
  let policies: (any HTTPEndpointPolicyProviding)?

  func decide(_ head: RequestHead) -> GateDecision {
    if Self.ambiguousFraming(head.headers) { return .refuse(.ambiguousFraming) }
    let fromProxy = head.peer.map(trustedProxies.contains) ?? false
    let hosts = head.headers.values("Host")
    guard hosts.count == 1 else { return .refuse(.badHost) }
    // What the proxy says (RFC 7239 `Forwarded`, else X-Forwarded-*) is believed from a trusted
    // proxy only; from anyone else it is never read.
    var forwarded = ForwardedElement()
    if fromProxy {
      guard let element = Self.proxyElement(head.headers) else {
        return .refuse(.malformedForwarded)
      }
      forwarded = element
    }
    let scheme = forwarded.proto ?? "http"
    guard
      let origin = HTTPOrigin(scheme: scheme.lowercased(), authority: forwarded.host ?? hosts[0])
    else {
      return .refuse(.badHost)
    }
    guard answersFor(origin) else { return .refuse(.misdirected) }
    let forwardedClient = forwarded.client
    return checkPolicy(head, origin: origin, forwardedClient: forwardedClient)
  }

  /// Whether the server answers for `origin`.
  private func answersFor(_ origin: HTTPOrigin) -> Bool {
    if let publicOrigin { return origin == publicOrigin }
    return origin.scheme == "http" && ["127.0.0.1", "localhost", "[::1]"].contains(origin.host)
  }

  /// `Origin`, preflight and `Content-Type` against the endpoint's policy.
  private func checkPolicy(_ head: RequestHead, origin: HTTPOrigin, forwardedClient: IPAddress?)
    -> GateDecision
  {
    let requestOrigin = head.headers.values("Origin").last
    let foreign = requestOrigin.map { HTTPOrigin(serialized: $0) != origin } ?? false
    if head.method == .options, let requestOrigin,
      let wanted = head.headers["Access-Control-Request-Method"]
    {
      let policy = policies?.endpointPolicy(method: HTTPMethod(wanted), path: head.path)
      guard let policy, foreign, policy.crossOrigins.allows(requestOrigin) else {
        return .refuse(.crossOrigin)
      }
      return .preflight(Self.preflightResponse(origin: requestOrigin, method: wanted))
    }
    let policy = policies?.endpointPolicy(method: head.method, path: head.path)
    let corsOrigin =
      foreign && (policy?.crossOrigins.allows(requestOrigin ?? "") ?? false) ? requestOrigin : nil
    let stateChanging = ![HTTPMethod.get, .head, .options].contains(head.method)
    if stateChanging {
      // RFC 9110 §9.2.1: only safe methods may come from any page; the rest from ours or a
      // listed origin.
      if foreign, corsOrigin == nil { return .refuse(.crossOrigin) }
      if let policy, !Self.accepts(policy, head.headers) { return .refuse(.unsupportedMediaType) }
    }
    return .proceed(forwardedClient: forwardedClient, origin: origin, corsOrigin: corsOrigin)
  }

  /// Whether the body's `Content-Type` is one the policy takes. A request without a body
  /// (no `Content-Length` or 0, not chunked) needs none.
  static func accepts(_ policy: HTTPEndpointPolicy, _ headers: HTTPFields) -> Bool {
    guard !policy.acceptedMediaTypes.isEmpty else { return true }
    let types = headers.values("Content-Type")
    guard types.count == 1 else {
      let noBody =
        types.isEmpty && headers["Transfer-Encoding"] == nil
        && (headers["Content-Length"].map { $0.trimmingSpaces == "0" } ?? true)
      return noBody
    }
    // RFC 9110 §8.3.1: type "/" subtype *( OWS ";" OWS parameter ), case-insensitive.
    let mediaType = types[0].split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
    return policy.acceptedMediaTypes.contains(mediaType.trimmingSpaces.lowercased())
  }

  /// RFC 9112 §6.3: `Transfer-Encoding` with `Content-Length`, or `Content-Length` values
  /// (repeated lines or a list) that differ, leave the body's end ambiguous.
  static func ambiguousFraming(_ headers: HTTPFields) -> Bool {
    let lengths = headers.values("Content-Length").flatMap { $0.split(separator: ",") }
      .map { String($0).trimmingSpaces }
    if !lengths.isEmpty, !headers.values("Transfer-Encoding").isEmpty { return true }
    return Set(lengths).count > 1
  }

  /// What a trusted proxy says about the request: RFC 7239's `Forwarded` when it sent one (then
  /// X-Forwarded-* are not read: a proxy that writes `Forwarded` may pass a client's
  /// X-Forwarded-* through untouched), else `X-Forwarded-For`, `-Host` and `-Proto`. Nil for a
  /// `Forwarded` that does not parse.
  static func proxyElement(_ headers: HTTPFields) -> ForwardedElement? {
    let lines = headers.values("Forwarded")
    guard lines.isEmpty else { return ForwardedElement(lastOf: lines.joined(separator: ",")) }
    return ForwardedElement(
      client: last(headers, "X-Forwarded-For").flatMap(IPAddress.init(numeric:)),
      host: last(headers, "X-Forwarded-Host"), proto: last(headers, "X-Forwarded-Proto"))
  }

  /// The last element of a comma-separated header (repeated lines joined): the one the nearest
  /// proxy wrote.
  static func last(_ headers: HTTPFields, _ name: String) -> String? {
    let elements = headers.values(name).flatMap { $0.split(separator: ",") }
    return elements.last.map { String($0).trimmingSpaces }.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The answer to an allowed preflight (Fetch §3.2.2): the origin, the method, the headers a
  /// page may send (`Content-Type`, `Authorization`, `DPoP`), cached for 10 minutes.
  static func preflightResponse(origin: String, method: String) -> HTTPResponse {
    HTTPResponse(
      status: 204,
      headers: [
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": method,
        "Access-Control-Allow-Headers": "Content-Type, Authorization, DPoP",
        "Access-Control-Max-Age": "600",
        "Vary": "Origin",
      ])
  }
}

extension String {
  /// Without leading and trailing spaces and tabs (HTTP's OWS, RFC 9110 §5.6.3).
  var trimmingSpaces: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let start = firstIndex(where: { !isSpace($0) }),
      let end = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[start...end])
  }
}
