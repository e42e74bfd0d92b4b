import DCAPI
import DCCrypto
import DCMdoc
import DCOrgIsoMdoc
import DCVerifier
import DCWallet
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// Issue 33: the statement the wallet proves is the one the verifier checks the proof against.
/// The wallet builds a `ZkDocument` and its statement from a disclosed document; the verifier,
/// given that `ZkDocument`, builds its statement from it alone. No proof is made (minutes in a
/// debug build): the release end-to-end test in DCWalletCLITests proves.
@Suite("Zero-knowledge: the wallet's statement is the verifier's", .serialized)
struct ZeroKnowledgeStatementTests {
  static let circuitID = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"

  static func circuitBytes() throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent("DCVerifierTests/Vectors/longfellow-circuit-\(circuitID).zst")
    return Array(try Data(contentsOf: url))
  }

  @Test("statement built by the wallet == statement built by the verifier from the ZkDocument")
  func sameStatement() throws {
    let bytes = try Self.circuitBytes()
    let proverCircuit = try ZeroKnowledgeProverCircuit(compressed: bytes)
    #expect(proverCircuit.circuitHash == Self.circuitID)
    #expect(proverCircuit.attributeCount == 1)
    let pki = try TestPKI()
    let verifier = ZeroKnowledgeVerifier(
      circuits: [try ZeroKnowledgeCircuit(compressed: bytes)], issuerTrustAnchors: [pki.iaca])
    let device = try ECPrivateKey(curve: .p256)
    let origin = try WebOrigin("https://verifier.example")
    let items = try verifier.itemsRequest(
      docType: "org.iso.18013.5.1.mDL", nameSpace: "org.iso.18013.5.1",
      elements: ["age_over_18"])
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 7, count: 16),
        recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey))
    let transcript = request.sessionTranscript(origin: origin)
    let resolved = try ResolvedDeviceRequest.resolve(
      deviceRequest: request.deviceRequest, sessionTranscript: transcript,
      credentials: [
        StoredMdoc(id: "mdl", issuerSigned: try pki.issue(deviceKey: device.publicKey))
      ],
      readerTrustAnchors: [], now: TestPKI.now)
    let answers = try resolved.zeroKnowledgeAnswers(circuits: [proverCircuit]).get()
    #expect(answers.map(\.elements) == [["age_over_18"]])
    let disclosed = try resolved.deviceResponse(consent: try resolved.proposedConsent()) { _ in
      DeviceAuthenticator.signature(device)
    }
    let (data, walletStatement) = try ResolvedDeviceRequest.zeroKnowledgeStatement(
      disclosed.documents[0], answer: answers[0], sessionTranscript: transcript.bytes,
      now: TestPKI.now)
    #expect(data.timestamp.count == 20)
    // The verifier sees only the ZkDocument (proof bytes do not enter the statement).
    let response = DeviceResponse(
      documents: [], zkDocuments: [ZkDocument(documentData: data, proof: [0])])
    let received = try DeviceResponse(bytes: response.bytes)
    let prepared = try verifier.prepare(
      received, requested: try RequestedZeroKnowledge.all(in: request.deviceRequest),
      sessionTranscript: transcript, now: TestPKI.now)
    #expect(prepared.proofs.count == 1)
    #expect(prepared.proofs[0].statement == walletStatement)
  }

  @Test("the wallet refuses a request its circuit cannot prove: two elements, one attribute")
  func elementsNotProvable() throws {
    let proverCircuit = try ZeroKnowledgeProverCircuit(compressed: try Self.circuitBytes())
    let pki = try TestPKI()
    let device = try ECPrivateKey(curve: .p256)
    let spec = ZkSystemSpec(
      longfellowCircuitHash: Self.circuitID, numAttributes: 1, version: 7, blockEncHash: 4151,
      blockEncSig: 4096)
    let twoElements = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL", zeroKnowledge: ZkRequest(systemSpecs: [spec]),
      nameSpaces: [("org.iso.18013.5.1", ["age_over_18", "family_name"])])
    let resolved = try ResolvedDeviceRequest.resolve(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: twoElements)]),
      sessionTranscript: AnnexCRequest(
        deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: twoElements)]),
        encryptionInfo: EncryptionInfo(
          nonce: [UInt8](repeating: 7, count: 16),
          recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey)
      ).sessionTranscript(origin: try WebOrigin("https://verifier.example")),
      credentials: [
        StoredMdoc(id: "mdl", issuerSigned: try pki.issue(deviceKey: device.publicKey))
      ],
      readerTrustAnchors: [], now: TestPKI.now)
    let result = resolved.zeroKnowledgeAnswers(circuits: [proverCircuit])
    #expect(
      result.map { $0.count }
        == Result<Int, ZeroKnowledgeMismatch>.failure(
          ZeroKnowledgeMismatch.elementsNotProvable(
            docType: "org.iso.18013.5.1.mDL", zkSystemId: Self.circuitID, attributes: 1,
            requested: 2, nameSpaces: 1)))
    // Without the circuit: no circuit for the offered spec.
    guard case .failure(.noCircuit) = resolved.zeroKnowledgeAnswers(circuits: []) else {
      Issue.record("expected noCircuit")
      return
    }
  }
}
