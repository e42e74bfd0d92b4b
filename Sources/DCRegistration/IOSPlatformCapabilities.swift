import DCErrors

/// What the running iOS version's IdentityDocumentServices can register.
///
/// From Apple's availability annotations: `MobileDocumentRegistration` since 26.0, its
/// `supportedIssuerKeyIdentifiers` since 27.0, `VerifiableCredentialRegistration` (SD-JWT VC)
/// since 27.3.
public struct IOSPlatformCapabilities: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The major version, 26 or later.
  package let major: Int
  /// The minor version.
  package let minor: Int

  /// iOS 26.0: mdoc registrations with a reader gate.
  public static let iOS26 = IOSPlatformCapabilities(checkedMajor: 26, minor: 0)
  /// iOS 27.0: adds `supportedIssuerKeyIdentifiers`.
  public static let iOS27 = IOSPlatformCapabilities(checkedMajor: 27, minor: 0)
  /// iOS 27.3: adds `VerifiableCredentialRegistration`.
  public static let iOS27Point3 = IOSPlatformCapabilities(checkedMajor: 27, minor: 3)

  private init(checkedMajor: Int, minor: Int) {
    self.major = checkedMajor
    self.minor = minor
  }

  /// Reads a version as `UIDevice.systemVersion` gives it: `"26"`, `"26.0"`, `"27.3.1"` (the
  /// patch level changes no capability).
  ///
  /// - Throws: `RegistrationError` with code `unsupportedPlatformVersion` when the text is not a
  ///   version or the version is older than 26.0.
  public init(version: String) throws(RegistrationError) {
    let parts = version.split(separator: ".", omittingEmptySubsequences: false)
    let numbers = parts.map { part -> Int? in
      guard !part.isEmpty, part.utf8.count <= 6, part.allSatisfy(\.isASCII),
        part.allSatisfy(\.isNumber)
      else {
        return nil
      }
      return Int(part)
    }
    guard (1...3).contains(numbers.count), let major = numbers[0] else {
      throw RegistrationError(.unsupportedPlatformVersion, "'\(version)' is not an iOS version")
    }
    var minor = 0
    if numbers.count > 1 {
      guard let value = numbers[1] else {
        throw RegistrationError(.unsupportedPlatformVersion, "'\(version)' is not an iOS version")
      }
      minor = value
    }
    guard numbers.count < 3 || numbers[2] != nil else {
      throw RegistrationError(.unsupportedPlatformVersion, "'\(version)' is not an iOS version")
    }
    guard major >= 26 else {
      throw RegistrationError(
        .unsupportedPlatformVersion,
        "iOS \(version) has no IdentityDocumentServices registration (26.0+)")
    }
    self.init(checkedMajor: major, minor: minor)
  }

  /// Whether `MobileDocumentRegistration.supportedIssuerKeyIdentifiers` exists (iOS 27.0+).
  package var supportsIssuerKeyIdentifiers: Bool { self >= .iOS27 }

  /// Whether `VerifiableCredentialRegistration` exists (iOS 27.3+).
  package var supportsVerifiableCredentials: Bool { self >= .iOS27Point3 }

  /// The version as `major.minor`.
  public var description: String { "\(major).\(minor)" }

  /// Orders versions by major, then minor number.
  public static func < (lhs: IOSPlatformCapabilities, rhs: IOSPlatformCapabilities) -> Bool {
    (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
  }
}

/// The app's two IdentityDocumentServices entitlements, and Apple's allowed mdoc docTypes.
///
/// `com.apple.developer.identity-document-services.document-provider.mobile-document-types`
/// (26.0) and `...document-provider.verifiable-credential-types` (27.3).
public struct IOSEntitlements: Sendable, Hashable {
  /// The docTypes of the `mobile-document-types` entitlement.
  public var mobileDocumentTypes: Set<String>
  /// The SD-JWT VC types of the `verifiable-credential-types` entitlement.
  public var verifiableCredentialTypes: Set<String>

  /// The only docTypes Apple grants in the `mobile-document-types` entitlement.
  package static let allowedMobileDocumentTypes: Set<String> = [
    "org.iso.18013.5.1.mDL",
    "org.iso.23220.photoid.1",
    "org.iso.23220.1.jp.mnc",
    "eu.europa.ec.eudi.pid.1",
    "eu.europa.ec.av.1",
  ]

  /// Creates the entitlements as the app's `.entitlements` file lists them.
  public init(mobileDocumentTypes: Set<String>, verifiableCredentialTypes: Set<String> = []) {
    self.mobileDocumentTypes = mobileDocumentTypes
    self.verifiableCredentialTypes = verifiableCredentialTypes
  }
}
