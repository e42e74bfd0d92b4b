import DCCrypto
import DCTrust
import DCX509
import Foundation

// The ETSI trusted lists (issue 29): LoTE (TS 119 602 JSON in a JAdES compact JWS) and TS 119 612
// XML lists. Random bytes never carry a valid signature, so each target also reads the content
// without the signature check (the package-only fuzzing entries), where the readers' bounds
// (docs/LIMITS.md, "Trusted lists") are what keeps every input cheap.

/// A fixed development operator, made once per process.
let fuzzOperator: Certificate = {
  guard let key = try? ECPrivateKey(curve: .p256),
    let certificate = try? CertificateBuilder.readerRoot(
      commonName: "Fuzz Operator", publicKey: key.publicKey,
      notBefore: Date(timeIntervalSince1970: 0),
      notAfter: Date(timeIntervalSince1970: 4_000_000_000)
    ).selfSigned(signer: key)
  else { violated("could not make the fuzz operator certificate") }
  return certificate
}()

/// A LoTE: the JAdES checks on the whole input, and the payload reader on it as JSON.
@Sendable func fuzzLoTE(_ bytes: [UInt8]) {
  if (try? TrustedList.verifyingLoTE(bytes, operatorCertificates: [fuzzOperator])) != nil {
    violated("a list verified against a key nobody signed with")
  }
  guard let list = try? TrustedList.unverifiedLoTEPayloadForFuzzing(bytes, signer: fuzzOperator)
  else { return }
  checkBounds(list)
}

/// A TS 119 612 list: parsing and the signature checks, and the reader as a TSL and as a LOTL.
@Sendable func fuzzTSL(_ bytes: [UInt8]) {
  if (try? TrustedList.verifyingTSL(bytes, operatorCertificates: [fuzzOperator])) != nil {
    violated("a list verified against a key nobody signed with")
  }
  for kind in [TrustedListKind.tsl, .lotl] {
    if let list = try? TrustedList.unverifiedXMLListForFuzzing(
      bytes, kind: kind, signer: fuzzOperator)
    {
      checkBounds(list)
    }
  }
}

/// What a read list may hold, whatever the input.
func checkBounds(_ list: TrustedList) {
  if list.entities.count > ETSIListLimits.maxEntities * ETSIListLimits.maxServicesPerEntity {
    violated("\(list.entities.count) entities")
  }
  if list.pointers.count > ETSIListLimits.maxPointers {
    violated("\(list.pointers.count) pointers")
  }
}
