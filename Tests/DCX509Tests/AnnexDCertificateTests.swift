import DCCrypto
import DCTestSupport
import DCX509
import Foundation
import Testing

@Suite("ISO 18013-5 Annex D certificates")
struct AnnexDCertificateTests {
  let der: [String: [UInt8]]
  let iaca: Certificate
  let documentSigner: Certificate
  let readerRoot: Certificate
  let reader: Certificate

  init() throws {
    der = try Fixtures.annexD()
    iaca = try Certificate(derEncoded: try #require(der["iaca_der"]))
    documentSigner = try Certificate(derEncoded: try #require(der["document_signer_der"]))
    readerRoot = try Certificate(derEncoded: try #require(der["reader_root_der"]))
    reader = try Certificate(derEncoded: try #require(der["reader_der"]))
  }

  @Test("names, validity, keys and signature algorithm read as published")
  func fields() throws {
    #expect(iaca.subject.commonName == "utopia iaca")
    #expect(iaca.subject.country == "US")
    #expect(iaca.subject.description == "C=US, CN=utopia iaca")
    #expect(iaca.issuer == iaca.subject)
    #expect(documentSigner.subject.description == "C=US, CN=utopia ds")
    #expect(documentSigner.issuer == iaca.subject)
    #expect(readerRoot.subject.description == "CN=reader root")
    #expect(reader.subject.commonName == "reader")
    #expect(reader.issuer == readerRoot.subject)

    #expect(iaca.version == 3)
    #expect(hexString(iaca.serialNumber) == "2ab4edd052b2582f4c6ad96186de70f4de5a3994")
    #expect(iaca.notBefore == Fixtures.date("2020-10-01T00:00:00Z"))
    #expect(iaca.notAfter == Fixtures.date("2029-09-29T00:00:00Z"))
    #expect(documentSigner.notAfter == Fixtures.date("2021-10-01T00:00:00Z"))
    #expect(reader.notAfter == Fixtures.date("2023-12-31T00:00:00Z"))

    for certificate in [iaca, documentSigner, readerRoot, reader] {
      #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
      #expect(certificate.publicKey.ecPublicKey?.curve == .p256)
    }
    #expect(iaca.derBytes == der["iaca_der"])
    #expect(
      Array(iaca.derBytes[4..<(4 + iaca.tbsCertificateBytes.count)]) == iaca.tbsCertificateBytes)
  }

  @Test("extensions decode to their RFC 5280 meaning")
  func extensions() throws {
    #expect(iaca.basicConstraints == BasicConstraints(isCA: true, pathLengthConstraint: 0))
    #expect(iaca.keyUsage == [.keyCertSign, .cRLSign])
    #expect(
      iaca.subjectKeyIdentifier.map(hexString) == "54fa2383a04c28e0d930792261c80c4881d2c00b")
    #expect(iaca.issuerAlternativeNames == [.rfc822Name("example@example.com")])
    #expect(iaca.crlDistributionPointNames == [.dnsName("example.com")])
    #expect(iaca.crlDistributionPoints.isEmpty)
    #expect(iaca.unhandledCriticalExtensions.isEmpty)

    #expect(documentSigner.basicConstraints == nil)
    #expect(documentSigner.keyUsage == .digitalSignature)
    #expect(documentSigner.extendedKeyUsage == [.mdlDocumentSigner])
    #expect(documentSigner.authorityKeyIdentifier == iaca.subjectKeyIdentifier)
    #expect(
      documentSigner.extensions.first { $0.oid == .extendedKeyUsage }?.critical == true)

    #expect(reader.extendedKeyUsage == [.mdlReaderAuthentication])
    #expect(reader.authorityKeyIdentifier == readerRoot.subjectKeyIdentifier)
    #expect(readerRoot.basicConstraints?.isCA == true)
  }

  @Test("document signer validates against the IACA with the document-signer policy")
  func documentSignerChain() {
    let validator = CertificateValidator(trustAnchors: [iaca], policy: .mdocDocumentSigner)
    let result = validator.validate(
      chain: [documentSigner], at: Fixtures.date("2021-01-01T00:00:00Z"))
    #expect(result.trustedChain?.path == [documentSigner, iaca])
    #expect(result.trustedChain?.anchor == iaca)
    // The anchor may also be presented in the chain.
    let withAnchor = validator.validate(
      chain: [documentSigner, iaca], at: Fixtures.date("2021-01-01T00:00:00Z"))
    #expect(withAnchor.trustedChain?.path == [documentSigner, iaca])
  }

  @Test("reader validates against the reader root with the reader policy")
  func readerChain() {
    let validator = CertificateValidator(
      trustAnchors: [readerRoot], policy: .mdocReaderAuthentication)
    let result = validator.validate(chain: [reader], at: Fixtures.date("2022-06-01T00:00:00Z"))
    #expect(result.trustedChain?.leaf == reader)
  }

  @Test("the document signer is expired after 2021-10-01")
  func expiredDocumentSigner() {
    let validator = CertificateValidator(trustAnchors: [iaca], policy: .mdocDocumentSigner)
    let result = validator.validate(
      chain: [documentSigner], at: Fixtures.date("2022-01-01T00:00:00Z"))
    guard case .untrusted(let reason) = result else {
      Issue.record("expected untrusted, got \(result)")
      return
    }
    #expect(reason.contains("utopia ds") && reason.contains("expired"))
  }

  @Test("a reader certificate fails the document-signer policy and vice versa")
  func wrongPurpose() {
    let time = Fixtures.date("2021-01-01T00:00:00Z")
    let dsAsReader = CertificateValidator(trustAnchors: [iaca], policy: .mdocReaderAuthentication)
      .validate(chain: [documentSigner], at: time)
    #expect(dsAsReader.reason?.contains("1.0.18013.5.1.6") == true, "\(dsAsReader)")
    let readerAsDS = CertificateValidator(trustAnchors: [readerRoot], policy: .mdocDocumentSigner)
      .validate(chain: [reader], at: time)
    #expect(readerAsDS.reason?.contains("1.0.18013.5.1.2") == true, "\(readerAsDS)")
    if case .untrusted = readerAsDS {} else { Issue.record("expected untrusted: \(readerAsDS)") }
  }

  @Test("the document signer does not chain to the reader root")
  func wrongRoot() {
    let result = CertificateValidator(trustAnchors: [readerRoot], policy: .mdocDocumentSigner)
      .validate(chain: [documentSigner], at: Fixtures.date("2021-01-01T00:00:00Z"))
    guard case .untrusted(let reason) = result else {
      Issue.record("expected untrusted, got \(result)")
      return
    }
    #expect(reason.contains("no trust anchor for C=US, CN=utopia iaca"))
  }
}
