import DCAPI
import DCIdentityDocumentServicesBridge27
import DCIdentityDocumentServicesBridge27_3
import DCRegistration
import Foundation
import IdentityDocumentServices
import Testing

@testable import DCIdentityDocumentServicesBridge

/// `RegistrationSynchronizer` against the shadow registration store, for each builder (SDK
/// floor) and device version.
@Suite("Apple shadow: registration sync across 26.0, 27.0 and 27.3")
struct RegistrationSyncTests {
  static let now = Date(timeIntervalSince1970: 1_780_272_000)
  static let readerAKI = KeyIdentifier(Array(repeating: 0xAA, count: 20))
  static let issuerAKI = KeyIdentifier(Array(repeating: 0x11, count: 20))
  static let entitlements = IOSEntitlements(
    mobileDocumentTypes: ["org.iso.18013.5.1.mDL"], verifiableCredentialTypes: ["urn:eudi:pid:1"])
  static let options = IOSRegistrationOptions(
    supportedAuthorityKeyIdentifiers: [readerAKI], supportedIssuerKeyIdentifiers: [issuerAKI])

  static let mdl = CredentialDescription(
    id: "mdl", display: CredentialDisplayInfo(title: "Driving Licence"),
    credential: .mdoc(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: ["org.iso.18013.5.1": ["family_name": RegisteredClaim("Mustermann")]]),
    ios: options)
  static let pid = CredentialDescription(
    id: "pid", display: CredentialDisplayInfo(title: "PID"),
    credential: .sdJWT(vct: "urn:eudi:pid:1", claims: [["given_name"]: RegisteredClaim("Erika")]),
    ios: options)

  func sync(
    _ builder: RegistrationBuilder, device: String, store: ShadowRegistrationStore,
    descriptions: [CredentialDescription] = [mdl, pid]
  ) async -> RegistrationSyncReport {
    let synchronizer = RegistrationSynchronizer(
      entitlements: Self.entitlements, builder: builder, clock: { Self.now },
      deviceVersion: { device })
    return await ShadowRegistrationStore.$current.withValue(store) {
      await synchronizer.synchronize(descriptions)
    }
  }

  @Test("26.0 builder: MobileDocumentRegistration with reader AKIs only; the SD-JWT VC is skipped")
  func iOS26() async throws {
    let store = ShadowRegistrationStore()
    let report = await sync(.iOS26, device: "27.3", store: store)
    #expect(report.added == ["mdl"])
    #expect(report.failures.isEmpty)
    #expect(report.notes.contains { $0.contains("pid") })
    let registration = try #require(store.registrations.first as? MobileDocumentRegistration)
    #expect(registration.mobileDocumentType == "org.iso.18013.5.1.mDL")
    #expect(registration.supportedAuthorityKeyIdentifiers == [Data(Self.readerAKI.bytes)])
    #expect(registration.supportedIssuerKeyIdentifiers.isEmpty)
    #expect(store.log == [.read, .add("mdl")])
  }

  @Test("27.0 builder on a 27.x device: issuer key identifiers too; on 26.0 the 26.0 shape")
  func iOS27() async throws {
    let store = ShadowRegistrationStore()
    let report = await sync(.iOS27, device: "27.3", store: store)
    #expect(report.added == ["mdl"])
    let registration = try #require(store.registrations.first as? MobileDocumentRegistration)
    #expect(registration.supportedIssuerKeyIdentifiers == [Data(Self.issuerAKI.bytes)])

    let older = ShadowRegistrationStore()
    _ = await sync(.iOS27, device: "26.0", store: older)
    let planned26 = try #require(older.registrations.first as? MobileDocumentRegistration)
    #expect(planned26.supportedIssuerKeyIdentifiers.isEmpty)
  }

  @Test(
    "27.3 builder: VerifiableCredentialRegistration, which the strict shadow does not declare an IdentityDocumentRegistration: a per-document failure, the mdoc still added"
  )
  func iOS27Point3() async {
    let store = ShadowRegistrationStore()
    let report = await sync(.iOS27Point3, device: "27.3", store: store)
    #expect(report.added == ["mdl"])
    #expect(report.failures.map(\.documentIdentifier) == ["pid"])
    #expect(store.registrations.map(\.documentIdentifier) == ["mdl"])
  }

  @Test("A 27.3 builder on a 26.0 device plans as 26.0: the SD-JWT VC is not attempted")
  func newerBuilderOlderDevice() async throws {
    let store = ShadowRegistrationStore()
    let report = await sync(.iOS27Point3, device: "26.0", store: store)
    #expect(report.added == ["mdl"])
    #expect(report.failures.isEmpty)
    #expect(!store.log.contains(.add("pid")))
    let registration = try #require(store.registrations.first as? MobileDocumentRegistration)
    #expect(registration.supportedIssuerKeyIdentifiers.isEmpty)
  }

  @Test("Stale registrations are removed; registered ones are replaced in place")
  func stale() async {
    let store = ShadowRegistrationStore(registered: [
      MobileDocumentRegistration(
        mobileDocumentType: "org.iso.18013.5.1.mDL", supportedAuthorityKeyIdentifiers: [],
        documentIdentifier: "old"),
      MobileDocumentRegistration(
        mobileDocumentType: "org.iso.18013.5.1.mDL", supportedAuthorityKeyIdentifiers: [],
        documentIdentifier: "mdl"),
    ])
    let report = await sync(.iOS26, device: "26.0", store: store, descriptions: [Self.mdl])
    #expect(report.removed == ["old"])
    #expect(report.added == ["mdl"])
    #expect(store.registrations.map(\.documentIdentifier) == ["mdl"])
    #expect(store.log == [.read, .remove("old"), .add("mdl")])
  }

  @Test(
    "notAuthorized or a status Apple does not list: the store is not written",
    arguments: [
      IdentityDocumentProviderRegistrationStore.Status.notAuthorized, .shadowUndocumented,
    ])
  func refused(status: IdentityDocumentProviderRegistrationStore.Status) async {
    let store = ShadowRegistrationStore(status: status)
    let report = await sync(.iOS27Point3, device: "27.3", store: store)
    #expect(report.added.isEmpty)
    #expect(!store.log.contains { if case .add = $0 { true } else { false } })
    #expect(!report.failures.isEmpty)
  }

  @Test("notDetermined: nothing is read (it would throw), the first add prompts")
  func notDetermined() async {
    let store = ShadowRegistrationStore(status: .notDetermined)
    let report = await sync(.iOS26, device: "26.0", store: store, descriptions: [Self.mdl])
    #expect(report.added == ["mdl"])
    #expect(store.log == [.add("mdl")])
  }

  @Test("One failing addition stops nothing")
  func independent() async {
    let other = CredentialDescription(
      id: "mdl-2", display: CredentialDisplayInfo(title: "Licence 2"),
      credential: Self.mdl.credential)
    let store = ShadowRegistrationStore(failingAdditions: ["mdl"])
    let report = await sync(.iOS26, device: "26.0", store: store, descriptions: [Self.mdl, other])
    #expect(report.added == ["mdl-2"])
    #expect(report.failures.map(\.documentIdentifier) == ["mdl"])
  }
}
