// Shadow of Apple's ExtensionKit (test only; see Tests/AppleShadow/README.md).
@_exported public import ExtensionFoundation

/// https://developer.apple.com/documentation/extensionkit/appextensionscene
public protocol AppExtensionScene {}
