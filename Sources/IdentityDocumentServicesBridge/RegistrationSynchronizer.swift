// Apple only: translation between IdentityDocumentProviderRegistrationStore and the SDK's pure
// registration planner; every decision is in RegistrationSync, IOSRegistrationPlan and
// RegistrationStatusModel (DigitalCredentialsAPI, tested on Linux).
//
// Written against DigitalCredentialsAPI/Registration as it stands on the `registry` branch
// (IOSRegistrationPlan.make(descriptions:currentlyRegistered:entitlements:platform:now:),
// IOSRegistration, IOSEntitlements, IOSPlatformCapabilities, RegistrationStatusModel); it builds on
// Apple platforms only once that branch is merged.
#if os(iOS) && !targetEnvironment(macCatalyst) && canImport(IdentityDocumentServices)
  public import CredentialRegistration
  public import Foundation
  internal import IdentityDocumentServices

  /// Keeps the app's IdentityDocumentServices registrations equal to the credentials the wallet
  /// wants offered: stale document identifiers are removed, every presentable credential is added
  /// (which replaces it in place), each one independently.
  ///
  /// Call it from the app whenever credentials change and from the provider extension's
  /// `performRegistrationUpdates()`.
  @available(iOS 26.0, *)
  public struct RegistrationSynchronizer: Sendable {
    /// The app's `mobile-document-types` and `verifiable-credential-types` entitlements, as in its
    /// `.entitlements` file (the OS gives no API to read them).
    public let entitlements: IOSEntitlements
    private let clock: @Sendable () -> Date

    /// Creates a synchronizer for an app's entitlements.
    public init(entitlements: IOSEntitlements, clock: @escaping @Sendable () -> Date = { Date() }) {
      self.entitlements = entitlements
      self.clock = clock
    }

    /// Brings the registration store to the descriptions and reports, per document, what was
    /// added, removed or failed. It never stops at the first failure.
    public func synchronize(_ descriptions: [CredentialDescription]) async
      -> RegistrationSyncReport
    {
      let store = IdentityDocumentProviderRegistrationStore()
      let model = RegistrationStatusModel(status: Self.status(await store.status))
      let access = RegistrationSync.Access(
        canReadRegistrations: model.outcome(of: .readRegistrations) == .proceeds,
        writeRefusal: Self.refusal(model.outcome(of: .addRegistration)))
      let entitlements = self.entitlements
      let now = clock()
      let os = ProcessInfo.processInfo.operatingSystemVersion
      let version = "\(os.majorVersion).\(os.minorVersion)"
      return await RegistrationSync.run(
        access: access,
        readRegistered: { try await store.registrations.map(\.documentIdentifier) },
        plan: { registered in
          let plan = try IOSRegistrationPlan.make(
            descriptions: descriptions, currentlyRegistered: registered,
            entitlements: entitlements,
            platform: try IOSPlatformCapabilities(version: version),
            now: now)
          return RegistrationChanges(
            additions: plan.additions.map { ($0.documentIdentifier, $0) },
            removals: plan.removals,
            notes: plan.skipped.map { "skipped \($0.id): \($0.reason.rawValue)" }
              + plan.warnings.map { "\($0.id): \($0.kind.rawValue)" })
        },
        add: { registration in
          try await store.addRegistration(try Self.registration(registration))
        },
        remove: { id in try await store.removeRegistration(forDocumentIdentifier: id) })
    }

    static func status(_ status: IdentityDocumentProviderRegistrationStore.Status)
      -> RegistrationStatusModel.Status
    {
      switch status {
      case .authorized: .authorized
      case .notAuthorized: .notAuthorized
      case .notDetermined: .notDetermined
      case .notSupported: .notSupported
      // A status newer than this SDK: write nothing, as for a device without document providers.
      @unknown default: .notSupported
      }
    }

    static func refusal(_ outcome: RegistrationStatusModel.Outcome) -> String? {
      guard case .fails(let error) = outcome else { return nil }
      return "the registration store is \(error.rawValue)"
    }

    /// Apple's registration for a planned one. The plan was made for this OS version, so the
    /// availability checks agree with it: issuer key identifiers only reach the 27.0 initializer,
    /// verifiable credentials are only planned on 27.3.
    static func registration(_ planned: IOSRegistration) throws -> any IdentityDocumentRegistration
    {
      switch planned {
      case .mobileDocument(let mdoc):
        if #available(iOS 27.0, *) {
          return MobileDocumentRegistration(
            mobileDocumentType: mdoc.mobileDocumentType,
            supportedIssuerKeyIdentifiers: mdoc.supportedIssuerKeyIdentifiers.map {
              Data($0.bytes)
            },
            supportedAuthorityKeyIdentifiers: mdoc.supportedAuthorityKeyIdentifiers.map {
              Data($0.bytes)
            },
            documentIdentifier: mdoc.documentIdentifier, invalidationDate: mdoc.invalidationDate)
        }
        return MobileDocumentRegistration(
          mobileDocumentType: mdoc.mobileDocumentType,
          supportedAuthorityKeyIdentifiers: mdoc.supportedAuthorityKeyIdentifiers.map {
            Data($0.bytes)
          },
          documentIdentifier: mdoc.documentIdentifier, invalidationDate: mdoc.invalidationDate)
      case .verifiableCredential(let vc):
        guard #available(iOS 27.3, *) else {
          throw RegistrationError(
            .unsupportedPlatformVersion, "VerifiableCredentialRegistration needs iOS 27.3",
            credentialID: vc.documentIdentifier)
        }
        // Apple's pages imply, but do not state, that VerifiableCredentialRegistration conforms
        // to IdentityDocumentRegistration: the cast compiles either way and fails loudly if not.
        let value: Any = VerifiableCredentialRegistration(
          verifiableCredentialTypes: vc.verifiableCredentialTypes,
          supportedIssuerKeyIdentifiers: vc.supportedIssuerKeyIdentifiers.map { Data($0.bytes) },
          supportedAuthorityKeyIdentifiers: vc.supportedAuthorityKeyIdentifiers.map {
            Data($0.bytes)
          },
          documentIdentifier: vc.documentIdentifier, invalidationDate: vc.invalidationDate)
        guard let registration = value as? any IdentityDocumentRegistration else {
          throw RegistrationError(
            .unsupportedPlatformVersion,
            "VerifiableCredentialRegistration is not an IdentityDocumentRegistration on this OS",
            credentialID: vc.documentIdentifier)
        }
        return registration
      }
    }
  }
#endif
