import DCAPI
import DCJSON
import DCRegistration
import Foundation
import Testing

@Suite("iOS registration plan")
struct IOSRegistrationPlanTests {
  let allEntitled = IOSEntitlements(
    mobileDocumentTypes: IOSEntitlements.allowedMobileDocumentTypes,
    verifiableCredentialTypes: ["urn:eudi:pid:1"])

  func plan(
    _ descriptions: [CredentialDescription],
    registered: Set<String> = [],
    entitlements: IOSEntitlements? = nil,
    platform: IOSPlatformCapabilities = .iOS27Point3
  ) throws -> IOSRegistrationPlan {
    try IOSRegistrationPlan.make(
      descriptions: descriptions, currentlyRegistered: registered,
      entitlements: entitlements ?? allEntitled,
      platform: platform, now: Fixtures.now)
  }

  @Test("An entitled mdoc becomes a MobileDocumentRegistration with its gates and date")
  func mobileDocument() throws {
    let expiry = Fixtures.now.addingTimeInterval(86_400)
    let description = try Fixtures.mdl(
      ios: IOSRegistrationOptions(
        supportedAuthorityKeyIdentifiers: [Fixtures.readerAKI],
        supportedIssuerKeyIdentifiers: [Fixtures.issuerAKI],
        invalidationDate: expiry))
    let result = try plan([description], platform: .iOS27)
    #expect(result.skipped.isEmpty)
    #expect(result.warnings.isEmpty)
    #expect(result.removals.isEmpty)
    guard case .mobileDocument(let registration) = result.additions.first,
      result.additions.count == 1
    else {
      Issue.record("expected one mobile document registration, got \(result.additions)")
      return
    }
    #expect(registration.mobileDocumentType == "org.iso.18013.5.1.mDL")
    #expect(registration.documentIdentifier == "mdl-1")
    #expect(registration.supportedAuthorityKeyIdentifiers == [Fixtures.readerAKI])
    #expect(registration.supportedIssuerKeyIdentifiers == [Fixtures.issuerAKI])
    #expect(registration.invalidationDate == expiry)
  }

  @Test(
    "Every docType in Apple's allowed set registers when entitled",
    arguments: IOSEntitlements.allowedMobileDocumentTypes.sorted())
  func allowedDocTypes(docType: String) throws {
    let result = try plan([try Fixtures.mdl(docType: docType)], platform: .iOS26)
    #expect(result.additions.map(\.documentIdentifier) == ["mdl-1"])
  }

