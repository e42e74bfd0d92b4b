package import DCWallet
import Foundation

/// Counts the times the holder is asked, and always says yes.
package final class CountingAuthenticator: UserAuthenticator, @unchecked Sendable {
  private let lock = NSLock()
  private var prompts: [HolderAuthenticationContext] = []

  package init() {}
  package var count: Int { lock.withLock { prompts.count } }
  package var contexts: [HolderAuthenticationContext] { lock.withLock { prompts } }

  package func authenticate(_ context: HolderAuthenticationContext) async -> AuthenticationOutcome {
    lock.withLock { prompts.append(context) }
    return .authenticated
  }
}
