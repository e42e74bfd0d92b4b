import DCIssuer
import DCJSON
import Foundation
import Testing

@testable import DCWalletCLI

#if os(Linux)
  /// `Examples/Issuer/issuer.json` is a configuration `dcwallet issuer serve` accepts as written:
  /// every member is read with the value the file gives, and the issuer it configures issues.
  @Suite("Examples/Issuer/issuer.json", .timeLimit(.minutes(1)))
  struct ExampleIssuerConfigTests {
    static let text: String = {
      let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
      let path = repository.appendingPathComponent("Examples/Issuer/issuer.json").path
      return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }()

    @Test("every member is read as the file gives it")
    func settings() throws {
      let settings = try DevelopmentIssuerSettings(json: try JSONValue(parsing: Self.text))
      #expect(settings.batchSize == 5)
      #expect(settings.deferred == ["pid"])
      #expect(settings.deferredDelay == 0)
      #expect(settings.responseEncryption?.required == false)
      #expect(settings.requirePAR)
      #expect(!settings.autoApprove)
      #expect(settings.statusLists.bits == 2)
      #expect(settings.statusLists.size == 4096)
    }

    @Test("the issuer it configures issues an mDL batch")
    func issues() async throws {
      let home = try IssuerWalletHome(issuerConfig: Self.text)
      let offer = try await runDCWalletOffPool(
        home.cli,
        ["issuer", "offer", "--config", home.config, "--configuration", "mDL", "--pre-authorized"])
      #expect(offer.code == 0, "\(offer.err)")
      let issued = try await runDCWalletOffPool(
        home.cli,
        [
          "issue", offer.out.trimmingCharacters(in: .whitespacesAndNewlines),
          "--trust-issuer-iacas", "--batch", "5",
        ])
      #expect(issued.code == 0, "\(issued.err)")
      #expect(try home.issuer.service.store.issuedCredentialStatuses().count == 5)
    }
  }
#endif
