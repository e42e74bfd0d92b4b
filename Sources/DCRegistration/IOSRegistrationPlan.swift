internal import DCCBOR
package import DCJSON
package import Foundation

/// The registration store changes that make the set iOS has registered equal the set the wallet
/// wants: registrations to add (each replaces the one with its `documentIdentifier`), identifiers
/// to remove, and credentials left out because iOS cannot present them.
///
/// Pure: the Apple bridge applies it with `removeRegistration(forDocumentIdentifier:)` and
/// `addRegistration(_:)` (IdentityDocumentServices, `IdentityDocumentProviderRegistrationStore`).
package struct IOSRegistrationPlan: Sendable, Hashable {
  /// Registrations to add, in the order of the descriptions. Every wanted credential is added
  /// again, since the store cannot be compared field by field from identifiers alone and
  /// `addRegistration` replaces in place.
  package let additions: [IOSRegistration]
  /// Document identifiers to remove, sorted: registered but no longer wanted or no longer
  /// presentable.
  package let removals: [String]
  /// Credentials left out, in the order of the descriptions.
  package let skipped: [IOSSkippedCredential]
  /// Changes made to registrable credentials, in the order of the descriptions.
  package let warnings: [IOSRegistrationWarning]
  /// The OS version planned for.
  package let platform: IOSPlatformCapabilities

  /// At most this many key identifiers per list (Apple: `supportedIssuerKeyIdentifiers`).
  package static let maximumKeyIdentifierCount = 1000
  /// At most this many bytes per key identifier (Apple: `supportedIssuerKeyIdentifiers`).
  package static let maximumKeyIdentifierLength = 64

  /// Plans a full synchronisation: after applying it, the registered set is exactly the
  /// presentable credentials among `descriptions`.
  ///
  /// - Parameters:
  ///   - descriptions: every credential the wallet wants registered.
  ///   - currentlyRegistered: the document identifiers the store holds now (from
  ///     `registrations`); identifiers the wallet does not know are removed too, since only this
  ///     app writes its store.
  ///   - entitlements: the app's entitlements.
  ///   - platform: the running OS version's capabilities.
  ///   - now: the current time, for `invalidationDate`.
  /// - Throws: `RegistrationError` for a malformed description, a duplicate id, an
  ///   `invalidationDate` not after `now`, or key identifiers over Apple's limits. Nothing is
  ///   planned when one description is wrong, so a bad credential never half-syncs the store.
  package static func make(
    descriptions: [CredentialDescription],
    currentlyRegistered: Set<String>,
    entitlements: IOSEntitlements,
    platform: IOSPlatformCapabilities,
    now: Date
  ) throws(RegistrationError) -> IOSRegistrationPlan {
    try descriptions.validateCommon()
    var builder = Builder(platform: platform)
    for description in descriptions {
      try builder.consider(description, entitlements: entitlements, now: now)
    }
    let wanted = Set(builder.additions.map(\.documentIdentifier))
    return builder.plan(removals: currentlyRegistered.subtracting(wanted))
  }

  /// Plans adding or updating one credential and leaving the others alone (iOS keeps its set per
  /// document). When the credential cannot be presented and `currentlyRegistered` holds its id,
  /// the stale registration is removed.
  ///
  /// - Throws: as `make(descriptions:currentlyRegistered:entitlements:platform:now:)`.
  package static func make(
    adding description: CredentialDescription,
    currentlyRegistered: Set<String>,
    entitlements: IOSEntitlements,
    platform: IOSPlatformCapabilities,
    now: Date
  ) throws(RegistrationError) -> IOSRegistrationPlan {
    try description.validateCommon()
    var builder = Builder(platform: platform)
    try builder.consider(description, entitlements: entitlements, now: now)
    let stale: Set<String> =
      builder.additions.isEmpty && currentlyRegistered.contains(description.id)
      ? [description.id] : []
    return builder.plan(removals: stale)
  }

  /// Collects additions, skips and warnings description by description.
  private struct Builder {
    let platform: IOSPlatformCapabilities
    var additions: [IOSRegistration] = []
    var skipped: [IOSSkippedCredential] = []
    var warnings: [IOSRegistrationWarning] = []

    init(platform: IOSPlatformCapabilities) {
      self.platform = platform
    }

    func plan(removals: Set<String>) -> IOSRegistrationPlan {
      IOSRegistrationPlan(
        additions: additions, removals: removals.sorted(), skipped: skipped, warnings: warnings,
        platform: platform)
    }

    mutating func consider(
      _ description: CredentialDescription, entitlements: IOSEntitlements, now: Date
    ) throws(RegistrationError) {
      let id = description.id
      let options = description.ios
      // Errors first: a wrong input is wrong whether or not this OS would register it.
      if let invalidationDate = options.invalidationDate, invalidationDate <= now {
        throw RegistrationError(
          .invalidationDateInPast, "invalidationDate \(invalidationDate) is not after \(now)",
          credentialID: id)
      }
      try Self.checkLimits(
        options.supportedAuthorityKeyIdentifiers, "supportedAuthorityKeyIdentifiers", id)
      try Self.checkLimits(
        options.supportedIssuerKeyIdentifiers, "supportedIssuerKeyIdentifiers", id)

      if let reason = skipReason(description.credential, entitlements) {
        skipped.append(IOSSkippedCredential(id: id, reason: reason))
        return
      }
      // Before 27.0 there is no issuer gate; the OS matches as if none were given (requests carry
      // no issuerKeyIdentifiers either), so the credential stays useful and the wallet is told.
      var issuerKeyIdentifiers = options.supportedIssuerKeyIdentifiers
      if !platform.supportsIssuerKeyIdentifiers, !issuerKeyIdentifiers.isEmpty {
        issuerKeyIdentifiers = []
        warnings.append(IOSRegistrationWarning(id: id, kind: .issuerKeyIdentifiersDropped))
      }
      switch description.credential {
      case .mdoc(let docType, _):
        additions.append(
          .mobileDocument(
            IOSMobileDocumentRegistration(
              mobileDocumentType: docType,
              supportedIssuerKeyIdentifiers: issuerKeyIdentifiers,
              supportedAuthorityKeyIdentifiers: options.supportedAuthorityKeyIdentifiers,
              documentIdentifier: id,
              invalidationDate: options.invalidationDate)))
      case .sdJWT(let vct, _):
        additions.append(
          .verifiableCredential(
            IOSVerifiableCredentialRegistration(
              verifiableCredentialTypes: [vct],
              supportedIssuerKeyIdentifiers: issuerKeyIdentifiers,
              supportedAuthorityKeyIdentifiers: options.supportedAuthorityKeyIdentifiers,
              documentIdentifier: id,
              invalidationDate: options.invalidationDate)))
      }
    }

    func skipReason(
      _ credential: RegisteredCredential, _ entitlements: IOSEntitlements
    ) -> IOSSkippedCredential.Reason? {
      switch credential {
      case .mdoc(let docType, _):
        if !IOSEntitlements.allowedMobileDocumentTypes.contains(docType) {
          return .docTypeNotAllowedByApple
        }
        if !entitlements.mobileDocumentTypes.contains(docType) { return .docTypeNotEntitled }
        return nil
      case .sdJWT(let vct, _):
        if !platform.supportsVerifiableCredentials { return .verifiableCredentialsUnsupported }
        if !entitlements.verifiableCredentialTypes.contains(vct) {
          return .verifiableCredentialTypeNotEntitled
        }
        return nil
      }
    }

    /// Apple documents the limits on `supportedIssuerKeyIdentifiers`; the reader gate is held to
    /// the same, since AKIs are the same kind of value and the OS is not known to accept more.
    static func checkLimits(
      _ identifiers: [KeyIdentifier], _ field: String, _ id: String
    ) throws(RegistrationError) {
      try identifiers.validateNonEmpty(field, credentialID: id)
      guard identifiers.count <= IOSRegistrationPlan.maximumKeyIdentifierCount else {
        throw RegistrationError(
          .keyIdentifierLimitExceeded,
          "\(field) has \(identifiers.count) entries, more than \(IOSRegistrationPlan.maximumKeyIdentifierCount)",
          credentialID: id)
      }
      if let long = identifiers.first(where: {
        $0.bytes.count > IOSRegistrationPlan.maximumKeyIdentifierLength
      }) {
        throw RegistrationError(
          .keyIdentifierLimitExceeded,
          "\(field) holds a \(long.bytes.count)-byte identifier, more than \(IOSRegistrationPlan.maximumKeyIdentifierLength)",
          credentialID: id)
      }
    }
  }
}

