package import Foundation

/// One registration to hand to `IdentityDocumentProviderRegistrationStore.addRegistration(_:)`,
/// which replaces any registration with the same `documentIdentifier` (IdentityDocumentServices).
public enum IOSRegistration: Sendable, Hashable {
  /// A `MobileDocumentRegistration` (iOS 26.0).
  case mobileDocument(IOSMobileDocumentRegistration)
  /// A `VerifiableCredentialRegistration` (iOS 27.3).
  case verifiableCredential(IOSVerifiableCredentialRegistration)

  /// The registration's `documentIdentifier`, the credential description's id.
  public var documentIdentifier: String {
    switch self {
    case .mobileDocument(let registration): registration.documentIdentifier
    case .verifiableCredential(let registration): registration.documentIdentifier
    }
  }
}

/// The fields of Apple's `MobileDocumentRegistration` (IdentityDocumentServices, iOS 26.0; issuer
/// key identifiers 27.0).
public struct IOSMobileDocumentRegistration: Sendable, Hashable {
  /// `mobileDocumentType`: the mdoc docType.
  package let mobileDocumentType: String
  /// `supportedIssuerKeyIdentifiers`; always empty before iOS 27.0, where the initializer without
  /// it must be used.
  package let supportedIssuerKeyIdentifiers: [KeyIdentifier]
  /// `supportedAuthorityKeyIdentifiers`: the reader gate, empty for every request.
  package let supportedAuthorityKeyIdentifiers: [KeyIdentifier]
  /// `documentIdentifier`.
  public let documentIdentifier: String
  /// `invalidationDate`.
  package let invalidationDate: Date?
}

/// The fields of Apple's `VerifiableCredentialRegistration` (IdentityDocumentServices, iOS 27.3).
public struct IOSVerifiableCredentialRegistration: Sendable, Hashable {
  /// `verifiableCredentialTypes`: the SD-JWT VC `vct` values.
  package let verifiableCredentialTypes: [String]
  /// `supportedIssuerKeyIdentifiers`.
  package let supportedIssuerKeyIdentifiers: [KeyIdentifier]
  /// `supportedAuthorityKeyIdentifiers`: the reader gate, empty for every request.
  package let supportedAuthorityKeyIdentifiers: [KeyIdentifier]
  /// `documentIdentifier`.
  public let documentIdentifier: String
  /// `invalidationDate`.
  package let invalidationDate: Date?
}

/// A credential the plan leaves out because iOS cannot present it, and why.
package struct IOSSkippedCredential: Sendable, Hashable {
  /// Why iOS cannot present a credential.
  package enum Reason: String, Sendable, Hashable, CaseIterable {
    /// The docType is outside the set Apple grants in the `mobile-document-types` entitlement.
    case docTypeNotAllowedByApple
    /// The docType is allowed but not in this app's `mobile-document-types` entitlement.
    case docTypeNotEntitled
    /// SD-JWT VC registration needs iOS 27.3.
    case verifiableCredentialsUnsupported
    /// The `vct` is not in this app's `verifiable-credential-types` entitlement.
    case verifiableCredentialTypeNotEntitled
  }

  /// The credential description's id.
  package let id: String
  /// Why it is left out.
  package let reason: Reason

  /// Creates a skip record.
  package init(id: String, reason: Reason) {
    self.id = id
    self.reason = reason
  }
}

/// Something the plan changed to make a credential registrable, reported so the wallet can log it.
package struct IOSRegistrationWarning: Sendable, Hashable {
  /// What was changed.
  package enum Kind: String, Sendable, Hashable, CaseIterable {
    /// `supportedIssuerKeyIdentifiers` were dropped because the OS is older than 27.0.
    case issuerKeyIdentifiersDropped
  }

  /// The credential description's id.
  package let id: String
  /// What was changed.
  package let kind: Kind

  /// Creates a warning.
  package init(id: String, kind: Kind) {
    self.id = id
    self.kind = kind
  }
}
