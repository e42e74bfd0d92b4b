import DCJSON
import DCQL
import Foundation
import Testing

/// A fixed wallet: an mDL, two PIDs (SD-JWT VC) with different values, and a photo ID.
enum Wallet {
  static let mdlAKI: [UInt8] = [0x01, 0x02, 0x03]  // base64url "AQID"
  static let pidAKI: [UInt8] = [0xfb, 0xff]  // base64url "-_8"
  static let pidVCT = "https://credentials.example.com/identity_credential"

  /// Index 0. Has every element the complex_mdoc example asks of an mDL, address included.
  static let mdl = DCQLCredentialDescription.mdoc(
    docType: "org.iso.18013.5.1.mDL",
    namespaces: [
      "org.iso.18013.5.1": [
        "given_name": "Erika", "family_name": "Mustermann", "portrait": "<jpeg>",
        "resident_address": "Heidestrasse 17", "resident_country": "DE", "age_over_18": true,
        "birth_year": 1964,
      ]
    ],
    authorityKeyIdentifiers: [[0xaa], mdlAKI])

  /// Index 1. Postal code 90210, no region; has address.street_address.
  static let pid1 = DCQLCredentialDescription.sdJWTVC(
    vct: pidVCT,
    claims: [
      "given_name": "John", "family_name": "Doe", "date_of_birth": "1980-01-01",
      "postal_code": "90210", "locality": "Beverly Hills", "birth_year": 1980,
      "age_equal_or_over": ["18": true, "65": false],
      "address": ["street_address": "123 Main St", "locality": "Beverly Hills"],
      "nationalities": ["US", "DE"],
    ],
    authorityKeyIdentifiers: [pidAKI])

  /// Index 2. Other values, a region, no address object.
  static let pid2 = DCQLCredentialDescription.sdJWTVC(
    vct: pidVCT,
    claims: [
      "given_name": "Jane", "family_name": "Roe", "date_of_birth": "1990-02-02",
      "postal_code": "12345", "locality": "Springfield", "region": "IL", "birth_year": 1990,
      "nationalities": ["FR"],
    ])

  /// Index 3. Identity elements of the photo ID, but no resident address.
  static let photoID = DCQLCredentialDescription.mdoc(
    docType: "org.iso.23220.photoid.1",
    namespaces: [
      "org.iso.18013.5.1": [
        "given_name": "Erika", "family_name": "Mustermann", "portrait": "<jpeg>",
      ]
    ])

  static let all: [any DCQLCredential] = [mdl, pid1, pid2, photoID]

  static func example(_ name: String) throws -> DCQLQuery {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    return try DCQLQuery(try #require(file["queries"]?[name]))
  }
}
