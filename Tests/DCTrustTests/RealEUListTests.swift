import DCTestSupport
import DCTrust
import DCX509
import Foundation
import Testing

/// Real, published EU trusted lists (see Vectors/README.md for their source): the EU list of
/// trusted lists, sequence 250, signed by the European Commission with RSA-SHA256 and exclusive
/// C14N, and Denmark's trusted list, sequence 22, signed by its scheme operator, verified
/// through the LOTL's pointer to it: the chain a relying party follows (ETSI TS 119 612 §5.3.13,
/// §5.7.1). Lists made elsewhere exercise what the development lists do not: RSA keys, real
/// XAdES-BES properties (SHA-1 CertDigest inside SigningCertificate, not a reference digest),
/// namespace prefixes other than ours and a signature that is not the last child.
@Suite struct RealEUListTests {
  static func lotl() throws -> TrustedList {
    let signer = try Certificate(
      derEncoded: try VectorFile.bytes("eu-lotl-250-signer", ext: "der", in: .module))
    return try TrustedList.verifyingLOTL(
      try VectorFile.bytes("eu-lotl-250", ext: "xml", in: .module),
      operatorCertificates: [signer])
  }

  static func pointer(_ territory: String) throws -> TrustedListPointer {
    try #require(try lotl().pointers.first { $0.territory == territory && $0.kind == .tsl })
  }

  @Test func euListOfTrustedListsVerifies() throws {
    let lotl = try Self.lotl()
    #expect(lotl.kind == .lotl)
    #expect(lotl.sequenceNumber == 250)
    // ListIssueDateTime 2019-10-04T11:00:00Z.
    #expect(lotl.issued == Date(timeIntervalSince1970: 1_570_186_800))
    #expect(lotl.operatorName.contains("European Commission"))
    let territories = Set(lotl.pointers.compactMap(\.territory))
    #expect(territories.isSuperset(of: ["DK", "CY", "FR", "DE"]))
    #expect(try Self.pointer("DK").operatorCertificates.count >= 1)
  }

  /// The pointer to Italy carries two certificates; one (AgID, 2016) has a signature BIT
  /// STRING declaring an unused bit, which the strict DER reader refuses. Before the reader
  /// skipped such a certificate, the whole LOTL was refused as malformed.
  @Test func aCertificateTheReaderRefusesIsLeftOutNotTheList() throws {
    let italy = try Self.pointer("IT")
    #expect(italy.operatorCertificates.count == 1)
    #expect(italy.location.absoluteString == "https://eidas.agid.gov.it/TL/TSL-IT.xml")
  }

  @Test func danishListVerifiesWithTheLOTLPointersCertificates() throws {
    let list = try TrustedList.verifyingTSL(
      try VectorFile.bytes("dk-tl-22", ext: "xml", in: .module),
      operatorCertificates: try Self.pointer("DK").operatorCertificates)
    #expect(list.kind == .tsl)
    #expect(list.sequenceNumber == 22)
    // ListIssueDateTime 2019-08-05T01:00:00Z, NextUpdate 2020-02-05T00:00:00Z.
    #expect(list.issued == Date(timeIntervalSince1970: 1_564_966_800))
    #expect(list.nextUpdate == Date(timeIntervalSince1970: 1_580_860_800))
    #expect(list.operatorName == "Danish Agency for Digitisation // CVR:34051178")
    #expect(!list.entities.isEmpty)
    // Its services are qualified CA/QC types, which this SDK does not map: they trust no
    // credential issuer, reader or verifier by default (TS 119 612 types other than EAA).
    let sources = TrustSources(lists: [list], staleListPolicy: .accept)
    for purpose in TrustPurpose.allCases {
      #expect(sources.anchorCertificates(for: purpose, at: list.issued).isEmpty)
    }
  }

  @Test func danishListChangedByOneByteIsRefused() throws {
    var bytes = try VectorFile.bytes("dk-tl-22", ext: "xml", in: .module)
    let name = Array("Danish Agency for Digitisation".utf8)
    let at = try #require(
      (0...(bytes.count - name.count)).first { Array(bytes[$0..<($0 + name.count)]) == name })
    bytes[at] = UInt8(ascii: "d")
    let operators = try Self.pointer("DK").operatorCertificates
    #expect(
      Self.code { () throws(TrustError) in
        _ = try TrustedList.verifyingTSL(bytes, operatorCertificates: operators)
      } == .invalidSignature)
  }

  @Test func danishListUnderAnotherMemberStatesCertificatesIsRefused() throws {
    let bytes = try VectorFile.bytes("dk-tl-22", ext: "xml", in: .module)
    let cyprus = try Self.pointer("CY").operatorCertificates
    #expect(
      Self.code { () throws(TrustError) in
        _ = try TrustedList.verifyingTSL(bytes, operatorCertificates: cyprus)
      } == .untrustedSigner)
  }

  @Test func theLOTLIsNotANationalList() throws {
    let signer = try Certificate(
      derEncoded: try VectorFile.bytes("eu-lotl-250-signer", ext: "der", in: .module))
    let bytes = try VectorFile.bytes("eu-lotl-250", ext: "xml", in: .module)
    #expect(
      Self.code { () throws(TrustError) in
        _ = try TrustedList.verifyingTSL(bytes, operatorCertificates: [signer])
      } == .malformed)
  }

  /// The code `body` failed with; nil when it did not fail.
  static func code(_ body: () throws(TrustError) -> Void) -> TrustErrorCode? {
    do {
      try body()
      return nil
    } catch {
      return error.code
    }
  }
}
