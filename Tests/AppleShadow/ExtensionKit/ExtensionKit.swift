// Shadow of Apple's ExtensionKit (test only; see Tests/AppleShadow/README.md).
@_exported public import ExtensionFoundation

/// https://developer.apple.com/documentation/extensionkit/appextensionscene
public protocol AppExtensionScene {}

/// https://developer.apple.com/documentation/extensionkit/appextensionsceneconfiguration: the
/// configuration of an extension that provides UI (AppExtension's `configuration` page).
public struct AppExtensionSceneConfiguration: AppExtensionConfiguration {
  /// Shadow only (not Apple API): the configuration an extension point's protocol supplies.
  public static let shadowDefault = AppExtensionSceneConfiguration()
}

extension AppExtension where Configuration == AppExtensionSceneConfiguration {
  /// https://developer.apple.com/documentation/extensionfoundation/appextension/main()-w0u9
  /// (`static func main() throws`, "Don't call this method directly": `@main` calls it).
  ///
  /// Shadow: does nothing (no process to run on Linux).
  public static func main() throws {}
}
