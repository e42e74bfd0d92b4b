import DCCrypto
import DCTestSupport
import DCX509
import Foundation
import Testing

/// A CA with a CRL distribution point on its leaf, made fresh for each test.
struct RevocationPKI {
  static let now = Date(timeIntervalSince1970: 1_780_000_000)
  let caKey: ECPrivateKey
  let ca: Certificate
  let leaf: Certificate
  let plainLeaf: Certificate

  init(caKeyUsage: KeyUsage = [.keyCertSign, .cRLSign]) throws {
    let from = Self.now.addingTimeInterval(-86_400 * 30)
    let until = Self.now.addingTimeInterval(86_400 * 365)
    caKey = try ECPrivateKey(curve: .p256)
    var builder = CertificateBuilder.iaca(
      commonName: "CRL Test CA", country: "UT", publicKey: caKey.publicKey, notBefore: from,
      notAfter: until)
    builder.extensions[1] = .keyUsage(caKeyUsage)
    ca = try builder.selfSigned(signer: caKey)
    leaf = try CertificateBuilder.documentSigner(
      commonName: "CRL Test DS", country: "UT", publicKey: try ECPrivateKey(curve: .p256).publicKey,
      notBefore: from, notAfter: until, crlDistributionPoint: "https://ca.example/crl",
      serialNumber: [0x01, 0x02, 0x03]
    ).issued(by: ca, signer: caKey)
    plainLeaf = try CertificateBuilder.documentSigner(
      commonName: "CRL Test DS 2", country: "UT",
      publicKey: try ECPrivateKey(curve: .p256).publicKey, notBefore: from, notAfter: until,
      serialNumber: [0x04]
    ).issued(by: ca, signer: caKey)
  }

  func crl(
    revoking serials: [[UInt8]] = [], at date: Date = RevocationPKI.now,
    thisUpdate: Date? = nil, nextUpdate: Date? = RevocationPKI.now.addingTimeInterval(86_400),
    signer: (any Signer)? = nil
  ) throws -> CertificateRevocationList {
    try CertificateRevocationList.build(
      issuer: ca, signer: signer ?? caKey,
      thisUpdate: thisUpdate ?? RevocationPKI.now.addingTimeInterval(-3600),
      nextUpdate: nextUpdate,
      revoked: serials.map {
        RevokedCertificate(
          serialNumber: $0, revocationDate: date.addingTimeInterval(-60),
          reasonCode: 1)
      })
  }

  func validate(
    _ leaf: Certificate, crls: [CertificateRevocationList], policy: RevocationPolicy = .failClosed,
    at time: Date = RevocationPKI.now
  ) -> ChainValidationResult {
    CertificateValidator(
      trustAnchors: [ca], revocation: RevocationCheck(crls: crls, policy: policy)
    ).validate(chain: [leaf], at: time)
  }
}

@Suite("CRLs (RFC 5280 §5) and the revocation check (§6.3)")
struct RevocationTests {
  @Test("a built CRL reads back: issuer, times, entries, number, AKI, PEM")
  func roundTrip() throws {
    let pki = try RevocationPKI()
    let crl = try pki.crl(revoking: [pki.leaf.serialNumber, [0x7F]])
    #expect(crl.issuer == pki.ca.subject)
    #expect(crl.thisUpdate == RevocationPKI.now.addingTimeInterval(-3600))
    #expect(crl.nextUpdate == RevocationPKI.now.addingTimeInterval(86_400))
    #expect(crl.revokedCertificates.count == 2)
    #expect(crl.entry(forSerialNumber: pki.leaf.serialNumber)?.reasonCode == 1)
    #expect(crl.entry(forSerialNumber: [0x05]) == nil)
    #expect(crl.crlNumber == [0x01])
    #expect(crl.authorityKeyIdentifier == pki.ca.subjectKeyIdentifier)
    #expect(crl.isSignatureValid(issuedBy: pki.ca))
    #expect(try CertificateRevocationList(pemEncoded: crl.pemString) == crl)
    #expect(try CertificateRevocationList(derOrPEM: Array(crl.pemString.utf8)) == crl)
    #expect(pki.leaf.crlDistributionPoints == ["https://ca.example/crl"])
  }

  @Test("a listed certificate fails the chain; an unlisted one is good")
  func revoked() throws {
    let pki = try RevocationPKI()
    let crl = try pki.crl(revoking: [pki.leaf.serialNumber])
    expectUntrusted(pki.validate(pki.leaf, crls: [crl]), "CRL Test DS", "is revoked", "010203")
    expectUntrusted(
      pki.validate(pki.leaf, crls: [crl], policy: .failOpen), "is revoked", "reason code 1")
    // Without the check the same chain is trusted: the check is what refuses it.
    let unchecked = CertificateValidator(trustAnchors: [pki.ca]).validate(
      chain: [pki.leaf], at: RevocationPKI.now)
    #expect(unchecked.trustedChain?.revocation == .notChecked)
    let clean = try pki.crl(revoking: [[0x09]])
    #expect(pki.validate(pki.leaf, crls: [clean]).trustedChain?.revocation == .good)
  }

