import DCAPI
import DCJSON
import DCOrgIsoMdoc
import Testing

/// Errors keep their cause (issue 11) in Annex C.
struct OrgIsoMdocErrorCauseTests {
  @Test func encryptionInfoThatIsNotBase64URLKeepsTheDecoderError() throws {
    do {
      _ = try EncryptionInfo(base64URL: "!!!")
      Issue.record("text that is not base64url was accepted")
    } catch {
      #expect(error.code == .invalidEncryptionInfo)
      #expect(error.file == "DCOrgIsoMdoc/EncryptionInfo.swift")
      #expect((error.underlying as? JSONError)?.code == .invalidBase64)
    }
  }
}
