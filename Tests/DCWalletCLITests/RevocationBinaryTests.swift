import DCCBOR
import DCCrypto
import DCHTTP
import DCHTTPServer
import DCMdoc
import DCTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// `--crl FILE` (issue 29): the chains a command checks are checked against the CRLs given.
@Suite("dcwallet --crl")
struct RevocationBinaryTests {
  let fixture: CLIFixture
  var cli: DCWallet { fixture.cli }

  init() throws { fixture = try CLIFixture(importMDL: false) }

  func crl(
    issuer: Certificate, key: ECPrivateKey, revoking: [Certificate], nextUpdate: TimeInterval = 3600
  ) throws -> CertificateRevocationList {
    let now = Date()
    return try CertificateRevocationList.build(
      issuer: issuer, signer: key, thisUpdate: now - 600, nextUpdate: now + nextUpdate,
      revoked: revoking.map {
        RevokedCertificate(serialNumber: $0.serialNumber, revocationDate: now - 600)
      })
  }

  func importMDL(_ extra: [String]) throws -> (code: Int32, out: String, err: String) {
    let device = try ECPrivateKey(curve: .p256)
    let mdoc = try fixture.pki.issue(deviceKey: device.publicKey)
    let result = try cli.run(
      [
        "import", "--mdoc", try cli.file("mdl-\(UUID().uuidString).cbor", mdoc.bytes),
        "--device-key", try cli.file("device-\(UUID().uuidString).pem", device.pemRepresentation),
      ] + extra)
    return (result.code, result.out, result.err)
  }

  @Test("import refuses an mdoc whose document signer the IACA's CRL lists")
  func importRevoked() throws {
    let pki = fixture.pki
    let revoking = try crl(issuer: pki.iaca, key: pki.iacaKey, revoking: [pki.documentSigner])
    let path = try cli.file("revoking.crl", revoking.derBytes)
    let refused = try importMDL(["--crl", path])
    #expect(refused.code == 1)
    #expect(refused.out.isEmpty)
    #expect(refused.err.contains("is revoked"), "\(refused.err)")
    #expect(try cli.run(["list"]).out == "no credentials")

    // The same mdoc imports with a CRL that does not list it (PEM this time), and without --crl.
    let clean = try crl(issuer: pki.iaca, key: pki.iacaKey, revoking: [pki.reader])
    let cleanPath = try cli.file("clean.pem", clean.pemString)
    #expect(try importMDL(["--crl", cleanPath]).code == 0)
    #expect(try importMDL([]).code == 0)
  }

  @Test(
    "a CRL signed by another key is not used: fail-closed refuses only a certificate with a distribution point"
  )
  func otherKeyAndPolicy() throws {
    let pki = fixture.pki
    let forged = try crl(
      issuer: pki.iaca, key: try ECPrivateKey(curve: .p256), revoking: [pki.documentSigner])
    let path = try cli.file("forged.crl", forged.derBytes)
    // The fixture's document signer names no distribution point: nothing is unknown, so the
    // forged CRL can neither revoke it nor make it fail closed.
    #expect(try importMDL(["--crl", path]).code == 0)
    let closed = try importMDL(["--crl", path, "--crl-fail-closed"])
    #expect(closed.code == 1, "\(closed.out)")
    #expect(closed.err.contains("unknown"), "\(closed.err)")
  }

  @Test("respond refuses a reader its root's CRL lists; --crl that is not a CRL is an error")
  func readerRevoked() throws {
    let pki = fixture.pki
    let device = try ECPrivateKey(curve: .p256)
    let imported = try cli.run([
      "import", "--mdoc",
      try cli.file("mdl.cbor", try pki.issue(deviceKey: device.publicKey).bytes),
      "--device-key", try cli.file("device.pem", device.pemRepresentation), "--id", "mdl",
    ])
    #expect(imported.code == 0, "\(imported.err)")
    let (request, _) = try fixture.request()
    let revoking = try crl(issuer: pki.readerRoot, key: pki.readerRootKey, revoking: [pki.reader])
    let respond = [
      "respond", "--origin", "https://shop.example", "--request", request,
      "--require-trusted-reader",
    ]
    let refused = try cli.run(respond + ["--crl", try cli.file("reader.crl", revoking.derBytes)])
    #expect(refused.code == 1, "\(refused.out)")
    #expect(refused.err.contains("revoked"), "\(refused.err)")
    #expect(try cli.run(respond).code == 0)
    let notCRL = try cli.run(respond + ["--crl", fixture.iacaPath])
    #expect(notCRL.code == 1)
    #expect(notCRL.err.contains("is not a CRL"), "\(notCRL.err)")
  }