  @Test("a revocation dated after the validation time does not apply yet")
  func revocationDate() throws {
    let pki = try RevocationPKI()
    let crl = try pki.crl(
      revoking: [pki.leaf.serialNumber], at: RevocationPKI.now.addingTimeInterval(3600))
    #expect(pki.validate(pki.leaf, crls: [crl]).trustedChain?.revocation == .good)
  }

  @Test("no CRL for a certificate with a distribution point: unknown, by policy")
  func unknown() throws {
    let pki = try RevocationPKI()
    expectUntrusted(pki.validate(pki.leaf, crls: []), "revocation status unknown", "ca.example")
    let open = pki.validate(pki.leaf, crls: [], policy: .failOpen)
    #expect(open.trustedChain?.revocation == .unknown([pki.leaf]))
    // A certificate without a distribution point and no CRL is not subject to the check.
    #expect(pki.validate(pki.plainLeaf, crls: []).trustedChain?.revocation == .good)
  }

  @Test("a CRL signed by another key is not used: it cannot revoke, nor vouch")
  func otherKey() throws {
    let pki = try RevocationPKI()
    let forged = try pki.crl(
      revoking: [pki.leaf.serialNumber], signer: try ECPrivateKey(curve: .p256))
    #expect(!forged.isSignatureValid(issuedBy: pki.ca))
    expectUntrusted(pki.validate(pki.leaf, crls: [forged]), "unknown", "does not verify")
    let open = pki.validate(pki.leaf, crls: [forged], policy: .failOpen)
    #expect(open.trustedChain?.revocation == .unknown([pki.leaf]))
    expectUntrusted(pki.validate(pki.plainLeaf, crls: [forged]), "unknown", "does not verify")
  }

  @Test("a tampered CRL (an entry removed after signing) does not verify")
  func tampered() throws {
    let pki = try RevocationPKI()
    let crl = try pki.crl(revoking: [pki.leaf.serialNumber])
    var bytes = crl.derBytes
    // Change the revoked serial 01 02 03 to 01 02 04 inside the signed TBSCertList.
    let serial: [UInt8] = [0x02, 0x03, 0x01, 0x02, 0x03]
    let at = try #require(
      (0...(bytes.count - serial.count)).first { Array(bytes[$0..<$0 + serial.count]) == serial })
    bytes[at + 4] = 0x04
    let tampered = try CertificateRevocationList(derEncoded: bytes)
    #expect(tampered.entry(forSerialNumber: pki.leaf.serialNumber) == nil)
    #expect(!tampered.isSignatureValid(issuedBy: pki.ca))
    expectUntrusted(pki.validate(pki.leaf, crls: [tampered]), "unknown", "does not verify")
  }

  @Test("a CRL past its nextUpdate is not current, but a revocation in it still counts")
  func stale() throws {
    let pki = try RevocationPKI()
    let later = RevocationPKI.now.addingTimeInterval(2 * 86_400)
    let clean = try pki.crl()
    expectUntrusted(pki.validate(pki.leaf, crls: [clean], at: later), "no current CRL")
    #expect(pki.validate(pki.leaf, crls: [clean]).trustedChain?.revocation == .good)
    let listing = try pki.crl(revoking: [pki.leaf.serialNumber])
    expectUntrusted(
      pki.validate(pki.leaf, crls: [listing], policy: .failOpen, at: later), "is revoked")
    // A CRL issued after the validation time is not current then either.
    let future = try pki.crl(thisUpdate: RevocationPKI.now.addingTimeInterval(60))
    expectUntrusted(pki.validate(pki.leaf, crls: [future]), "no current CRL")
  }

  @Test("an issuer whose keyUsage lacks cRLSign cannot sign CRLs")
  func crlSign() throws {
    let pki = try RevocationPKI(caKeyUsage: [.keyCertSign])
    let crl = try pki.crl(revoking: [pki.leaf.serialNumber])
    #expect(!crl.isSignatureValid(issuedBy: pki.ca))
    expectUntrusted(pki.validate(pki.leaf, crls: [crl]), "unknown", "cRLSign")
  }

  @Test("a CRL with a critical extension not processed here is read but never used")
  func unhandledCritical() throws {
    let pki = try RevocationPKI()
    // issuingDistributionPoint (RFC 5280 §5.2.5), critical, onlyContainsUserCerts.
    let idp = CertificateExtension(
      oid: ASN1ObjectIdentifier(arcs: [2, 5, 29, 28]), critical: true,
      value: [0x30, 0x03, 0x81, 0x01, 0xFF])
    let crl = try signCRL(pki, extraExtensions: [idp], entries: [pki.leaf.serialNumber])
    #expect(crl.isSignatureValid(issuedBy: pki.ca))
    #expect(crl.entry(forSerialNumber: pki.leaf.serialNumber) != nil)
    expectUntrusted(pki.validate(pki.leaf, crls: [crl]), "unknown", "not processed")
  }

  @Test("malformed CRLs are typed errors", arguments: MalformedCRL.allCases)
  func malformed(_ kind: MalformedCRL) throws {
    let pki = try RevocationPKI()
    let bytes: [UInt8]
    switch kind {
    case .truncated: bytes = Array(try pki.crl().derBytes.dropLast())
    case .version3: bytes = try signCRLBytes(pki, version: 2)
    case .emptyRevoked: bytes = try signCRLBytes(pki, emptyRevokedList: true)
    case .certificate: bytes = pki.ca.derBytes
    case .duplicateExtension:
      let number = CertificateExtension(
        oid: ASN1ObjectIdentifier(arcs: [2, 5, 29, 20]), critical: false, value: [0x02, 0x01, 0x01])
      bytes = try signCRLBytes(pki, extraExtensions: [number])
    }
    #expect(throws: CertificateError.self) { try CertificateRevocationList(derEncoded: bytes) }
    #expect(throws: CertificateError.self) {
      try CertificateRevocationList(pemEncoded: pki.ca.pemString)
    }
  }

  @Test("limits: 4 MiB and 65 536 entries, at and past each")
  func limits() throws {
    let pki = try RevocationPKI()
    let serials: [[UInt8]] = (0..<CertificateRevocationList.maximumEntries).map {
      (index: Int) -> [UInt8] in
      let high = UInt8(truncatingIfNeeded: index >> 8)
      let low = UInt8(truncatingIfNeeded: index)
      return [0x10, high, low]
    }
    let atLimit = try pki.crl(revoking: serials)
    #expect(atLimit.revokedCertificates.count == 65_536)
    #expect(throws: CertificateError.self) {
      try pki.crl(revoking: serials + [[0x7F, 0x7F, 0x7F]])
    }
    let oversize = [UInt8](repeating: 0, count: CertificateRevocationList.maximumLength + 1)
    #expect(throws: CertificateError.self) {
      try CertificateRevocationList(derEncoded: oversize)
    }
    // At the size limit the input reaches the DER reader (and fails there, not on size).
    var exact = [UInt8](repeating: 0, count: CertificateRevocationList.maximumLength)
    exact[0] = 0x30
    do {
      _ = try CertificateRevocationList(derEncoded: exact)
    } catch {
      #expect(error.code == .invalidDER)
    }
  }
}

