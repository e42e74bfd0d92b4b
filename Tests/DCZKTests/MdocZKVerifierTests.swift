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
  func everyCase() async throws {
    let vectors = try LongfellowVectors()
    let cases = try vectors.cases()
    #expect(Set(cases.map(\.name)) == Set(Self.expected.keys).union(["valid"]))
    let checks = try cases.map { ($0.name, $0.proof, try vectors.statement($0.statement)) }
    let compressed = vectors.circuit
    // Seconds per proof in a debug build: off Swift's cooperative pool (see offCooperativePool).
    let (id, outcomes) = try await offCooperativePool {
      let circuit = try MdocZKPreparedCircuit(LongfellowCircuit(compressed: compressed))
      var outcomes: [(name: String, code: ZKErrorCode?)] = []
      for (name, proof, statement) in checks {
        do throws(ZKError) {
          try MdocZKVerifier.verify(proof: proof, prepared: circuit, statement: statement)
          outcomes.append((name, nil))
        } catch { outcomes.append((name, error.code)) }
      }
      return (circuit.circuit.id, outcomes)
    }
    #expect(Hex.encode(id) == vectors["circuit", "id"] as? String)
    for (name, code) in outcomes where code != nil {
      #expect(code == Self.expected[name], "\(name)")
    }
    #expect(outcomes.filter { $0.code == nil }.map(\.name) == ["valid"])
  }

  @Test("The public one-off entry point accepts the valid proof (it prepares the circuit itself)")
  func oneOff() async throws {
    let vectors = try LongfellowVectors()
    let (statement, compressed, proof) = (try vectors.statement(), vectors.circuit, vectors.proof)
    try await offCooperativePool {
      let circuit = try LongfellowCircuit(compressed: compressed, checkingIDs: false)
      try MdocZKVerifier.verify(proof: proof, circuit: circuit, statement: statement)
    }
  }

  @Test("A circuit for another number of attributes is refused before the proof is read")
  func circuitForOtherAttributeCount() async throws {
    let vectors = try LongfellowVectors()
    let one = try vectors.statement()
    let two = try MdocZKStatement(
      issuerKeyX: one.issuerKeyX, issuerKeyY: one.issuerKeyY, docType: one.docType,
      attributes: one.attributes + one.attributes, sessionTranscript: one.sessionTranscript,
      now: one.now)
    let (compressed, proof) = (vectors.circuit, vectors.proof)
    let code = try await offCooperativePool { () throws -> ZKErrorCode? in
      let circuit = try LongfellowCircuit(compressed: compressed, checkingIDs: false)
      do throws(ZKError) {
        try MdocZKVerifier.verify(proof: proof, circuit: circuit, statement: two)
        return nil
      } catch { return error.code }
    }
    #expect(
      code == .circuitMismatch, "a 2-attribute statement checked with the 1-attribute circuit")
  }
}
