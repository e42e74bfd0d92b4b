import DCCrypto
import DCTestSupport
import DCX509
import Foundation
import Testing

/// Shared helpers: Annex D certificates, fixed dates and quick chains.
enum Fixtures {
  static func annexD() throws -> [String: [UInt8]] {
    let json = try VectorFile.object("iso18013-5-annex-d", in: .module)
    let certificates = try #require(json["certificates"] as? [String: String])
    return certificates.mapValues(hexBytes)
  }

  /// `2024-05-01T12:00:00Z` style UTC timestamps.
  static func date(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text) ?? Date(timeIntervalSince1970: 0)
  }

  static let start = date("2025-01-01T00:00:00Z")
  static let end = date("2030-01-01T00:00:00Z")
  static let now = date("2026-06-01T00:00:00Z")

  struct Chain {
    let rootKey: ECPrivateKey
    let root: Certificate
    let leafKey: ECPrivateKey
    let leaf: Certificate
  }

  /// An IACA -> document signer chain valid from 2025 to 2030.
  static func mdocChain(
    curve: EllipticCurve = .p256, leafNotAfter: Date = end,
    customize: (inout CertificateBuilder) -> Void = { _ in }
  ) throws -> Chain {
    let rootKey = try ECPrivateKey(curve: curve)
    let root = try CertificateBuilder.iaca(
      commonName: "Test IACA", country: "UT", publicKey: rootKey.publicKey, notBefore: start,
      notAfter: end, crlDistributionPoint: "https://iaca.example/crl"
    ).selfSigned(signer: rootKey)
    let leafKey = try ECPrivateKey(curve: curve)
    var builder = CertificateBuilder.documentSigner(
      commonName: "Test DS", country: "UT", organization: "Test Issuer",
      publicKey: leafKey.publicKey, notBefore: start, notAfter: leafNotAfter)
    customize(&builder)
    let leaf = try builder.issued(by: root, signer: rootKey)
    return Chain(rootKey: rootKey, root: root, leafKey: leafKey, leaf: leaf)
  }
}
