public import DCErrors

/// An error from registration planning or registry encoding: an extensible code, a reason, and the
/// credential it concerns.
///
/// Shaped like the other modules' errors (STYLE.md, swift-certificates): clients match `code`,
/// and new codes break nobody.
public struct RegistrationError: CausedError {
  /// What kind of failure this is.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    let name: String
    private init(_ name: String) { self.name = name }
    /// The code's name.
    public var description: String { name }

    /// A value given as base64 does not decode (RFC 4648 §4, §5).
    public static let invalidBase64 = Code("invalidBase64")
    /// A description is incomplete: an empty id, docType, `vct`, namespace or element identifier.
    package static let invalidDescription = Code("invalidDescription")
    /// Two descriptions share an id; ids are document identifiers on iOS and picker entry ids on
    /// Android, so they must be unique.
    package static let duplicateCredentialID = Code("duplicateCredentialID")
    /// An iOS `invalidationDate` is not after the current time.
    package static let invalidationDateInPast = Code("invalidationDateInPast")
    /// A key identifier is empty.
    package static let invalidKeyIdentifier = Code("invalidKeyIdentifier")
    /// A key identifier list is over Apple's limits: at most 1000 entries of at most 64 bytes
    /// (IdentityDocumentServices, `MobileDocumentRegistration.supportedIssuerKeyIdentifiers`).
    package static let keyIdentifierLimitExceeded = Code("keyIdentifierLimitExceeded")
    /// The iOS version string is malformed or older than iOS 26.0, the first with
    /// IdentityDocumentServices registration.
    public static let unsupportedPlatformVersion = Code("unsupportedPlatformVersion")
    /// A protocol the chosen Android matcher cannot answer, or one this SDK does not know.
    public static let unsupportedProtocol = Code("unsupportedProtocol")
    /// Reader gating (`supportedAuthorityKeyIdentifiers`) with an Android matcher that cannot gate
    /// (wire-formats.md, "CMWallet / Ubique matchers").
    package static let readerGatingUnsupported = Code("readerGatingUnsupported")
    /// An SD-JWT claim path is empty, has an empty component, or cannot be written unambiguously
    /// in the chosen registry layout.
    package static let invalidClaimPath = Code("invalidClaimPath")
    /// The registry data would exceed what its layout can address (the CMWallet int32 offset).
    package static let registryTooLarge = Code("registryTooLarge")
  }

  /// What kind of failure this is.
  public let code: Code
  /// A human-readable explanation.
  public let reason: String
  /// The id of the credential description at fault, when one is.
  public let credentialID: String?

  /// The error this one wraps (a lower module's error, kept as a value), or nil for a root cause.
  public let underlying: (any Error & Sendable)?
  /// The file (`#fileID`) where the error was created.
  public let file: String
  /// The line where the error was created.
  public let line: UInt

  /// Creates an error with a code, a reason and, when known, the credential at fault.
  public init(
    _ code: Code, _ reason: String, credentialID: String? = nil,
    underlying: (any Error & Sendable)? = nil, file: String = #fileID, line: UInt = #line
  ) {
    self.underlying = underlying
    self.file = file
    self.line = line
    self.code = code
    self.reason = reason
    self.credentialID = credentialID
  }

  /// The code, the credential at fault and the reason, for logs.
  public var description: String {
    if let credentialID { return "RegistrationError.\(code) [\(credentialID)]: \(reason)" }
    return "RegistrationError.\(code): \(reason)"
  }

  /// Equal when the code and reason and credentialID are; the cause and throw site are ignored.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.code == rhs.code && lhs.reason == rhs.reason && lhs.credentialID == rhs.credentialID
  }

  /// Hashes the fields `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(reason)
    hasher.combine(credentialID)
  }

  /// The description, the throw site, and the cause chain, one per line.
  public var debugDescription: String { causedDebugDescription }
}
