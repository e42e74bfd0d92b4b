import DCCrypto
import DCX509
import Foundation
import Testing

/// `CertificateMemo`: parsed certificates kept by their DER bytes, bounded in count and size,
/// returning exactly what parsing returns.
@Suite("Certificate memo")
struct CertificateMemoTests {
  /// Distinct self-signed certificates (fresh keys), each with its DER.
  private func certificates(_ count: Int) throws -> [Certificate] {
    try (0..<count).map { index in
      let key = try ECPrivateKey(curve: .p256)
      return try CertificateBuilder.readerRoot(
        commonName: "Memo \(index)", publicKey: key.publicKey, notBefore: Fixtures.start,
        notAfter: Fixtures.end
      ).selfSigned(signer: key)
    }
  }

  @Test("A kept certificate equals a fresh parse, field for field")
  func sameAsParsing() throws {
    let memo = CertificateMemo(capacity: 4, maximumDERByteCount: 16 * 1024)
    let der = try certificates(1)[0].derBytes
    let first = try memo.certificate(derEncoded: der)
    let second = try memo.certificate(derEncoded: der)
    let parsed = try Certificate(derEncoded: der)
    #expect(memo.count == 1)
    for certificate in [first, second] {
      #expect(certificate == parsed)
      #expect(certificate.tbsCertificateBytes == parsed.tbsCertificateBytes)
      #expect(certificate.subject == parsed.subject)
      #expect(certificate.publicKey == parsed.publicKey)
      #expect(certificate.extensions == parsed.extensions)
    }
  }

  @Test("At most `capacity` certificates are kept; the oldest goes first")
  func bounded() throws {
    let memo = CertificateMemo(capacity: 3, maximumDERByteCount: 16 * 1024)
    let all = try certificates(5)
    for certificate in all {
      #expect(try memo.certificate(derEncoded: certificate.derBytes) == certificate)
      #expect(memo.count <= 3)
    }
    #expect(memo.count == 3)
    // Asking again for the newest three keeps the count; each answer is still right.
    for certificate in all.suffix(3) {
      #expect(try memo.certificate(derEncoded: certificate.derBytes) == certificate)
    }
    #expect(memo.count == 3)
    // The oldest was dropped: asking for it parses it again and evicts another.
    #expect(try memo.certificate(derEncoded: all[0].derBytes) == all[0])
    #expect(memo.count == 3)
    memo.removeAll()
    #expect(memo.count == 0)
  }

  @Test("A certificate longer than the size bound is returned but not kept")
  func sizeBound() throws {
    let certificate = try certificates(1)[0]
    let memo = CertificateMemo(
      capacity: 4, maximumDERByteCount: certificate.derBytes.count - 1)
    #expect(try memo.certificate(derEncoded: certificate.derBytes) == certificate)
    #expect(memo.count == 0)
    let roomy = CertificateMemo(capacity: 4, maximumDERByteCount: certificate.derBytes.count)
    #expect(try roomy.certificate(derEncoded: certificate.derBytes) == certificate)
    #expect(roomy.count == 1)
  }

  @Test("Bytes that do not parse throw the parser's error every time and are never kept")
  func malformedNotKept() throws {
    let memo = CertificateMemo(capacity: 4, maximumDERByteCount: 16 * 1024)
    var der = try certificates(1)[0].derBytes
    der.append(0)  // a trailing byte
    let direct = #expect(throws: CertificateError.self) { try Certificate(derEncoded: der) }
    #expect(direct?.code == .invalidDER)
    for _ in 0..<2 {
      let error = #expect(throws: CertificateError.self) { try memo.certificate(derEncoded: der) }
      #expect(error == direct)
    }
    #expect(memo.count == 0)
  }

  @Test("A memo of capacity zero keeps nothing")
  func zeroCapacity() throws {
    let memo = CertificateMemo(capacity: 0, maximumDERByteCount: 16 * 1024)
    let certificate = try certificates(1)[0]
    #expect(try memo.certificate(derEncoded: certificate.derBytes) == certificate)
    #expect(memo.count == 0)
  }
}
