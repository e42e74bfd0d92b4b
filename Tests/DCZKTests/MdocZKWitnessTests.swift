import DCCBOR
import DCEncoding
import DCTestSupport
import Foundation
import Testing

@testable import DCZK

/// The C++ oracle's witness dump (Vectors/longfellow/witness-fixed-keys.wit.zst, format in
/// PROVENANCE.md): both circuits' input vectors for the committed mdoc and statement with fixed
/// MAC keys, as upstream's fill_witness + update_macs fill them.
struct LongfellowWitnessDump {
  let hash: [GF2128]
  let hashPublic: Int
  let signature: [FieldP256]
  let signaturePublic: Int
  let macs: [[UInt8]]

  /// ap byte i = (37·i + 11) mod 256 (96 bytes), av byte i = (53·i + 7) mod 256 (16 bytes).
  static let proverKeyBytes = (0..<96).map { UInt8((37 * $0 + 11) % 256) }
  static let verifierKeyBytes = (0..<16).map { UInt8((53 * $0 + 7) % 256) }
  static var proverKeys: [GF2128] { (0..<6).map { GF2128.read(proverKeyBytes, at: 16 * $0)! } }
  static var verifierKey: GF2128 { GF2128.read(verifierKeyBytes, at: 0)! }

  init() throws {
    let url = try #require(
      Bundle.module.url(
        forResource: "witness-fixed-keys.wit", withExtension: "zst",
        subdirectory: "Vectors/longfellow"))
    let bytes = try Zstd.decompress(Array(try Data(contentsOf: url)), maximumSize: 4 << 20)
    #expect(Array(bytes[0..<8]) == [0x4C, 0x46, 0x5A, 0x57, 1, 0, 0, 0])
    func u32(_ offset: Int) -> Int {
      (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
    let hashCount = u32(8)
    hashPublic = u32(12)
    let signatureCount = u32(16)
    signaturePublic = u32(20)
    macs = (0..<6).map { Array(bytes[24 + 16 * $0..<40 + 16 * $0]) }
    let hashStart = 120
    let signatureStart = hashStart + 16 * hashCount
    #expect(bytes.count == signatureStart + 32 * signatureCount)
    hash = try (0..<hashCount).map { try #require(GF2128.read(bytes, at: hashStart + 16 * $0)) }
    signature = try (0..<signatureCount).map {
      try #require(FieldP256.read(bytes, at: signatureStart + 32 * $0))
    }
  }
}

@Suite("Longfellow mdoc witness against the C++ oracle's dump")
struct MdocZKWitnessTests {
  let vectors: LongfellowVectors
  let dump: LongfellowWitnessDump
  let response: [UInt8]

  init() throws {
    vectors = try LongfellowVectors()
    dump = try LongfellowWitnessDump()
    let url = try #require(
      Bundle.module.url(
        forResource: "mdoc", withExtension: "cbor", subdirectory: "Vectors/longfellow"))
    response = Array(try Data(contentsOf: url))
  }

  func witness(_ response: [UInt8], _ statement: MdocZKStatement? = nil) throws -> MdocZKWitness {
    try MdocZKWitness(
      deviceResponse: response, statement: try statement ?? vectors.statement(),
      proverMACKeys: LongfellowWitnessDump.proverKeys)
  }

  /// The first index where two vectors differ, for a readable failure.
  func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
    zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
  }

  @Test("Both vectors equal upstream's element for element, MACs included")
  func equalsOracle() throws {
    var witness = try witness(response)
    let macs = witness.setMACs(verifierKey: LongfellowWitnessDump.verifierKey)
    #expect(witness.hashInputs.count == dump.hash.count)
    #expect(witness.signatureInputs.count == dump.signature.count)
    #expect(firstDifference(witness.hashInputs, dump.hash) == nil)
    #expect(firstDifference(witness.signatureInputs, dump.signature) == nil)
    #expect(macs.map { $0.bytes } == dump.macs)
    #expect(dump.hashPublic == MdocZKBinding.hashPublicInputs(attributes: 1))
    #expect(dump.signaturePublic == MdocZKBinding.signaturePublicInputs)
  }

