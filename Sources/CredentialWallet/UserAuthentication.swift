/// When the holder must authenticate (biometrics or passcode) before the wallet shares anything.
///
/// The app sets it; the request UI (another process on a phone) reads it from the shared store.
public enum UserAuthenticationPolicy: String, Sendable, Hashable, CaseIterable {
  /// Before every presentation.
  case always
  /// Before a presentation that uses a device key (every presentation today: mdoc and SD-JWT
  /// presentations are all device-signed; a future presentation without holder binding skips it).
  case whenKeyUsed = "when-key-used"
  /// Never (a development or kiosk setting).
  case never

  /// The store setting that holds the policy.
  public static let settingKey = "user-authentication"

  /// The default when nothing was set: protect every signature.
  public static let `default` = UserAuthenticationPolicy.whenKeyUsed
}

/// The outcome of asking the holder to authenticate.
public enum AuthenticationOutcome: Sendable, Hashable {
  /// The holder authenticated.
  case authenticated
  /// The holder cancelled (or the system did): nothing is sent; the request stays open.
  case cancelled
  /// Authentication failed or is unavailable, with the reason.
  case failed(String)
}

/// Asks the holder to authenticate: LocalAuthentication on Apple platforms, an injected
/// implementation on Linux and in tests.
public protocol UserAuthenticator: Sendable {
  /// Shows the prompt with a reason (such as "Share your driving licence with shop.example").
  func authenticate(reason: String) async -> AuthenticationOutcome
}

/// An authenticator for contexts without a person to ask (the CLI, servers): it always says yes.
/// The CLI's consent is the command line itself, and `--interactive` asks on the terminal.
public struct ImplicitAuthenticator: UserAuthenticator {
  /// Creates the authenticator.
  public init() {}

  public func authenticate(reason: String) async -> AuthenticationOutcome { .authenticated }
}

extension Wallet {
  /// The policy in force (the store setting, else the default).
  public func userAuthenticationPolicy() async throws(WalletError) -> UserAuthenticationPolicy {
    do {
      return try await store.setting(UserAuthenticationPolicy.settingKey).flatMap(
        UserAuthenticationPolicy.init(rawValue:))
        ?? .default
    } catch {
      throw WalletError(.storage, error.reason)
    }
  }

  /// Sets the policy for the app and its request UI.
  public func setUserAuthenticationPolicy(_ policy: UserAuthenticationPolicy)
    async throws(WalletError)
  {
    do {
      try await store.setSetting(UserAuthenticationPolicy.settingKey, policy.rawValue)
    } catch {
      throw WalletError(.storage, error.reason)
    }
  }

  /// Applies the policy before any signature: throws `authenticationCancelled` when the holder
  /// cancels (nothing has been signed or sent, and the same request may be retried) and `refused`
  /// when authentication fails.
  func authenticateHolder(usesDeviceKey: Bool, reason: String) async throws(WalletError) {
    let policy = try await userAuthenticationPolicy()
    switch policy {
    case .never: return
    case .whenKeyUsed where !usesDeviceKey: return
    case .always, .whenKeyUsed: break
    }
    switch await authenticator.authenticate(reason: reason) {
    case .authenticated: return
    case .cancelled:
      throw WalletError(
        .authenticationCancelled, "the holder cancelled authentication; nothing was sent")
    case .failed(let why): throw WalletError(.refused, "holder authentication failed: \(why)")
    }
  }
}
