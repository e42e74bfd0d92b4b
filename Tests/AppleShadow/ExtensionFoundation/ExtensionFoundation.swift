// Shadow of Apple's ExtensionFoundation (test only; see Tests/AppleShadow/README.md).

/// https://developer.apple.com/documentation/extensionfoundation/appextension
///
/// `main()` is declared in ExtensionKit, where Apple's default implementation lives (for
/// `Configuration == AppExtensionSceneConfiguration`).
public protocol AppExtension {
  /// https://developer.apple.com/documentation/extensionfoundation/appextension/configuration-swift.associatedtype
  associatedtype Configuration: AppExtensionConfiguration
  /// https://developer.apple.com/documentation/extensionfoundation/appextension/configuration-swift.property
  @MainActor @preconcurrency var configuration: Self.Configuration { get }
  /// https://developer.apple.com/documentation/extensionfoundation/appextension/init()
  @MainActor @preconcurrency init()
}

/// https://developer.apple.com/documentation/extensionfoundation/appextensionconfiguration
/// (its connection-accepting requirement is not used by this package and not declared).
@MainActor @preconcurrency
public protocol AppExtensionConfiguration: Sendable {}
