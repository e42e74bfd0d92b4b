import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCSDJWT
import DCTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// `dcwallet import` refuses genuinely signed credentials that fail one check, keeping the CLI
/// contract: exit 1, one line on stderr, nothing on stdout, nothing written.
@Suite("dcwallet import refusals")
struct ImportRefusalBinaryTests {
  let fixture: CLIFixture
  var cli: DCWallet { fixture.cli }
  let holder: ECPrivateKey
  let holderPath: String
  let issuerKey: ECPrivateKey
  let issuerCert: Certificate

  init() throws {
    // The wallet trusts the fixture's IACA as issuer anchor (and holds no credential yet).
    fixture = try CLIFixture(importMDL: false)
    let now = fixture.pki.clock
    holder = try ECPrivateKey(curve: .p256)
    holderPath = try fixture.cli.file("holder.pem", holder.pemRepresentation)
    issuerKey = try ECPrivateKey(curve: .p256)
    var builder = CertificateBuilder.documentSigner(
      commonName: "Test PID Issuer", country: "UT", publicKey: issuerKey.publicKey,
      notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86_400))
    // SD-JWT VC §3.5: the leaf names the issuer `iss` (host and URI).
    builder.extensions.append(
      .subjectAlternativeNames([.dnsName("issuer.example"), .uri("https://issuer.example")]))
    issuerCert = try builder.issued(by: fixture.pki.iaca, signer: fixture.pki.iacaKey)
  }

  func sdJWT(signer: ECPrivateKey? = nil, x5c: [Certificate]? = nil, holderKey: ECPublicKey? = nil)
    throws -> String
  {
    let now = fixture.pki.clock
    return try SDJWTIssuer.issue(
      claims: ["given_name": "Erika"], selectivelyDisclosable: ["given_name"],
      holderKey: holderKey ?? holder.publicKey, vct: "urn:eudi:pid:1",
      issuer: "https://issuer.example", issuedAt: now.addingTimeInterval(-60),
      expiresAt: now.addingTimeInterval(3600), signer: signer ?? issuerKey,
      x5c: x5c ?? [issuerCert], random: SecureRandom()
    ).serialized
  }

  /// Imports and expects the refusal contract; returns the stderr line.
  func refused(_ flag: String, _ name: String, _ contents: [UInt8], key: String? = nil) throws
    -> String
  {
    let result = try cli.run([
      "import", flag, try cli.file(name, contents), "--device-key", key ?? holderPath,
    ])
    #expect(result.code == 1, "\(name): \(result.out)")
    #expect(result.out.isEmpty, "\(name)")
    let lines = result.err.split(separator: "\n")
    #expect(lines.count == 1, "\(name): \(result.err)")
    return result.err
  }

  @Test("Wrong issuer signature, foreign issuer, broken chain and foreign cnf are refused")
  func sdJWTRefusals() throws {
    // The baseline: a genuine SD-JWT from an issuer under the trusted IACA imports.
    let good = try cli.run([
      "import", "--sd-jwt", try cli.file("good.sdjwt", try sdJWT()), "--device-key", holderPath,
      "--id", "good",
    ])
    #expect(good.code == 0, "\(good.err)")
    let before = try cli.run(["list"]).out

    let wrongSignature = try refused(
      "--sd-jwt", "forged.sdjwt",
      Array(try sdJWT(signer: try ECPrivateKey(curve: .p256)).utf8))
    #expect(wrongSignature.contains("signature"), "\(wrongSignature)")

    let foreign = try TestPKI(now: fixture.pki.clock)
    var foreignBuilder = CertificateBuilder.documentSigner(
      commonName: "Foreign PID Issuer", country: "UT", publicKey: issuerKey.publicKey,
      notBefore: fixture.pki.clock.addingTimeInterval(-3600),
      notAfter: fixture.pki.clock.addingTimeInterval(86_400))
    foreignBuilder.extensions.append(
      .subjectAlternativeNames([.dnsName("issuer.example"), .uri("https://issuer.example")]))
    let foreignCert = try foreignBuilder.issued(by: foreign.iaca, signer: foreign.iacaKey)
    let untrusted = try refused(
      "--sd-jwt", "foreign.sdjwt", Array(try sdJWT(x5c: [foreignCert]).utf8))
    #expect(untrusted.contains("x5c chain"), "\(untrusted)")

    var damaged = issuerCert.derBytes
    damaged[damaged.count - 1] ^= 0x01
    let broken = try refused(
      "--sd-jwt", "broken.sdjwt",
      Array(try sdJWT(x5c: [try Certificate(derEncoded: damaged), fixture.pki.iaca]).utf8))
    #expect(broken.contains("x5c chain"), "\(broken)")

    let otherHolder = try ECPrivateKey(curve: .p256)
    let cnf = try refused(
      "--sd-jwt", "other-cnf.sdjwt", Array(try sdJWT(holderKey: otherHolder.publicKey).utf8))
    #expect(cnf.contains("cnf"), "\(cnf)")

    #expect(try cli.run(["list"]).out == before)
  }

  @Test("An mdoc from a foreign IACA is refused while issuer anchors are configured")
  func mdocFromForeignIACA() throws {
    let device = try ECPrivateKey(curve: .p256)
    let devicePath = try cli.file("device.pem", device.pemRepresentation)
    let foreign = try TestPKI(now: fixture.pki.clock)
    let before = try cli.run(["list"]).out
    let error = try refused(
      "--mdoc", "foreign.cbor", try foreign.issue(deviceKey: device.publicKey).bytes,
      key: devicePath)
    #expect(error.contains("not trusted"), "\(error)")
    #expect(try cli.run(["list"]).out == before)
    // The same mdoc from the trusted IACA imports.
    let good = try cli.run([
      "import", "--mdoc",
      try cli.file("mdl.cbor", try fixture.pki.issue(deviceKey: device.publicKey).bytes),
      "--device-key", devicePath, "--id", "mdl",
    ])
    #expect(good.code == 0, "\(good.err)")
  }
}
