@_exported public import DCErrors

/// An error from registration planning or registry encoding: an extensible code, a reason, and the
/// credential it concerns.
///
/// Shaped like the other modules' errors (STYLE.md, swift-certificates): clients match `code`,
/// and new codes break nobody.
public typealias RegistrationError = DCError<RegistrationErrorCode>

/// What kind of failure this is.
public struct RegistrationErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// A value given as base64 does not decode (RFC 4648 §4, §5).
  public static let invalidBase64 = Self("invalidBase64")
  /// A description is incomplete: an empty id, docType, `vct`, namespace or element identifier.
  package static let invalidDescription = Self("invalidDescription")
  /// Two descriptions share an id; ids are document identifiers on iOS and picker entry ids on
  /// Android, so they must be unique.
  package static let duplicateCredentialID = Self("duplicateCredentialID")
  /// An iOS `invalidationDate` is not after the current time.
  package static let invalidationDateInPast = Self("invalidationDateInPast")
  /// A key identifier is empty.
  package static let invalidKeyIdentifier = Self("invalidKeyIdentifier")
  /// A key identifier list is over Apple's limits: at most 1000 entries of at most 64 bytes
  /// (IdentityDocumentServices, `MobileDocumentRegistration.supportedIssuerKeyIdentifiers`).
  package static let keyIdentifierLimitExceeded = Self("keyIdentifierLimitExceeded")
  /// The iOS version string is malformed or older than iOS 26.0, the first with
  /// IdentityDocumentServices registration.
  public static let unsupportedPlatformVersion = Self("unsupportedPlatformVersion")
  /// A protocol the chosen Android matcher cannot answer, or one this SDK does not know.
  public static let unsupportedProtocol = Self("unsupportedProtocol")
  /// Reader gating (`supportedAuthorityKeyIdentifiers`) with an Android matcher that cannot gate
  /// (wire-formats.md, "CMWallet / Ubique matchers").
  package static let readerGatingUnsupported = Self("readerGatingUnsupported")
  /// An SD-JWT claim path is empty, has an empty component, or cannot be written unambiguously
  /// in the chosen registry layout.
  package static let invalidClaimPath = Self("invalidClaimPath")
  /// The registry data would exceed what its layout can address (the CMWallet int32 offset).
  package static let registryTooLarge = Self("registryTooLarge")

  /// The id of the credential description at fault.
  public typealias Detail = String

  /// The code, the credential at fault and the reason, for logs.
  public static func description(of error: RegistrationError) -> String {
    if let credentialID = error.credentialID {
      return "RegistrationError.\(error.code) [\(credentialID)]: \(error.reason)"
    }
    return "RegistrationError.\(error.code): \(error.reason)"
  }
}

extension DCError where Code == RegistrationErrorCode {
  /// Creates an error with a code, a reason and the credential at fault.
  package init(
    _ code: RegistrationErrorCode, _ reason: String, credentialID: String?,
    underlying: (any Error & Sendable)? = nil, file: String = #fileID, line: UInt = #line
  ) {
    self.init(code, reason, detail: credentialID, underlying: underlying, file: file, line: line)
  }

  /// The id of the credential description at fault, when one is.
  public var credentialID: String? { detail }
}
