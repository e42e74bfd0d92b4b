import DCCrypto
import DCEncoding
import DCTestSupport
import Foundation
import Testing

@testable import DCZK

/// The committed Longfellow vectors (Vectors/longfellow/PROVENANCE.md): Google's C++ library at
/// a pinned commit proved `age_over_18` over an mDL from this SDK's development issuer.
struct LongfellowVectors {
  struct Missing: Error { let file: String }

  let json: [String: Any]
  let proof: [UInt8]
  let circuit: [UInt8]

  init() throws {
    func file(_ name: String, _ ext: String) throws -> [UInt8] {
      guard
        let url = Bundle.module.url(
          forResource: name, withExtension: ext, subdirectory: "Vectors/longfellow")
      else { throw Missing(file: "Vectors/longfellow/\(name).\(ext)") }
      return Array(try Data(contentsOf: url))
    }
    json = try #require(
      try JSONSerialization.jsonObject(with: Data(try file("vectors", "json"))) as? [String: Any])
    proof = try file("proof-valid", "bin")
    circuit = try file("circuit-1attr-v7", "zst")
  }

  subscript(_ path: String...) -> Any? {
    path.reduce(json as Any?) { ($0 as? [String: Any])?[$1] }
  }

  /// The vectors' statement with a case's changes.
  func statement(_ changes: [String: Any] = [:]) throws -> MdocZKStatement {
    var fields = try #require(json["statement"] as? [String: Any])
    fields.merge(changes) { $1 }
    let attributes = try #require(fields["attributes"] as? [[String: String]]).map {
      MdocZKAttribute(
        identifier: $0["identifier"] ?? "", cborValue: try Hex.decode($0["cborValue"] ?? ""))
    }
    return try MdocZKStatement(
      issuerKeyX: try Hex.decode(try #require(fields["issuerX"] as? String)),
      issuerKeyY: try Hex.decode(try #require(fields["issuerY"] as? String)),
      docType: try #require(fields["docType"] as? String), attributes: attributes,
      sessionTranscript: try Hex.decode(try #require(fields["sessionTranscript"] as? String)),
      now: try #require(fields["now"] as? String))
  }

  /// Each case: its name, statement changes and the proof bytes as changed.
  func cases() throws -> [(name: String, statement: [String: Any], proof: [UInt8], oracle: Int)] {
    try #require(json["cases"] as? [[String: Any]]).map { entry in
      var bytes = proof
      if let offset = entry["flip"] as? Int { bytes[offset] ^= 0x01 }
      if let extra = entry["append"] as? String { bytes += try Hex.decode(extra) }
      if let length = entry["truncate"] as? Int { bytes.removeSubrange(length...) }
      return (
        try #require(entry["name"] as? String), entry["statement"] as? [String: Any] ?? [:], bytes,
        try #require(entry["oracle"] as? Int)
      )
    }
  }
}

@Suite("Longfellow mdoc layer: statement, public inputs, e2, proof bytes")
struct MdocZKLayerTests {
  let vectors: LongfellowVectors

  init() throws { vectors = try LongfellowVectors() }

  @Test("The vectors are the ones PROVENANCE.md describes: the oracle accepts only the valid case")
  func vectorsAsDescribed() throws {
    #expect(vectors.proof.count == vectors["proof", "size"] as? Int)
    #expect(Hex.encode(SHA256.hash(data: vectors.proof)) == vectors["proof", "sha256"] as? String)
    let cases = try vectors.cases()
    #expect(cases.count >= 20)
    #expect(cases.filter { $0.oracle == 0 }.map(\.name) == ["valid"])
    // Every statement a case names is one the verifier takes (the refusal is the proof's).
    for entry in cases { _ = try vectors.statement(entry.statement) }
  }

  @Test("e2 is upstream's compute_transcript_hash over the statement, reduced into Fp256")
  func e2MatchesUpstream() throws {
    let statement = try vectors.statement()
    #expect(Hex.encode(MdocZKBinding.e2Digest(statement)) == vectors["e2Digest"] as? String)
    #expect(try MdocZKBinding(statement).e2 == MdocZKBinding.e2Digest(statement))  // below p
    let other = try vectors.statement(["docType": "org.iso.18013.5.1.mDX"])
    #expect(MdocZKBinding.e2Digest(other) != MdocZKBinding.e2Digest(statement))
  }

  @Test("Reduction into P-256's base field: values at or above p lose one p")
  func reduction() throws {
    let all = [UInt8](repeating: 0xFF, count: 32)
    #expect(
      Hex.encode(MdocZKField.reduced(all))
        == "00000000fffffffeffffffffffffffffffffffff000000000000000000000000")
    #expect(MdocZKField.reduced(MdocZKField.prime) == [UInt8](repeating: 0, count: 32))
    var below = MdocZKField.prime
    below[31] -= 1
    #expect(MdocZKField.reduced(below) == below)
  }

  @Test("Public-input counts and MAC positions are the circuit's (npub_in 952 and 900)")
  func publicInputLayout() throws {
    let statement = try vectors.statement()
    let binding = try MdocZKBinding(statement)
    #expect(binding.hashPrefixBits.count == MdocZKBinding.hashMacIndex(attributes: 1))
    #expect(MdocZKBinding.hashMacIndex(attributes: 1) == 1 * 8 * 98 + 161)  // getHashMacIndex
    #expect(
      MdocZKBinding.hashPublicInputs(attributes: 1)
        == vectors["circuit", "hashPublicInputs"] as? Int)
    #expect(
      MdocZKBinding.signaturePublicInputs == vectors["circuit", "signaturePublicInputs"] as? Int)
    #expect(binding.hashPrefixBits.allSatisfy { $0 <= 1 } && binding.hashPrefixBits.first == 1)
  }

  @Test("An attribute's 784 bits: CBOR text identifier, value, and the two compared lengths")
  func attributeBits() throws {
    let bits = try MdocZKBinding.attributeBits(
      MdocZKAttribute(identifier: "age_over_18", cborValue: [0xF5]))
    func byte(_ index: Int) -> UInt8 {
      (0..<8).reduce(0) { $0 | bits[index * 8 + $1] << $1 }
    }
    #expect(bits.count == 784)
    #expect((0..<12).map(byte) == [0x6B] + Array("age_over_18".utf8))
    #expect((12..<32).allSatisfy { byte($0) == 0 })
    #expect(byte(32) == 0xF5 && (33..<96).allSatisfy { byte($0) == 0 })
    #expect(byte(96) == 1 + 17 + 1 + 11 && byte(97) == 1 + 12 + 1)
  }

  @Test("The proof splits into 6 MACs and the two circuit proofs")
  func proofSplit() throws {
    let parts = try MdocZKProofBytes(vectors.proof)
    #expect(parts.macs.count == 6 && parts.macs.allSatisfy { $0.count == 16 })
    #expect(parts.macs.flatMap { $0 } == Array(vectors.proof[0..<96]))
    #expect(
      parts.circuitProofs.startIndex == 96 && parts.circuitProofs.count == vectors.proof.count - 96)
    let bits = MdocZKProofBytes.signatureMacBits(
      macs: parts.macs, av: [0x01] + [UInt8](repeating: 0, count: 15))
    #expect(
      bits.count == 7 * 128 && bits[6 * 128] == 1
        && bits[0..<8].map { $0 } == MdocZKBinding.bitsLSBFirst([vectors.proof[0]]))
  }

  @Test("A proof that ends within its MACs, or is over the limit, is refused before any reading")
  func proofBounds() throws {
    for length in [0, 1, 95, 96] {
      #expect(throws: ZKError.self) { try MdocZKProofBytes(Array(vectors.proof.prefix(length))) }
      do {
        _ = try MdocZKProofBytes(Array(vectors.proof.prefix(length)))
      } catch { #expect(error.code == .proofTruncated) }
    }
    _ = try MdocZKProofBytes(Array(vectors.proof.prefix(97)))
    let atLimit = [UInt8](repeating: 0, count: ZKLimits.proofBytes)
    _ = try MdocZKProofBytes(atLimit)
    do {
      _ = try MdocZKProofBytes(atLimit + [0])
      Issue.record("a proof over the limit was taken")
    } catch { #expect(error.code == .proofTooLarge) }
  }
}