enum MalformedCRL: CaseIterable, Sendable {
  case truncated, version3, emptyRevoked, certificate, duplicateExtension
}

/// Signs a CRL by hand, for shapes the builder does not make, and reads it.
func signCRL(
  _ pki: RevocationPKI, extraExtensions: [CertificateExtension] = [], entries: [[UInt8]] = []
) throws -> CertificateRevocationList {
  try CertificateRevocationList(
    derEncoded: try signCRLBytes(pki, extraExtensions: extraExtensions, entries: entries))
}

/// The DER of a hand-signed CRL.
func signCRLBytes(
  _ pki: RevocationPKI, version: Int = 1, extraExtensions: [CertificateExtension] = [],
  entries: [[UInt8]] = [], emptyRevokedList: Bool = false
) throws -> [UInt8] {
  let algorithm: [UInt8] = [
    0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02,
  ]
  var fields: [[UInt8]] = [
    DER.integer(version), algorithm, pki.ca.subject.derBytes,
    DER.time(RevocationPKI.now.addingTimeInterval(-60)),
    DER.time(RevocationPKI.now.addingTimeInterval(3600)),
  ]
  if emptyRevokedList || !entries.isEmpty {
    fields.append(
      DER.sequence(
        entries.map {
          DER.sequence([DER.integer(unsignedBytes: $0), DER.time(RevocationPKI.now)])
        }))
  }
  let number = CertificateExtension(
    oid: ASN1ObjectIdentifier(arcs: [2, 5, 29, 20]), critical: false, value: DER.integer(1))
  let extensions = [number] + extraExtensions
  fields.append(
    DER.explicit(
      0,
      DER.sequence(
        extensions.map {
          DER.sequence(
            [DER.objectIdentifier($0.oid)] + ($0.critical ? [DER.boolean(true)] : [])
              + [DER.octetString($0.value)])
        })))
  let tbs = DER.sequence(fields)
  let signature = try pki.caKey.signature(for: tbs)
  return DER.sequence([tbs, algorithm, DER.bitString(signature.derRepresentation)])
}
