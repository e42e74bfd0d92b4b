import DCEncoding
import DCTestSupport
import Foundation
import Testing

@testable import DCZK

/// `MdocZKVerifier` against the committed vectors (Vectors/longfellow): the proof Google's C++
/// library made over the development issuer's mDL is accepted, and every case the C++ verifier
/// refuses is refused with the error code naming why.
@Suite("Longfellow mdoc verifier against the C++ oracle's vectors", .serialized)
struct MdocZKVerifierTests {
  /// Each case's expected code (vectors.json names the cases; the C++ verdicts are there).
  static let expected: [String: ZKErrorCode] = [
    "wrong-attribute-value": .ligeroCheckFailed,
    "other-session-transcript": .ligeroCheckFailed,
    "other-issuer-key": .ligeroCheckFailed,
    "other-doc-type": .ligeroCheckFailed,
    "time-after-valid-until": .ligeroCheckFailed,
    "time-before-valid-from": .ligeroCheckFailed,
    "flip-mac-first": .ligeroCheckFailed,
    "flip-mac-last": .ligeroCheckFailed,
    "flip-hash-root": .merkleMismatch,
    "flip-hash-sumcheck-first": .ligeroCheckFailed,
    "flip-hash-sumcheck-middle": .ligeroCheckFailed,
    "flip-hash-ligero-first": .ligeroCheckFailed,
    "flip-hash-ligero-last": .merkleMismatch,
    "flip-sig-root": .merkleMismatch,
    "flip-sig-sumcheck-first": .ligeroCheckFailed,
    "flip-sig-sumcheck-middle": .ligeroCheckFailed,
    "flip-sig-ligero-first": .ligeroCheckFailed,
    "flip-sig-ligero-last": .merkleMismatch,
    "trailing-byte": .proofTrailingBytes,
    "truncated-last-byte": .proofTruncated,
    "truncated-in-hash-proof": .proofTruncated,
    "truncated-in-macs": .proofTruncated,
  ]

  @Test("Every case: the valid proof accepted, each invalid one refused with its code")
  func everyCase() throws {
    let vectors = try LongfellowVectors()
    let circuit = try LongfellowCircuit(compressed: vectors.circuit)
    #expect(Hex.encode(circuit.id) == vectors["circuit", "id"] as? String)
    let cases = try vectors.cases()
    #expect(Set(cases.map(\.name)) == Set(Self.expected.keys).union(["valid"]))
    for entry in cases {
      let statement = try vectors.statement(entry.statement)
      do {
        try MdocZKVerifier.verify(proof: entry.proof, circuit: circuit, statement: statement)
        #expect(entry.name == "valid", "\(entry.name) was accepted")
      } catch {
        #expect(error.code == Self.expected[entry.name], "\(entry.name): \(error)")
      }
    }
  }

  @Test("A circuit for another number of attributes is refused before the proof is read")
  func circuitForOtherAttributeCount() throws {
    let vectors = try LongfellowVectors()
    let circuit = try LongfellowCircuit(compressed: vectors.circuit)
    let one = try vectors.statement()
    let two = try MdocZKStatement(
      issuerKeyX: one.issuerKeyX, issuerKeyY: one.issuerKeyY, docType: one.docType,
      attributes: one.attributes + one.attributes, sessionTranscript: one.sessionTranscript,
      now: one.now)
    do {
      try MdocZKVerifier.verify(proof: vectors.proof, circuit: circuit, statement: two)
      Issue.record("a 2-attribute statement was checked with the 1-attribute circuit")
    } catch { #expect(error.code == .circuitMismatch) }
  }
}
