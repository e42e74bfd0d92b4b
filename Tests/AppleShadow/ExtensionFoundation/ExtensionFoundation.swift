// Shadow of Apple's ExtensionFoundation (test only; see Tests/AppleShadow/README.md).

/// https://developer.apple.com/documentation/extensionfoundation/appextension
///
/// Judgement call: only `init()` and the `main()` entry point are declared; the `configuration`
/// requirement is supplied by the extension-point protocols (IdentityDocumentProvider) and is not
/// used by this package.
public protocol AppExtension {
  init()
}

extension AppExtension {
  /// The entry point `@main` calls.
  @MainActor public static func main() {}
}
