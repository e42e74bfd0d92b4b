import DCCOSE
import DCCrypto
import Testing

/// Errors keep their cause (issue 11) in COSE: the wrapping helper keeps the caller's throw site.
struct COSEErrorCauseTests {
  @Test func keyOffTheCurveKeepsTheCryptoErrorAndTheThrowSite() throws {
    let key = COSEKey(
      curveIdentifier: 1, x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32))
    do {
      _ = try key.publicKey()
      Issue.record("a point off the curve was accepted")
    } catch {
      #expect(error.code == .invalidKey)
      #expect(error.file == "DCCOSE/COSEKey.swift")
      #expect(error.underlying is CryptoError)
    }
  }
}
