import DCCrypto
import DCMdoc
import DCX509
import Foundation
import Testing

@testable import DCWalletCLI

/// The demo's steps run alone, with values in and values out.
@Suite("dcwallet demo steps")
struct DemoStepTests {
  @Test("The PKI step chains the document signer to the IACA and the reader to the reader CA")
  func pkiChains() throws {
    let console = Console.capturing()
    let now = Date()
    let pki = try DemoCommand.makePKI(now: now, .init(console: console))
    #expect(pki.ds.issuer == pki.iaca.subject)
    #expect(pki.reader.issuer == pki.readerRoot.subject)
    #expect(pki.iaca.isValid(at: now) && pki.ds.isValid(at: now))
  }

  @Test("The issuance step signs an mDL of 7 elements and a PID of 4 with the document signer")
  func issuance() throws {
    let console = Console.capturing()
    let now = Date()
    let pki = try DemoCommand.makePKI(now: now, .init(console: console))
    let mdocs = try DemoCommand.issueMdocs(pki, now: now, .init(console: console))
    #expect(mdocs.mdl.nameSpaces.flatMap(\.items).count == 7)
    #expect(mdocs.pid.nameSpaces.flatMap(\.items).count == 4)
    #expect(mdocs.mdl.mso.docType == "org.iso.18013.5.1.mDL")
  }
}
