public import Foundation

/// What a wallet accepts in a request received outside the DC API, beyond what OpenID4VP 1.0
/// fixes: how old and how long-lived a signed request object may be, the clock skew allowed,
/// and one development allowance. `RedirectAuthorizationRequest` reads a request under it.
public struct RedirectRequestPolicy: Sendable, Hashable {
  /// The seconds `iat` and `exp` may be off the wallet's clock.
  package var clockSkew: TimeInterval
  /// The oldest a signed request object may be: `now - iat` at most this (plus ``clockSkew``).
  /// RFC 9101 §10.2 leaves replay protection of request objects to `iat` and `exp`; a request
  /// is fetched and answered within minutes.
  package var maximumAge: TimeInterval
  /// The longest a signed request object may claim to be valid: `exp - iat` at most this.
  package var maximumLifetime: TimeInterval
  /// Development only: an `x509_san_dns:localhost` verifier may receive the response at any
  /// loopback host (`127.0.0.1`, `[::1]`). Off by default, since OpenID4VP 1.0 §5.9.3 requires
  /// the `response_uri` host to be the client identifier's DNS name.
  package var allowsLoopbackAliases: Bool

  /// Creates a policy; the defaults allow 60 s of skew, a request object issued at most five
  /// minutes ago and valid for at most ten, and no loopback aliases.
  public init(
    clockSkew: TimeInterval = 60, maximumAge: TimeInterval = 300,
    maximumLifetime: TimeInterval = 600, allowsLoopbackAliases: Bool = false
  ) {
    self.clockSkew = clockSkew
    self.maximumAge = maximumAge
    self.maximumLifetime = maximumLifetime
    self.allowsLoopbackAliases = allowsLoopbackAliases
  }

  /// The defaults.
  public static let standard = RedirectRequestPolicy()
}
