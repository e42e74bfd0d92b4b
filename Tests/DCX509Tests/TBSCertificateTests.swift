import DCTestSupport
import DCX509
import Foundation
import Testing

/// The rules `TBSCertificate`, `Validity` and the version and extensions readers enforce, each
/// shown by a certificate that breaks only that rule (RFC 5280 §4.1).
@Suite("TBSCertificate parts")
struct TBSCertificateTests {
  /// The leaf's TBS fields, and a function that rebuilds a certificate around changed fields.
  static func parts() throws -> (fields: [[UInt8]], rebuild: ([[UInt8]]) -> [UInt8]) {
    let chain = try Fixtures.mdocChain()
    let root = try DER.parse(chain.leaf.derBytes)
    let rest = Array(root.children[1].encodedBytes + root.children[2].encodedBytes)
    let fields = root.children[0].children.map { Array($0.encodedBytes) }
    return (fields, { DER.sequence([DER.sequence($0), rest]) })
  }

  @Test("version: one INTEGER of 0 to 2 inside [0]")
  func version() throws {
    let (fields, rebuild) = try Self.parts()
    var v4 = fields
    v4[0] = DER.explicit(0, DER.integer(3))
    expectCertificateError(rebuild(v4), "unknown certificate version 4")
    var two = fields
    two[0] = DER.encode(0xA0, DER.integer(2) + DER.integer(2))
    expectCertificateError(rebuild(two), "version [0] must hold one INTEGER")
  }

  @Test("extensions: [3] holds one non-empty SEQUENCE")
  func extensions() throws {
    let (fields, rebuild) = try Self.parts()
    var empty = fields
    empty[7] = DER.explicit(3, DER.sequence([]))
    expectCertificateError(rebuild(empty), "empty Extensions")
    var two = fields
    two[7] = DER.encode(0xA3, DER.sequence([]) + DER.sequence([]))
    expectCertificateError(rebuild(two), "extensions [3] must hold one SEQUENCE")
  }

  @Test("Validity: two times and nothing after them; the value matches the certificate")
  func validity() throws {
    let (fields, rebuild) = try Self.parts()
    let leaf = try Certificate(derEncoded: rebuild(fields))
    #expect(leaf.validity == Validity(notBefore: leaf.notBefore, notAfter: leaf.notAfter))
    #expect(leaf.validity.contains(leaf.notBefore) && leaf.validity.contains(leaf.notAfter))
    #expect(!leaf.validity.contains(leaf.notAfter.addingTimeInterval(1)))
    #expect(leaf.subjectPublicKeyInfo.publicKey == leaf.publicKey)
    #expect(leaf.subjectPublicKeyInfo.subjectPublicKeyBytes == leaf.subjectPublicKeyBytes)
    let validity = try DER.parse(fields[4])
    var extra = fields
    extra[4] = DER.sequence(validity.children.map { Array($0.encodedBytes) } + [DER.null])
    expectCertificateError(rebuild(extra), "unexpected trailing members")
  }
}