extension IOSRegistrationPlan {
  /// The plan as JSON (what the command line prints): members in a fixed order, key
  /// identifiers as standard base64, dates as RFC 3339 UTC.
  package var json: JSONValue {
    .object([
      ("platform", .string(platform.description)),
      ("additions", .array(additions.map(\.json))),
      ("removals", .array(removals.map(JSONValue.string))),
      (
        "skipped",
        .array(
          skipped.map {
            .object([("id", .string($0.id)), ("reason", .string($0.reason.rawValue))])
          })
      ),
      (
        "warnings",
        .array(
          warnings.map {
            .object([("id", .string($0.id)), ("warning", .string($0.kind.rawValue))])
          })
      ),
    ])
  }
}

extension IOSRegistration {
  /// The registration as JSON, with Apple's property names.
  var json: JSONValue {
    switch self {
    case .mobileDocument(let registration):
      .object([
        ("kind", "mobileDocument"),
        ("documentIdentifier", .string(registration.documentIdentifier)),
        ("mobileDocumentType", .string(registration.mobileDocumentType)),
        (
          "supportedIssuerKeyIdentifiers",
          .array(registration.supportedIssuerKeyIdentifiers.map { .string($0.base64) })
        ),
        (
          "supportedAuthorityKeyIdentifiers",
          .array(registration.supportedAuthorityKeyIdentifiers.map { .string($0.base64) })
        ),
        ("invalidationDate", Self.json(registration.invalidationDate)),
      ])
    case .verifiableCredential(let registration):
      .object([
        ("kind", "verifiableCredential"),
        ("documentIdentifier", .string(registration.documentIdentifier)),
        (
          "verifiableCredentialTypes",
          .array(registration.verifiableCredentialTypes.map(JSONValue.string))
        ),
        (
          "supportedIssuerKeyIdentifiers",
          .array(registration.supportedIssuerKeyIdentifiers.map { .string($0.base64) })
        ),
        (
          "supportedAuthorityKeyIdentifiers",
          .array(registration.supportedAuthorityKeyIdentifiers.map { .string($0.base64) })
        ),
        ("invalidationDate", Self.json(registration.invalidationDate)),
      ])
    }
  }

  private static func json(_ date: Date?) -> JSONValue {
    guard let date, let text = CBOR.dateTime(date).tagValue?.text else { return .null }
    return .string(text)
  }
}
