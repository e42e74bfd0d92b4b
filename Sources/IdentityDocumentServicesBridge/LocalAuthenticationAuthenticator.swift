// Apple only: LocalAuthentication behind the wallet's UserAuthenticator. When to ask is the
// wallet's UserAuthenticationPolicy; what a cancel or a failure does is Wallet's (tested on Linux).
#if canImport(LocalAuthentication)
  public import CredentialWallet
  internal import Foundation
  public import LocalAuthentication

  /// Asks the holder for Face ID, Touch ID or the device passcode before the wallet signs.
  ///
  /// The provider extension's Info.plist needs `NSFaceIDUsageDescription`, or Face ID is refused.
  public struct LocalAuthenticationAuthenticator: UserAuthenticator {
    /// The policy evaluated: `.deviceOwnerAuthentication` falls back to the passcode.
    public let policy: LAPolicy

    /// Creates an authenticator for a policy.
    public init(policy: LAPolicy = .deviceOwnerAuthentication) {
      self.policy = policy
    }

    public func authenticate(reason: String) async -> AuthenticationOutcome {
      let context = LAContext()
      do {
        guard try await context.evaluatePolicy(policy, localizedReason: reason) else {
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