  /// The circuits hold on the witness: every assertion is zero and every output is zero
  /// (SumcheckProver.evaluate, the prover's own layer-by-layer evaluation); a witness with one
  /// changed element, or MACs for another av than the slots hold, does not.
  @Test("Both circuits evaluate to zero on it; not with one element changed")
  func circuitsHold() async throws {
    let circuit = try LongfellowCircuit(compressed: vectors.circuit)
    var witness = try witness(response)
    witness.setMACs(verifierKey: LongfellowWitnessDump.verifierKey)
    let inputs = (witness.hashInputs, witness.signatureInputs)
    // Seconds in a debug build: off Swift's cooperative pool (see offCooperativePool).
    let holds = try await offCooperativePool { () -> [Bool] in
      var hash = inputs.0
      hash[hash.count - 1] = hash[hash.count - 1] + .one  // the last prover MAC key
      var signature = inputs.1
      let e = MdocZKBinding.signaturePublicInputs
      signature[e] = signature[e] + .one
      return [
        SumcheckProver.evaluate(circuit: circuit.hash, inputs: inputs.0) != nil,
        SumcheckProver.evaluate(circuit: circuit.signature, inputs: inputs.1) != nil,
        SumcheckProver.evaluate(circuit: circuit.hash, inputs: hash) != nil,
        SumcheckProver.evaluate(circuit: circuit.signature, inputs: signature) != nil,
      ]
    }
    #expect(holds == [true, true, false, false])
  }

}

/// The prover wired to the witness: a proof from the DeviceResponse alone.
@Suite("Longfellow mdoc prover from the mdoc alone", .serialized)
struct MdocZKProverFromMdocTests {
  /// Minutes of CPU in a debug build: runs where the C++ oracle is (`ZK_ORACLE_LFZK`) or when
  /// asked (`DCZK_PROVE_IN_DEBUG=1`). CI proves from an mdoc through the release `dcwallet`
  /// (ZeroKnowledgeBinaryTests, `DCWALLET_RELEASE_BIN`); the prover's refusal of a witness the
  /// circuit rejects is ProverTests', the circuits' rejection of a changed witness
  /// MdocZKWitnessTests'.
  @Test(
    "Accepted by the Swift verifier (and by the C++ one when present); a false value is not proved",
    .enabled(
      if: ProcessInfo.processInfo.environment["ZK_ORACLE_LFZK"] != nil
        || ProcessInfo.processInfo.environment["DCZK_PROVE_IN_DEBUG"] == "1"))
  func proveFromMdoc() async throws {
    let vectors = try LongfellowVectors()
    let circuit = try LongfellowCircuit(compressed: vectors.circuit)
    let statement = try vectors.statement()
    // The mdoc says true: "false" has a witness (the item is found) but the circuit does not hold.
    let other = try vectors.statement([
      "attributes": [["identifier": "age_over_18", "cborValue": "f4"]]
    ])
    let url = try #require(
      Bundle.module.url(
        forResource: "mdoc", withExtension: "cbor", subdirectory: "Vectors/longfellow"))
    let response = Array(try Data(contentsOf: url))
    // Minutes in a debug build: off Swift's cooperative pool (see offCooperativePool).
    let (proof, falseProved) = try await offCooperativePool { () throws -> ([UInt8], Bool) in
      var random = ZKRandom(SeededRandom(seed: 33))
      let proof = try MdocZKProver.prove(
        circuit: circuit, statement: statement, deviceResponse: response, random: &random)
      try MdocZKVerifier.verify(proof: proof, circuit: circuit, statement: statement)
      var again = ZKRandom(SeededRandom(seed: 34))
      let falseProof = try? MdocZKProver.prove(
        circuit: circuit, statement: other, deviceResponse: response, random: &again)
      return (proof, falseProof != nil)
    }
    #expect(!falseProved)
    try MdocZKProverTests.checkWithOracle(proof: proof, vectors: vectors)
  }

}

/// Mdocs the circuits cannot take are refused with a typed error before any proof work.
@Suite("Longfellow mdoc witness: refusals")
struct MdocZKWitnessRefusalTests {
  let vectors: LongfellowVectors
  let response: [UInt8]

