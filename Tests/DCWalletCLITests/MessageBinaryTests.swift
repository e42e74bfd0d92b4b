import DCCrypto
import DCEncoding
import DCJSON
import DCTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Issue 32, item 17: the messages a user reads name the real cause, without Swift type names or
/// DER offsets, and commands say what they did.
@Suite("messages (dcwallet binary)")
struct MessageBinaryTests {
  @Test("trust add prints the id, role, subject and SHA-256 fingerprint of what it added")
  func trustAddSaysWhatItAdded() throws {
    let cli = try DCWallet()
    let pki = try TestPKI()
    let result = try cli.run([
      "trust", "add", "--issuer", try cli.file("iaca.pem", pki.iaca.pemString),
    ])
    #expect(result.code == 0, "\(result.err)")
    let fingerprint = SHA256.hash(data: pki.iaca.derBytes).map { String(format: "%02X", $0) }
      .joined(separator: ":")
    let fields = result.out.components(separatedBy: "  ")
    #expect(fields.count == 4, "\(result.out)")
    #expect(
      fields.dropFirst().joined(separator: "  ")
        == "issuer  \(pki.iaca.subject)  SHA-256 \(fingerprint)")
    let listed = try cli.run(["trust", "list"])
    #expect(listed.out.hasPrefix(fields[0] + "  issuer  "))
  }

  @Test("a file that is not a certificate is refused without a DER diagnosis")
  func notACertificate() throws {
    let cli = try DCWallet()
    let result = try cli.run(["trust", "add", "--issuer", try cli.file("hello.pem", "hello\n")])
    #expect(result.code == 1)
    #expect(
      result.err
        == "dcwallet trust: \(cli.home)-files/hello.pem is not a certificate: neither PEM "
        + "(-----BEGIN CERTIFICATE-----) nor DER\n")
  }

  @Test("cannot read FILE says why")
  func cannotReadSaysWhy() throws {
    let cli = try DCWallet()
    let missing = try cli.run(["trust", "add", "--issuer", "/nonexistent/iaca.pem"])
    #expect(missing.code == 1)
    #expect(
      missing.err
        == "dcwallet trust: cannot read /nonexistent/iaca.pem: No such file or directory\n")
    let directory = try cli.run(["trust", "add", "--issuer", "/"])
    #expect(directory.err == "dcwallet trust: cannot read /: it is a directory\n")
  }

  @Test("an unreadable mdoc is refused without a Swift type name or offset")
  func noTypeNames() throws {
    let cli = try DCWallet()
    let device = try ECPrivateKey(curve: .p256)
    let result = try cli.run([
      "import", "--mdoc", try cli.file("hello.cbor", "hello\n"), "--device-key",
      try cli.file("device.pem", device.pemRepresentation),
    ])
    #expect(result.code == 1)
    #expect(
      result.err
        == "dcwallet import: not an ISO 18013-5 IssuerSigned structure: IssuerSigned: text "
        + "string declares length 8 but only 5 bytes remain\n")
  }

  @Test("an SD-JWT VC from an untrusted issuer: the verifier names the reason, not the type")
  func untrustedSDJWTIssuer() throws {
    let cli = try DCWallet()
    let files = cli.home + "-files"
    #expect(try cli.run(["dev", "files", "--out", files]).code == 0)
    func path(_ name: String) -> String { files + "/" + name }
    #expect(try cli.run(["trust", "add", "--verifier", path("verifier-ca.pem")]).code == 0)
    let imported = try cli.run([
      "import", "--sd-jwt", path("pid.txt"), "--device-key", path("holder.pem"), "--id", "pid",
    ])
    #expect(imported.code == 0, "\(imported.err)")
    let request = try cli.run([
      "verifier", "request", "--protocol", "openid4vp-v1-signed", "--dcql", path("query.json"),
      "--origin", "https://shop.example", "--signer-key", path("verifier.pem"), "--signer-cert",
      path("verifier-chain.pem"), "--out-request", path("request.json"), "--out-state",
      path("state.json"), "--out-key", path("key.jwk"),
    ])
    #expect(request.code == 0, "\(request.err)")
    let response = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", path("request.json"),
    ])
    #expect(response.code == 0, "\(response.err)")
    // --disclose naming nothing the request asks for: said so, not "nothing to share".
    let nothing = try cli.run([
      "respond", "--origin", "https://shop.example", "--request", path("request.json"),
      "--disclose", "portrait",
    ])
    #expect(
      nothing.err
        == "dcwallet respond: the request asks for none of the claims given with --disclose "
        + "(portrait)\n")
    // The reader root is no SD-JWT VC issuer anchor.
    let verified = try cli.run(
      [
        "verifier", "verify", "--state", path("state.json"), "--origin", "https://shop.example",
        "--sd-jwt-issuer-anchor", path("reader-root.pem"),
      ], stdin: response.out)
    #expect(verified.code == 1)
    #expect(
      verified.err
        == "dcwallet verifier: verification failed: pid: x5c chain: no trust anchor for "
        + "CN=Development IACA, O=Utopia DMV, C=UT, the issuer of CN=Development PID Issuer, "
        + "O=Utopia Registry, C=UT\n")
  }

  @Test("inspect: no null for an absent member, no escaped slashes, dates beside epoch seconds")
  func inspectOutput() throws {
    let cli = try DCWallet()
    let header = Base64URL.encode(Array(#"{"alg":"ES256","typ":"JWT"}"#.utf8))
    let payload = Base64URL.encode(
      Array(#"{"iss":"https://issuer.example/a","iat":1780000000,"exp":1780003600}"#.utf8))
    let jwt = "\(header).\(payload).c2ln"
    let result = try cli.run(["inspect", try cli.file("token.jwt", jwt)])
    #expect(result.code == 0, "\(result.err)")
    #expect(!result.out.contains("null"), "\(result.out)")
    #expect(!result.out.contains(#"\/"#), "\(result.out)")
    #expect(result.out.contains(#""iss" : "https://issuer.example/a""#), "\(result.out)")
    #expect(result.out.contains("\n  iat: 2026-05-28T20:26:40Z (1780000000)\n"), "\(result.out)")
    #expect(result.out.contains("\n  exp: 2026-05-28T21:26:40Z (1780003600)\n"), "\(result.out)")
  }
}