  @Test(
    "--crl reads at most 4 MiB: at the limit the CRL reader refuses it, one byte more is not read")
  func inputLimit() throws {
    let limit = 4 * 1024 * 1024
    let at = try importMDL([
      "--crl", try cli.file("at.crl", [UInt8](repeating: 0x30, count: limit)),
    ])
    #expect(at.code == 1)
    #expect(at.err.contains("is not a CRL"), "\(at.err)")
    let past = try importMDL([
      "--crl", try cli.file("past.crl", [UInt8](repeating: 0x30, count: limit + 1)),
    ])
    #expect(past.code == 1)
    #expect(
      past.err.contains("is larger than 4 MiB (4194304 bytes), the most dcwallet reads for a CRL"),
      "\(past.err)")
  }

  @Test("verifier verify refuses a response whose document signer the IACA's CRL lists")
  func verifierRevoked() throws {
    let pki = fixture.pki
    let device = try ECPrivateKey(curve: .p256)
    let imported = try cli.run([
      "import", "--mdoc", try cli.file("v.cbor", try pki.issue(deviceKey: device.publicKey).bytes),
      "--device-key", try cli.file("v.pem", device.pemRepresentation),
    ])
    #expect(imported.code == 0, "\(imported.err)")
    let (request, state) = try fixture.request()
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", request,
    ])
    #expect(response.code == 0, "\(response.err)")
    let verify = [
      "verifier", "verify", "--state", state, "--origin", "https://shop.example",
      "--issuer-anchor", fixture.iacaPath, "--no-status-check",
    ]
    #expect(try cli.run(verify, stdin: response.out).code == 0)
    let revoking = try crl(issuer: pki.iaca, key: pki.iacaKey, revoking: [pki.documentSigner])
    let refused = try cli.run(
      verify + ["--crl", try cli.file("ds.crl", revoking.derBytes)], stdin: response.out)
    #expect(refused.code == 1, "\(refused.out)")
    #expect(refused.err.contains("revoked"), "\(refused.err)")
  }

  /// An mDL signed by a document signer (the fixture's key) under the fixture's IACA whose
  /// certificate names `distributionPoint`.
  func mdl(distributionPoint: String, device: ECPrivateKey) throws -> (IssuerSigned, Certificate) {
    let pki = fixture.pki
    let now = Date()
    let signer = try CertificateBuilder.documentSigner(
      commonName: "Fetched DS", country: "UT", publicKey: pki.dsKey.publicKey,
      notBefore: now - 86_400, notAfter: now + 86_400 * 30,
      crlDistributionPoint: distributionPoint
    ).issued(by: pki.iaca, signer: pki.iacaKey)
    let mdoc = try MdocIssuer(signer: pki.dsKey, certificateChain: [signer]).issue(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [("family_name", "Mustermann"), ("age_over_18", true)])],
      deviceKey: device.publicKey,
      validity: ValidityInfo(
        signed: now, validFrom: now - 3600, validUntil: now + 86_400 * 30),
      decoyDigests: 0)
    return (mdoc, signer)
  }

  @Test(
    "--crl-fetch: import fetches the CRL the document signer names (loopback); unreachable is unknown, refused with --crl-fail-closed"
  )
  func fetched() throws {
    let handler = CRLFileHandler()
    let server = DevelopmentHTTPServer(handler: handler)
    let url = "http://127.0.0.1:\(try server.start())/crl"
    defer { server.stop() }
    let device = try ECPrivateKey(curve: .p256)
    let (mdoc, signer) = try mdl(distributionPoint: url, device: device)
    handler.set(
      try crl(issuer: fixture.pki.iaca, key: fixture.pki.iacaKey, revoking: [signer]).derBytes)
    let mdocPath = try cli.file("fetched-mdl.cbor", mdoc.bytes)
    let keyPath = try cli.file("fetched-device.pem", device.pemRepresentation)
    let importing = ["import", "--mdoc", mdocPath, "--device-key", keyPath]
    let refused = try cli.run(importing + ["--crl-fetch"])
    #expect(refused.code == 1, "\(refused.out)")
    #expect(refused.err.contains("is revoked"), "\(refused.err)")
    // Without --crl-fetch nothing is fetched and the mdoc imports.
    #expect(try cli.run(importing + ["--id", "unchecked"]).code == 0)

    let (unreachable, _) = try mdl(distributionPoint: "http://127.0.0.1:1/crl", device: device)
    let path = try cli.file("unreachable-mdl.cbor", unreachable.bytes)
    let closed = try cli.run(
      ["import", "--mdoc", path, "--device-key", keyPath, "--crl-fetch", "--crl-fail-closed"])
    #expect(closed.code == 1)
    #expect(closed.err.contains("revocation status unknown"), "\(closed.err)")
    let open = try cli.run(["import", "--mdoc", path, "--device-key", keyPath, "--crl-fetch"])
    #expect(open.code == 0, "\(open.err)")
  }

  @Test("verifier serve and the chain-checking commands list --crl, --crl-fetch, --crl-fail-closed")
  func help() throws {
    for command in [["verifier", "serve"], ["verifier", "verify"], ["import"], ["read"]] {
      let help = try cli.run(command + ["--help"]).out
      for flag in ["--crl FILE|URL", "--crl-fetch", "--crl-fail-closed"] {
        #expect(help.contains(flag), "\(command) \(flag)")
      }
    }
  }
}

/// Serves one CRL at `/crl`.
final class CRLFileHandler: HTTPHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var body: [UInt8] = []

  func set(_ body: [UInt8]) { lock.withLock { self.body = body } }

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let served = lock.withLock { body }
    guard request.url.path == "/crl", !served.isEmpty else { return HTTPResponse(status: 404) }
    return HTTPResponse(status: 200, body: served)
  }
}