  @Test("docTypes outside Apple's set or the entitlement are skipped with the reason")
  func docTypeFiltering() throws {
    let entitlements = IOSEntitlements(mobileDocumentTypes: [
      "org.iso.18013.5.1.mDL", "org.example.loyalty.1",
    ])
    let result = try plan(
      [
        try Fixtures.mdl(id: "mdl"),
        try Fixtures.mdl(id: "loyalty", docType: "org.example.loyalty.1"),
        try Fixtures.mdl(id: "photoid", docType: "org.iso.23220.photoid.1"),
      ], entitlements: entitlements)
    #expect(result.additions.map(\.documentIdentifier) == ["mdl"])
    #expect(
      result.skipped == [
        IOSSkippedCredential(id: "loyalty", reason: .docTypeNotAllowedByApple),
        IOSSkippedCredential(id: "photoid", reason: .docTypeNotEntitled),
      ])
  }

  @Test(
    "SD-JWT VCs register only from iOS 27.3",
    arguments: [
      (IOSPlatformCapabilities.iOS26, false), (.iOS27, false), (.iOS27Point3, true),
    ])
  func sdJWTByVersion(platform: IOSPlatformCapabilities, registers: Bool) throws {
    let result = try plan([Fixtures.pid()], platform: platform)
    if registers {
      guard case .verifiableCredential(let registration) = result.additions.first else {
        Issue.record("expected a verifiable credential registration")
        return
      }
      #expect(registration.verifiableCredentialTypes == ["urn:eudi:pid:1"])
      #expect(registration.documentIdentifier == "pid-1")
      #expect(result.skipped.isEmpty)
    } else {
      #expect(result.additions.isEmpty)
      #expect(
        result.skipped == [
          IOSSkippedCredential(id: "pid-1", reason: .verifiableCredentialsUnsupported)
        ])
    }
  }

  @Test("An SD-JWT VC type outside the entitlement is skipped")
  func vctNotEntitled() throws {
    let result = try plan([Fixtures.pid(vct: "urn:example:other")])
    #expect(
      result.skipped == [
        IOSSkippedCredential(id: "pid-1", reason: .verifiableCredentialTypeNotEntitled)
      ])
  }

  @Test("Stale and no-longer-presentable ids are removed; current ones are upserted")
  func pruneAndUpsert() throws {
    let result = try plan(
      [
        try Fixtures.mdl(id: "keep"), try Fixtures.mdl(id: "new"),
        try Fixtures.mdl(id: "gone-unentitled", docType: "org.example.x"),
      ],
      registered: ["keep", "stale-b", "stale-a", "gone-unentitled"])
    #expect(result.additions.map(\.documentIdentifier) == ["keep", "new"])
    #expect(result.removals == ["gone-unentitled", "stale-a", "stale-b"])
  }

  @Test("An empty wanted set removes everything registered")
  func removeAll() throws {
    let result = try plan([], registered: ["a", "b"])
    #expect(result.additions.isEmpty)
    #expect(result.removals == ["a", "b"])
  }

  @Test("Adding one credential leaves the others registered")
  func addOne() throws {
    let result = try IOSRegistrationPlan.make(
      adding: try Fixtures.mdl(id: "new"), currentlyRegistered: ["other"],
      entitlements: allEntitled,
      platform: .iOS26, now: Fixtures.now)
    #expect(result.additions.map(\.documentIdentifier) == ["new"])
    #expect(result.removals.isEmpty)
  }

  @Test("Adding one credential iOS cannot present removes its stale registration")
  func addOneUnpresentable() throws {
    let result = try IOSRegistrationPlan.make(
      adding: Fixtures.pid(id: "pid"), currentlyRegistered: ["pid", "other"],
      entitlements: allEntitled,
      platform: .iOS27, now: Fixtures.now)
    #expect(result.additions.isEmpty)
    #expect(result.removals == ["pid"])
    #expect(
      result.skipped == [IOSSkippedCredential(id: "pid", reason: .verifiableCredentialsUnsupported)]
    )
  }

  @Test("An invalidation date not after now is an error", arguments: [-1.0, 0.0])
  func pastInvalidationDate(offset: Double) throws {
    let description = try Fixtures.mdl(
      ios: IOSRegistrationOptions(invalidationDate: Fixtures.now.addingTimeInterval(offset)))
    #expect(registrationErrorCode { _ = try plan([description]) } == .invalidationDateInPast)
  }

  @Test("A past invalidation date is an error even on a credential iOS would skip")
  func pastDateOnSkipped() throws {
    let description = Fixtures.pid(
      ios: IOSRegistrationOptions(invalidationDate: Fixtures.now.addingTimeInterval(-60)))
    #expect(
      registrationErrorCode { _ = try plan([description], platform: .iOS26) }
        == .invalidationDateInPast)
  }

  @Test("1001 key identifiers are over Apple's limit; 1000 are not")
  func tooManyIdentifiers() throws {
    let thousand = (0..<1000).map { KeyIdentifier([UInt8($0 % 256), UInt8($0 / 256)]) }
    #expect(throws: Never.self) {
      _ = try plan([
        try Fixtures.mdl(ios: IOSRegistrationOptions(supportedIssuerKeyIdentifiers: thousand))
      ])
    }
    let tooMany = thousand + [KeyIdentifier([0xFF, 0xFF])]
    #expect(
      registrationErrorCode {
        _ = try plan([
          try Fixtures.mdl(ios: IOSRegistrationOptions(supportedIssuerKeyIdentifiers: tooMany))
        ])
      } == .keyIdentifierLimitExceeded)
    #expect(
      registrationErrorCode {
        _ = try plan([
          try Fixtures.mdl(ios: IOSRegistrationOptions(supportedAuthorityKeyIdentifiers: tooMany))
        ])
      } == .keyIdentifierLimitExceeded)
  }

  @Test("A 65-byte key identifier is over Apple's limit; 64 bytes is not")
  func identifierTooLong() throws {
    let ok = KeyIdentifier(Array(repeating: 7, count: 64))
    let long = KeyIdentifier(Array(repeating: 7, count: 65))
    #expect(throws: Never.self) {
      _ = try plan([
        try Fixtures.mdl(ios: IOSRegistrationOptions(supportedAuthorityKeyIdentifiers: [ok]))
      ])
    }
    #expect(
      registrationErrorCode {
        _ = try plan([
          try Fixtures.mdl(ios: IOSRegistrationOptions(supportedAuthorityKeyIdentifiers: [long]))
        ])
      } == .keyIdentifierLimitExceeded)
    #expect(
      registrationErrorCode {
        _ = try plan([
          try Fixtures.mdl(ios: IOSRegistrationOptions(supportedIssuerKeyIdentifiers: [ok, long]))
        ])
      } == .keyIdentifierLimitExceeded)
  }

  @Test("An empty key identifier is an error")
  func emptyIdentifier() throws {
    #expect(
      registrationErrorCode {
        _ = try plan([
          try Fixtures.mdl(
            ios: IOSRegistrationOptions(supportedAuthorityKeyIdentifiers: [KeyIdentifier([])]))
        ])
      } == .invalidKeyIdentifier)
  }

  @Test("Issuer key identifiers on iOS 26.x are dropped with a warning")
  func issuerIdentifiersBefore27() throws {
    let description = try Fixtures.mdl(
      ios: IOSRegistrationOptions(
        supportedAuthorityKeyIdentifiers: [Fixtures.readerAKI],
        supportedIssuerKeyIdentifiers: [Fixtures.issuerAKI]))
    let result = try plan([description], platform: try IOSPlatformCapabilities(version: "26.4"))
    guard case .mobileDocument(let registration) = result.additions.first else {
      Issue.record("expected a mobile document registration")
      return
    }
    #expect(registration.supportedIssuerKeyIdentifiers.isEmpty)
    #expect(registration.supportedAuthorityKeyIdentifiers == [Fixtures.readerAKI])
    #expect(
      result.warnings == [IOSRegistrationWarning(id: "mdl-1", kind: .issuerKeyIdentifiersDropped)])
  }

  @Test("Duplicate ids and empty ids are errors")
  func invalidDescriptions() throws {
    #expect(
      registrationErrorCode { _ = try plan([try Fixtures.mdl(id: "x"), Fixtures.pid(id: "x")]) }
        == .duplicateCredentialID)
    #expect(
      registrationErrorCode { _ = try plan([try Fixtures.mdl(id: "")]) } == .invalidDescription)
    #expect(
      registrationErrorCode { _ = try plan([try Fixtures.mdl(docType: "")]) } == .invalidDescription
    )
  }

  @Test("The plan's JSON has a fixed shape")
  func json() throws {
    let description = try Fixtures.mdl(
      ios: IOSRegistrationOptions(
        supportedAuthorityKeyIdentifiers: [KeyIdentifier([0xFB, 0xFF])],
        invalidationDate: Date(timeIntervalSince1970: 1_798_761_600)))
    let result = try plan([description, Fixtures.pid()], registered: ["old"], platform: .iOS27)
    #expect(
      result.json.serialized()
        == #"{"platform":"27.0","additions":[{"kind":"mobileDocument","documentIdentifier":"mdl-1","#
        + #""mobileDocumentType":"org.iso.18013.5.1.mDL","supportedIssuerKeyIdentifiers":[],"#
        + #""supportedAuthorityKeyIdentifiers":["+/8="],"invalidationDate":"2027-01-01T00:00:00Z"}],"#
        + #""removals":["old"],"skipped":[{"id":"pid-1","reason":"verifiableCredentialsUnsupported"}],"#
        + #""warnings":[]}"#)
  }
}

@Suite("iOS platform capabilities")
struct IOSPlatformCapabilitiesTests {
  @Test(
    "Versions parse to their capabilities",
    arguments: [
      ("26", false, false), ("26.0", false, false), ("26.4.1", false, false), ("27.0", true, false),
      ("27.2", true, false), ("27.3", true, true), ("27.3.1", true, true), ("28.0", true, true),
    ])
  func versions(text: String, issuerKeys: Bool, verifiableCredentials: Bool) throws {
    let platform = try IOSPlatformCapabilities(version: text)
    #expect(platform.supportsIssuerKeyIdentifiers == issuerKeys)
    #expect(platform.supportsVerifiableCredentials == verifiableCredentials)
  }

  @Test(
    "Malformed and pre-26 versions are refused",
    arguments: ["", "25.9", "18.0", "26.", ".1", "26.x", "26.0.0.1", "２６.0", "-26"])
  func refused(text: String) {
    #expect(
      registrationErrorCode { _ = try IOSPlatformCapabilities(version: text) }
        == .unsupportedPlatformVersion)
  }
}
