import DCCrypto
import DCX509
import Foundation
import Testing

/// `x509_san_dns` and SD-JWT VC issuer names are DNS names: letter case does not matter
/// (RFC 4343 §3), anything else does.
@Suite("DNS name policies")
struct SANDNSPolicyTests {
  static let now = Date(timeIntervalSince1970: 1_780_000_000)

  static func leaf(_ names: [GeneralName]) throws -> Certificate {
    let key = try ECPrivateKey(curve: .p256)
    return try CertificateBuilder(
      subject: DistinguishedName(commonName: "leaf"), publicKey: key.publicKey,
      notBefore: now.addingTimeInterval(-60), notAfter: now.addingTimeInterval(3600),
      extensions: [.keyUsage(.digitalSignature), .subjectAlternativeNames(names)]
    ).selfSigned(signer: key)
  }

  @Test(
    "x509_san_dns matches a dNSName without regard to ASCII case",
    arguments: [
      ("verifier.example", "verifier.example"), ("Verifier.EXAMPLE", "verifier.example"),
      ("verifier.example", "VERIFIER.example"), ("a-1.Example", "A-1.example"),
    ])
  func matches(clientID: String, san: String) throws {
    let policy = OpenID4VPSANDNSPolicy(clientID: clientID)
    #expect(policy.check(chain: [try Self.leaf([.dnsName(san)])]) == .meetsPolicy)
  }

  @Test(
    "x509_san_dns refuses any other name",
    arguments: [
      ("verifier.example", "verifier.example."), ("verifier.example", "verifier.exampl"),
      ("verifier.example", "www.verifier.example"), ("verifier-example", "verifier.example"),
      ("verifıer.example", "verifier.example"), ("VERİFIER.example", "verifier.example"),
      ("verifier.example", ""),
    ])
  func refuses(clientID: String, san: String) throws {
    let policy = OpenID4VPSANDNSPolicy(clientID: clientID)
    #expect(policy.check(chain: [try Self.leaf([.dnsName(san)])]) != .meetsPolicy)
  }

  @Test("A URI SAN holding the name does not count for x509_san_dns")
  func uriIsNotDNS() throws {
    let policy = OpenID4VPSANDNSPolicy(clientID: "verifier.example")
    #expect(
      policy.check(chain: [try Self.leaf([.uri("https://verifier.example")])]) != .meetsPolicy)
  }

  @Test("SD-JWT VC issuer host compares without case, and only an https host")
  func issuerHost() throws {
    let leaf = try Self.leaf([.dnsName("Issuer.Example")])
    #expect(
      SDJWTVCIssuerPolicy(issuer: "https://issuer.EXAMPLE/x").check(chain: [leaf]) == .meetsPolicy)
    #expect(
      SDJWTVCIssuerPolicy(issuer: "http://issuer.example").check(chain: [leaf]) != .meetsPolicy)
    #expect(SDJWTVCIssuerPolicy(issuer: "issuer.example").check(chain: [leaf]) != .meetsPolicy)
    #expect(SDJWTVCIssuerPolicy(issuer: nil).check(chain: [leaf]) == .meetsPolicy)
    #expect(SDJWTVCIssuerPolicy(issuer: nil).check(chain: []) != .meetsPolicy)
  }
}
