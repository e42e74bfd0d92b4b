// Shadow of the Foundation members that exist on Apple platforms only (test only; see
// Tests/AppleShadow/README.md). swift-corelibs-foundation lacks them, and a shadow module cannot
// be named Foundation, so the Apple-only files import this module when DCWALLET_APPLE_SHADOW is
// set (never on an Apple platform).
public import Foundation

extension FileManager {
  /// https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
  ///
  /// Shadow: the container is `ShadowAppGroups.containers[groupIdentifier]`, nil otherwise.
  public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
    ShadowAppGroups.containers[groupIdentifier]
  }
}

/// Shadow only (not Apple API): the App Group containers this process has.
public enum ShadowAppGroups {
  @TaskLocal public static var containers: [String: URL] = [:]
}

extension String {
  /// https://developer.apple.com/documentation/swift/string/init(localized:table:bundle:locale:comment:)
  ///
  /// Shadow: the interpolated text itself (no localization tables on Linux).
  public init(
    localized keyAndValue: String.LocalizationValue, table: String? = nil, bundle: Bundle? = nil,
    locale: Locale = .current, comment: StaticString? = nil
  ) {
    self = keyAndValue.text
  }

  /// https://developer.apple.com/documentation/swift/string/localizationvalue
  public struct LocalizationValue: ExpressibleByStringInterpolation, Sendable {
    let text: String
    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: DefaultStringInterpolation) {
      text = String(stringInterpolation: stringInterpolation)
    }
  }
}
