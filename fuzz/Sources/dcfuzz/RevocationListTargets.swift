import DCCrypto
import DCTrust
import DCX509
import Foundation

// Issue 29: RFC 5280 CRLs and the ISO/IEC 18013-5 VICAL / RICAL.

/// A CRL from DER or PEM; what reads keeps its bytes, its entries are found by serial, and a
/// signature check with an unrelated certificate fails without trapping.
@Sendable func fuzzCRL(_ bytes: [UInt8]) {
  guard let crl = try? CertificateRevocationList(derOrPEM: bytes) else { return }
  if bytes.first == 0x30, crl.derBytes != bytes { violated("CRL bytes differ from the input") }
  for entry in crl.revokedCertificates.prefix(16)
  where crl.entry(forSerialNumber: entry.serialNumber) == nil {
    violated("a listed serial is not found")
  }
  _ = crl.isCurrent(at: fuzzClock)
  if crl.isSignatureValid(issuedBy: fuzzListSigner) { violated("a fuzzed CRL verified") }
  let check = RevocationCheck(crls: [crl], policy: .failClosed)
  _ = CertificateValidator(trustAnchors: [fuzzListSigner], revocation: check)
    .validate(chain: [fuzzListSigner], at: fuzzClock)
}

/// A VICAL as a whole message (refused: no operator certificate matches), and its payload read
/// directly, past the signature check.
@Sendable func fuzzVICAL(_ bytes: [UInt8]) {
  fuzzCertificateAuthorityList(bytes, kind: .vical)
}

/// A RICAL, as ``fuzzVICAL(_:)``.
@Sendable func fuzzRICAL(_ bytes: [UInt8]) {
  fuzzCertificateAuthorityList(bytes, kind: .rical)
}

func fuzzCertificateAuthorityList(_ bytes: [UInt8], kind: TrustedListKind) {
  let verify = kind == .vical ? TrustedList.verifyingVICAL : TrustedList.verifyingRICAL
  if (try? verify(bytes, [fuzzListSigner], fuzzClock)) != nil {
    violated("a fuzzed \(kind.rawValue) verified")
  }
  guard
    let list = try? CertificateAuthorityList.reading(
      payload: bytes, kind: kind, signer: fuzzListSigner, digest: [], at: fuzzClock)
  else { return }
  if list.entities.count > 4096 { violated("more entries than the limit") }
  _ = TrustSources(lists: [list]).decide(
    chain: [fuzzListSigner], for: .credentialIssuer, at: fuzzClock)
}

let fuzzClock = Date(timeIntervalSince1970: 1_780_000_000)

/// A certificate made once, with a key no input can sign for.
let fuzzListSigner: Certificate = {
  do {
    let key = try ECPrivateKey(curve: .p256)
    return try CertificateBuilder.iaca(
      commonName: "Fuzz List Signer", country: "UT", publicKey: key.publicKey,
      notBefore: fuzzClock - 86_400, notAfter: fuzzClock + 86_400
    ).selfSigned(signer: key)
  } catch {
    violated("cannot make the fuzz signer: \(error)")
  }
}()
