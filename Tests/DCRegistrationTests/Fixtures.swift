import DCAPI
import DCCBOR
import DCJSON
import DCRegistration
import Foundation
import Testing

/// Fixed inputs shared by the suites. The clock is pinned (DESIGN.md: time is injected).
enum Fixtures {
  /// 2026-06-01T00:00:00Z.
  static let now = Date(timeIntervalSince1970: 1_780_272_000)
  static let readerAKI = KeyIdentifier(Array(repeating: 0xAA, count: 20))
  static let issuerAKI = KeyIdentifier(Array(repeating: 0x11, count: 20))
  static let pngIcon: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  static let jpegIcon: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00]

  static func birthDate() throws -> FullDate { try FullDate(year: 1971, month: 9, day: 1) }

  static func mdl(
    id: String = "mdl-1",
    docType: String = "org.iso.18013.5.1.mDL",
    ios: IOSRegistrationOptions = IOSRegistrationOptions(),
    android: AndroidRegistrationOptions = AndroidRegistrationOptions()
  ) throws -> CredentialDescription {
    CredentialDescription(
      id: id,
      display: CredentialDisplayInfo(
        title: "Driving Licence", subtitle: "Erika Mustermann", icon: pngIcon),
      credential: .mdoc(
        docType: docType,
        nameSpaces: [
          "org.iso.18013.5.1": [
            "family_name": RegisteredClaim("Mustermann", displayName: "Family name"),
            "birth_date": RegisteredClaim(.date(try birthDate()), displayName: "Date of birth"),
            "age_over_18": RegisteredClaim(true, displayName: "Over 18", displayValue: "Yes"),
            "portrait": RegisteredClaim(
              cbor: .byteString([1, 2, 3]), displayName: "Portrait", displayValue: "Photo"),
          ]
        ]),
      ios: ios,
      android: android)
  }

  static func pid(
    id: String = "pid-1",
    vct: String = "urn:eudi:pid:1",
    ios: IOSRegistrationOptions = IOSRegistrationOptions(),
    android: AndroidRegistrationOptions = AndroidRegistrationOptions()
  ) -> CredentialDescription {
    CredentialDescription(
      id: id,
      display: CredentialDisplayInfo(title: "PID", subtitle: "Erika", icon: jpegIcon),
      credential: .sdJWT(
        vct: vct,
        claims: [
          ["given_name"]: RegisteredClaim("Erika", displayName: "Given name"),
          ["address", "locality"]: RegisteredClaim("Berlin", displayName: "City"),
          ["address", "postal_code"]: RegisteredClaim("10115"),
          ["age_in_years"]: RegisteredClaim(54),
          ["nationalities"]: RegisteredClaim(json: ["DE"]),
        ]),
      ios: ios,
      android: android)
  }

  /// A minimal input for golden bytes: one element, one claim, tiny icons.
  static func goldenInput() -> [CredentialDescription] {
    [
      CredentialDescription(
        id: "m",
        display: CredentialDisplayInfo(title: "T", subtitle: "S", icon: [0x01, 0x02]),
        credential: .mdoc(
          docType: "org.iso.18013.5.1.mDL",
          nameSpaces: ["ns": ["e": RegisteredClaim("v", displayName: "E")]]),
        android: AndroidRegistrationOptions(
          issuerAuthorityKeyIdentifiers: [KeyIdentifier([0x11])],
          supportedAuthorityKeyIdentifiers: [])),
      CredentialDescription(
        id: "s",
        display: CredentialDisplayInfo(title: "U", subtitle: "", icon: [0x03]),
        credential: .sdJWT(vct: "t", claims: [["a", "b"]: RegisteredClaim(7)])),
    ]
  }
}

/// The code of the `RegistrationError` an expression throws, or nil when it throws none.
func registrationErrorCode(_ body: () throws -> Void) -> RegistrationErrorCode? {
  do {
    try body()
    return nil
  } catch let error as RegistrationError {
    return error.code
  } catch {
    Issue.record("unexpected error \(error)")
    return nil
  }
}