  init() throws {
    vectors = try LongfellowVectors()
    let url = try #require(
      Bundle.module.url(
        forResource: "mdoc", withExtension: "cbor", subdirectory: "Vectors/longfellow"))
    response = Array(try Data(contentsOf: url))
  }

  struct Shape: Error {}

  /// The committed DeviceResponse with issuerAuth or the org.iso.18013.5.1 items changed.
  func response(
    issuerAuth: ([CBOR]) -> [CBOR] = { $0 }, items: ([CBOR]) throws -> [CBOR] = { $0 }
  ) throws -> [UInt8] {
    let nameSpace = "org.iso.18013.5.1"
    guard case .map(var root) = try CBOR.decode(response),
      case .array(var documents)? = root["documents"],
      case .map(var document) = documents[0], case .map(var signed)? = document["issuerSigned"],
      case .array(let auth)? = signed["issuerAuth"],
      case .map(var nameSpaces)? = signed["nameSpaces"],
      case .array(let list)? = nameSpaces[nameSpace]
    else { throw Shape() }
    nameSpaces[nameSpace] = .array(try items(list))
    signed["nameSpaces"] = .map(nameSpaces)
    signed["issuerAuth"] = .array(issuerAuth(auth))
    document["issuerSigned"] = .map(signed)
    documents[0] = .map(document)
    root["documents"] = .array(documents)
    return CBOR.map(root).encoded()
  }

  func code(_ response: [UInt8], _ changes: [String: Any] = [:]) throws -> ZKErrorCode? {
    let statement = try vectors.statement(changes)
    do {
      _ = try MdocZKWitness(
        deviceResponse: response, statement: statement,
        proverMACKeys: LongfellowWitnessDump.proverKeys)
      return nil
    } catch {
      return error.code
    }
  }

  /// DCCBOR's re-encoding need not keep every byte (heads), but what the circuit reads stays.
  @Test("The committed response, and its re-encoding with nothing changed, are taken")
  func baseline() throws {
    #expect(try code(response) == nil)
    #expect(try code(response()) == nil)
  }

  @Test("Not CBOR as the circuit reads it: malformed")
  func malformed() throws {
    #expect(try code([0xFF]) == .mdocMalformed)
    #expect(try code([0xA1, 0x61, 0x78, 0xF9, 0x3C, 0x00]) == .mdocMalformed)  // a float
    #expect(try code([0x9B, 0, 0, 0, 0, 0, 0, 0, 1, 0]) == .mdocMalformed)  // 8-byte length
    #expect(try code([UInt8](repeating: 0x81, count: 30) + [0]) == .mdocMalformed)  // depth
    #expect(try code([0x9A, 0xFF, 0xFF, 0xFF, 0xFF]) == .mdocMalformed)  // more items than bytes
    #expect(try code([0xA0]) == .mdocMalformed)  // no documents
  }

  @Test("The tagged MSO: at most 2,532 bytes, at least 256")
  func msoSize() throws {
    func payload(_ count: Int) -> (([CBOR]) -> [CBOR]) {
      { auth in
        var auth = auth
        auth[2] = .byteString([0xD8, 0x18, 0x59] + [UInt8](repeating: 0, count: count - 3))
        return auth
      }
    }
    // At the limit the size passes and the zeros are no MSO; one past it, the size is refused.
    #expect(
      try code(response(issuerAuth: payload(MdocZKWitnessLayout.maxTaggedMSOLength - 1)))
        == .mdocMalformed)
    #expect(
      try code(response(issuerAuth: payload(MdocZKWitnessLayout.maxTaggedMSOLength)))
        == .mdocUnsupported)
    #expect(try code(response(issuerAuth: payload(255))) == .mdocUnsupported)
  }

  @Test("Signatures must be 64 bytes r‖s")
  func signatureShape() throws {
    let short = try response { auth in
      var auth = auth
      auth[3] = .byteString([UInt8](repeating: 1, count: 63))
      return auth
    }
    #expect(try code(short) == .mdocUnsupported)
  }

  @Test("A disclosed item over 119 tagged bytes is refused")
  func longItem() throws {
    func withValue(_ text: String) throws -> [UInt8] {
      try response(items: { list in
        guard case .tagged(24, .byteString(let bytes)) = list[0],
          case .map(var item) = try CBOR.decode(bytes)
        else {
          throw Shape()
        }
        item["elementValue"] = .textString(text)
        return [.tagged(24, .byteString(CBOR.map(item).encoded()))]
      })
    }
    // The item holds digestID, random (32 B), the identifier and the value: a 100-character
    // value makes it far over 119 bytes; the length check comes before any signature.
    #expect(try code(withValue(String(repeating: "x", count: 100))) == .mdocUnsupported)
  }

  @Test("Statement mismatches: attribute, docType, issuer key, transcript")
  func statementMismatch() throws {
    let cases = try vectors.cases()
    func changes(_ name: String) throws -> [String: Any] {
      try #require(cases.first { $0.name == name }).statement
    }
    #expect(
      try code(response, ["attributes": [["identifier": "family_name", "cborValue": "f5"]]])
        == .attributeNotFound)
    #expect(try code(response, try changes("other-doc-type")) == .mdocUnsupported)
    #expect(try code(response, try changes("other-issuer-key")) == .signatureInvalid)
    #expect(try code(response, try changes("other-session-transcript")) == .signatureInvalid)
  }
}
