/// What a server checks on one endpoint before its handler runs: the media types its request
/// body may have, and which other origins' pages may call it (CORS). A server that mounts an
/// ``HTTPHandler`` asks it for these through ``HTTPEndpointPolicyProviding``.
///
/// The server's own origin (its public URL) is always allowed; a state-changing request (any
/// method but GET, HEAD and OPTIONS, RFC 9110 §9.2.1) that carries an `Origin` naming another
/// origin is refused unless ``crossOrigins`` lists it, whatever the endpoint.
package struct HTTPEndpointPolicy: Sendable, Hashable {
  /// Which other origins may call an endpoint from a browser page.
  package enum CrossOrigins: Sendable, Hashable {
    /// None: no CORS headers are sent, and a state-changing request from another origin is
    /// refused.
    case none
    /// Any origin (`Access-Control-Allow-Origin` echoes it): public, unauthenticated data only.
    case any
    /// These serialized origins (`https://example.com`, RFC 6454 §6.2), compared exactly.
    case listed(Set<String>)

    /// Whether `origin` (an `Origin` header value) is allowed.
    package func allows(_ origin: String) -> Bool {
      switch self {
      case .none: false
      case .any: origin != "null"
      case .listed(let origins): origins.contains(origin)
      }
    }
  }

  /// The media types (`type/subtype`, lower case, without parameters) a request body must have
  /// on a state-changing request; empty accepts any (or none). Anything else gets 415 (RFC 9110
  /// §15.5.16) before the body is read.
  package var acceptedMediaTypes: Set<String>
  /// The other origins allowed to call the endpoint from a page.
  package var crossOrigins: CrossOrigins

  /// A policy; the defaults accept any body from the server's own origin only.
  package init(acceptedMediaTypes: Set<String> = [], crossOrigins: CrossOrigins = .none) {
    self.acceptedMediaTypes = acceptedMediaTypes
    self.crossOrigins = crossOrigins
  }

  /// A JSON body (`application/json`).
  package static let json = HTTPEndpointPolicy(acceptedMediaTypes: ["application/json"])
  /// A form body (`application/x-www-form-urlencoded`).
  package static let form = HTTPEndpointPolicy(
    acceptedMediaTypes: ["application/x-www-form-urlencoded"])
}

/// A handler that declares each endpoint's ``HTTPEndpointPolicy``: the one place an endpoint's
/// accepted media types and CORS origins are written, next to its route.
package protocol HTTPEndpointPolicyProviding: Sendable {
  /// The policy of the endpoint `method` at `path` (percent-encoded, as in the request target),
  /// or nil for an unknown endpoint (the server then checks the origin only and lets the handler
  /// answer, typically 404 or 405).
  func endpointPolicy(method: HTTPMethod, path: String) -> HTTPEndpointPolicy?
}
