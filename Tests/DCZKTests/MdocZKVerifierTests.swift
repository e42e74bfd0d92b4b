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
  /// Each case's expected code (vectors.json names the cases; the C++ verdicts are there). Any
  /// change to the statement or to a proof byte the transcript absorbs (MACs, roots, sumcheck
  /// messages, Ligero's first responses) changes the Fiat–Shamir challenges, among them which
  /// columns Ligero opens; the openings the prover sent then miss the committed root, the first
  /// check that fails (draft-google-cfrg-libzk §Ligero verifier). A flipped Merkle path digest
  /// is the same failure, reached directly.
  static let expected: [String: ZKErrorCode] = {
    var codes: [String: ZKErrorCode] = [
      "trailing-byte": .proofTrailingBytes,
      "truncated-last-byte": .proofTruncated,
      "truncated-in-hash-proof": .proofTruncated,
      "truncated-in-macs": .proofTruncated,
    ]
    for name in [
      "wrong-attribute-value", "other-session-transcript", "other-issuer-key", "other-doc-type",
      "time-after-valid-until", "time-before-valid-from", "flip-mac-first", "flip-mac-last",
    ] {
      codes[name] = .merkleMismatch
    }
    for circuit in ["hash", "sig"] {
      for part in ["root", "sumcheck-first", "sumcheck-middle", "ligero-first", "ligero-last"] {
        codes["flip-\(circuit)-\(part)"] = .merkleMismatch
      }
    }
    return codes
  }()

  @Test("Every case: the valid proof accepted, each invalid one refused with its code")
  func everyCase() throws {
    let vectors = try LongfellowVectors()
    let circuit = try LongfellowCircuit(compressed: vectors.circuit)
    #expect(Hex.encode(circuit.id) == vectors["circuit", "id"] as? String)
    let cases = try vectors.cases()
    #expect(Set(cases.map(\.name)) == Set(Self.expected.keys).union(["valid"]))
    var accepted: [String] = []
    for entry in cases {
      let statement = try vectors.statement(entry.statement)
      do {
        try MdocZKVerifier.verify(proof: entry.proof, circuit: circuit, statement: statement)
        accepted.append(entry.name)
      } catch {
        #expect(error.code == Self.expected[entry.name], "\(entry.name): \(error)")
      }
    }
    #expect(accepted == ["valid"])
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
