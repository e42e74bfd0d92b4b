import DCTestSupport
import DCX509
import Foundation
import Testing

@Suite("Certificate parsing: hostile input never crashes")
struct ParsingRobustnessTests {
  static let names = ["iaca_der", "document_signer_der", "reader_root_der", "reader_der"]

  @Test("every proper prefix of a real certificate is refused", arguments: names)
  func truncated(name: String) throws {
    let der = try #require(try Fixtures.annexD()[name])
    for length in 0..<der.count {
      let invalidDERError = #expect(throws: CertificateError.self, "prefix \(length)") {
        try Certificate(derEncoded: Array(der.prefix(length)))
      }
      #expect(invalidDERError?.code == .invalidDER)
    }
    _ = try Certificate(derEncoded: der)
  }

  @Test("trailing bytes after the certificate are refused")
  func trailing() throws {
    let der = try #require(try Fixtures.annexD()["iaca_der"])
    for suffix: [UInt8] in [[0x00], [0x30, 0x00], Array(der)] {
      do {
        _ = try Certificate(derEncoded: der + suffix)
        Issue.record("accepted trailing bytes")
      } catch {
        #expect(error.code == .invalidDER)
        #expect(error.reason.contains("trailing"))
      }
    }
  }

  @Test("non-minimal length encoding of a real certificate is refused")
  func nonMinimalLength() throws {
    let der = try #require(try Fixtures.annexD()["iaca_der"])
    #expect(Array(der.prefix(2)) == [0x30, 0x82])
    let padded = [0x30, 0x83, 0x00] + der.dropFirst(2)
    do {
      _ = try Certificate(derEncoded: Array(padded))
      Issue.record("accepted a non-minimal length")
    } catch {
      #expect(error.reason.contains("non-minimal"))
    }
  }

  @Test("deep nesting inside a certificate-shaped value is refused")
  func deepNesting() throws {
    var value = DER.null
    for _ in 0..<64 { value = DER.sequence([value]) }
    let invalidDERError = #expect(throws: CertificateError.self) {
      try Certificate(derEncoded: value)
    }
    #expect(invalidDERError?.code == .invalidDER)
  }

  /// Who signed each Annex D certificate.
  static let issuers = [
    "iaca_der": "iaca_der", "document_signer_der": "iaca_der",
    "reader_root_der": "reader_root_der", "reader_der": "reader_root_der",
  ]

  /// A single-byte corruption is refused, or parses into a certificate that keeps the corrupted
  /// bytes exactly and whose signature no longer verifies: no corruption yields another
  /// certificate the genuine issuer appears to have signed (RFC 5280 §4.1.1.3).
  @Test("every single-byte corruption is refused or breaks the signature", arguments: names)
  func corruption(name: String) throws {
    let certificates = try Fixtures.annexD()
    let der = try #require(certificates[name])
    let issuerName = try #require(Self.issuers[name])
    let issuer = try Certificate(derEncoded: try #require(certificates[issuerName]))
    #expect(try Certificate(derEncoded: der).isSignatureValid(issuedBy: issuer))
    var accepted = 0
    for index in der.indices {
      for flip: UInt8 in [0x01, 0x80, 0xFF] {
        var bytes = der
        bytes[index] ^= flip
        guard let parsed = try? Certificate(derEncoded: bytes) else { continue }
        accepted += 1
        #expect(parsed.derBytes == bytes, "byte \(index) ^ \(flip)")
        #expect(
          !parsed.isSignatureValid(issuedBy: issuer), "byte \(index) ^ \(flip) still verifies")
      }
    }
    // Flips inside names, times, keys, serials and signatures parse; the test above is what
    // makes them harmless.
    #expect(accepted > 0)
  }

  @Test("structural rules: version, algorithm agreement, duplicate extensions")
  func structure() throws {
    let chain = try Fixtures.mdocChain()
    let root = try DER.parse(chain.leaf.derBytes)
    let tbs = root.children[0]
    let rest = root.children[1].encodedBytes + root.children[2].encodedBytes

    func rebuild(_ fields: [[UInt8]], outer: [UInt8]? = nil) -> [UInt8] {
      DER.sequence([DER.sequence(fields), outer ?? Array(rest)])
    }
    let fields = tbs.children.map { Array($0.encodedBytes) }

    // The TBS signature field differs from the outer algorithm (RFC 5280 §4.1.1.2).
    var swapped = fields
    swapped[2] = DER.sequence([DER.objectIdentifier(SignatureAlgorithm.ecdsaWithSHA512.oid)])
    expectCertificateError(rebuild(swapped), "differs from TBS signature")

    // A duplicated extension (RFC 5280 §4.2).
    let extensionsNode = tbs.children[7].children[0]
    let firstExtension = Array(extensionsNode.children[0].encodedBytes)
    var duplicated = fields
    duplicated[7] = DER.explicit(
      3, DER.sequence(extensionsNode.children.map { Array($0.encodedBytes) } + [firstExtension]))
    expectCertificateError(rebuild(duplicated), "appears twice")

    // Extensions in a v1 certificate (no version field).
    expectCertificateError(rebuild(Array(fields.dropFirst())), "extensions in a version 1")

    // A missing field and an extra trailing member.
    expectCertificateError(rebuild(Array(fields.dropLast(2)) + [fields[7]]), "")
    expectCertificateError(rebuild(fields + [DER.null]), "unexpected trailing members")

    // A malformed known extension value.
    var badBC = fields
    badBC[7] = DER.explicit(
      3,
      DER.sequence([
        DER.sequence([
          DER.objectIdentifier(.basicConstraints),
          DER.octetString(DER.sequence([DER.boolean(true), DER.boolean(true)])),
        ])
      ]))
    expectCertificateError(rebuild(badBC), "basicConstraints")
  }
}

func expectCertificateError(
  _ bytes: [UInt8], _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    _ = try Certificate(derEncoded: bytes)
    Issue.record("expected an error containing '\(fragment)'", sourceLocation: sourceLocation)
  } catch {
    #expect(
      fragment.isEmpty || error.reason.contains(fragment), "\(error)",
      sourceLocation: sourceLocation)
  }
}
