package import DCCrypto
import DCEncoding
package import DCJSON
package import DCX509
package import Foundation

extension ETSIListContent {
  /// Signs the content as a LoTE (ETSI TS 119 602 v1.1.1 JSON binding) with a JAdES-B-B compact
  /// JWS (ETSI TS 119 182-1 §6.2.1) by `signer`, whose certificate is `certificate`; the
  /// signing time is the issue date. For development lists and tests.
  package func signedLoTE(signer: any Signer, certificate: Certificate) throws(TrustError)
    -> [UInt8]
  {
    try Self.signLoTE(
      payload: loteJSON().serializedBytes(), signer: signer, certificate: certificate,
      signingTime: issued)
  }

  /// Signs any payload as a LoTE's JAdES-B-B compact JWS (tests that need a payload the
  /// builder would not write).
  package static func signLoTE(
    payload: [UInt8], signer: any Signer, certificate: Certificate, signingTime: Date
  ) throws(TrustError) -> [UInt8] {
    let jws = try JAdESCompact.sign(
      payload: payload, signer: signer, certificate: certificate, signingTime: signingTime,
      type: "JOSE")
    return Array(jws.utf8)
  }

  /// The LoTE payload (TS 119 602 clause 6, member names as the JSON schema spells them).
  package func loteJSON() -> JSONValue {
    var info: [(String, JSONValue)] = [
      ("LoTEVersionIdentifier", 1), ("LoTESequenceNumber", .integer(Int64(sequenceNumber))),
      ("SchemeOperatorName", names(operatorName)), ("SchemeTerritory", .string(territory)),
      ("ListIssueDateTime", .string(ETSIDateTime.format(issued))),
      ("NextUpdate", .string(ETSIDateTime.format(nextUpdate))),
    ]
    if !pointers.isEmpty { info.append(("PointerToOtherLoTE", lotePointers())) }
    let entities: [JSONValue] = entries.map { entry in
      var service: [(String, JSONValue)] = [
        ("ServiceName", names(entry.name)),
        ("ServiceTypeIdentifier", .string(entry.serviceTypeURI)),
        ("ServiceDigitalIdentity", Self.identity(entry.certificates)),
      ]
      if let status = entry.status { service.append(("ServiceStatus", .string(status))) }
      return [
        "TrustedEntityInformation": ["TEName": names(entry.name)],
        "TrustedEntityServices": [["ServiceInformation": .object(service)]],
      ]
    }
    return [
      "LoTE": [
        "ListAndSchemeInformation": .object(info), "TrustedEntitiesList": .array(entities),
      ]
    ]
  }

  /// `PointerToOtherLoTE` (TS 119 602 §6.3.13).
  func lotePointers() -> JSONValue {
    .array(
      pointers.map { pointer in
        [
          "LoTELocation": .string(pointer.location.absoluteString),
          "ServiceDigitalIdentities": [Self.identity(pointer.certificates)],
          "LoTEQualifiers": [
            [
              "SchemeOperatorName": names(operatorName),
              "SchemeTerritory": .string(pointer.territory),
              "MimeType": "application/jose",
            ]
          ],
        ]
      })
  }

  /// A multilingual name in English (TS 119 602 `MultiLangString`).
  func names(_ text: String) -> JSONValue { [["lang": "en", "value": .string(text)]] }

  /// A `ServiceDigitalIdentity` of certificates (TS 119 602 §6.6.3).
  static func identity(_ certificates: [Certificate]) -> JSONValue {
    ["X509Certificates": .array(certificates.map { ["val": .string(Base64.encode($0.derBytes))] })]
  }
}
