// Shadow of the UIKit surface Sources/DCWallet/DCWallet.docc/IOSProviderExtension.md uses (test only; see
// Tests/AppleShadow/README.md), after https://developer.apple.com/documentation/uikit.
/// https://developer.apple.com/documentation/uikit/uiapplication
@MainActor
open class UIApplication {
  /// https://developer.apple.com/documentation/uikit/uiapplication/shared
  public static let shared = UIApplication()

  init() {}

  /// https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(expirationhandler:)
  open func beginBackgroundTask(expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil)
    -> UIBackgroundTaskIdentifier
  { UIBackgroundTaskIdentifier(rawValue: 1) }

  /// https://developer.apple.com/documentation/uikit/uiapplication/endbackgroundtask(_:)
  open func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {}
}

/// https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// https://developer.apple.com/documentation/uikit/uibackgroundtaskidentifier/invalid
  public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}
