// Apple only: LocalAuthentication behind the wallet's UserAuthenticator. When to ask is the
// wallet's UserAuthenticationPolicy; what a cancel or a failure does is Wallet's (tested on Linux).
#if canImport(LocalAuthentication)
  public import DCWallet
  internal import Foundation
  public import LocalAuthentication

  /// Asks the holder for Face ID, Touch ID or the device passcode before the wallet signs.
  ///
  /// The provider extension's Info.plist needs `NSFaceIDUsageDescription`, or Face ID is refused.
  /// The app words the prompt: `localizedReason` formats the wallet's typed context in the app's
  /// language (the library has no default sentence).
  public struct LocalAuthenticationAuthenticator: UserAuthenticator {
    /// The policy evaluated: `.deviceOwnerAuthentication` falls back to the passcode.
    public let policy: LAPolicy
    /// The app's prompt text for a context (`LAContext.evaluatePolicy(_:localizedReason:)`
    /// shows it; it must not be empty).
    package let localizedReason: @Sendable (HolderAuthenticationContext) -> String

    /// Creates an authenticator for a policy, with the app's prompt formatting.
    public init(
      policy: LAPolicy = .deviceOwnerAuthentication,
      localizedReason: @escaping @Sendable (HolderAuthenticationContext) -> String
    ) {
      self.policy = policy
      self.localizedReason = localizedReason
    }

    public func authenticate(_ holder: HolderAuthenticationContext) async
      -> AuthenticationOutcome
    {
      let context = LAContext()
      do {
        guard try await context.evaluatePolicy(policy, localizedReason: localizedReason(holder))
        else {
          return .failed("authentication did not succeed")
        }
        return .authenticated
      } catch let error as LAError {
        switch error.code {
        // The holder, the app or the system dismissed the prompt: nothing is sent and the request
        // stays answerable.
        case .userCancel, .appCancel, .systemCancel: return .cancelled
        default: return .failed(error.localizedDescription)
        }
      } catch {
        return .failed(error.localizedDescription)
      }
    }
  }
#endif
