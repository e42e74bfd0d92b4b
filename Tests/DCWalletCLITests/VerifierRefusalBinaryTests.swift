import DCAPI
import DCCrypto
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCTestSupport
import DCWalletTestSupport
import Foundation
import Testing

/// `dcwallet verifier verify` refuses an Annex C response that decrypts but whose device
/// authentication was made without the device key (ISO 18013-5 §9.1.3).
@Suite("dcwallet verifier verify refusals")
struct VerifierRefusalBinaryTests {
  @Test("A response sealed by someone holding only the IssuerSigned is refused")
  func forgedDeviceAuthentication() throws {
    let fixture = try CLIFixture(importMDL: false)
    let cli = fixture.cli
    let device = try ECPrivateKey(curve: .p256)
    let mdl = try fixture.pki.issue(deviceKey: device.publicKey)
    let (requestPath, statePath) = try fixture.request(reader: false)
    let sent = try JSONValue(
      parsing: Array(try Data(contentsOf: URL(fileURLWithPath: requestPath))))
    let request = try AnnexCRequest(data: try #require(sent["data"]))
    let origin = try WebOrigin("https://shop.example")
    let transcript = request.sessionTranscript(origin: origin)

    func sealed(_ key: any Signer) throws -> String {
      let document = try Document.present(
        mdl, disclosing: ["org.iso.18013.5.1": ["family_name", "age_over_18"]],
        sessionTranscript: transcript, deviceKey: key)
      let response = try EncryptedResponse.seal(
        DeviceResponse(documents: [document]), to: request.encryptionInfo.recipientPublicKey,
        sessionTranscript: transcript)
      return JSONValue.object([("protocol", "org-iso-mdoc"), ("data", response.data)]).serialized()
    }
    func verify(_ response: String) throws -> DCWallet.Result {
      try cli.run(
        [
          "verifier", "verify", "--state", statePath, "--origin", "https://shop.example",
          "--issuer-anchor", fixture.iacaPath,
        ], stdin: response)
    }
    // The baseline: the device's own signature verifies.
    let genuine = try verify(try sealed(device))
    #expect(genuine.code == 0, "\(genuine.err)")
    // A thief's key: decrypts, issuer-verifies, and is refused at device authentication.
    let forged = try verify(try sealed(try ECPrivateKey(curve: .p256)))
    #expect(forged.code == 1)
    #expect(forged.out.isEmpty)
    #expect(forged.err.split(separator: "\n").count == 1, "\(forged.err)")
    #expect(forged.err.contains("deviceSignature"), "\(forged.err)")
  }
}
