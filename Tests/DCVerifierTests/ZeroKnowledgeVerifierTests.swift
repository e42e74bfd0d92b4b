import DCAPI
import DCCBOR
import DCCrypto
import DCEncoding
import DCJSON
import DCMdoc
import DCOpenID4VP
import DCOrgIsoMdoc
import DCTestSupport
import DCX509
import DCZK
import Foundation
import Testing

@testable import DCVerifier

/// The zero-knowledge verifier up to the proof, on Google Wallet's capture (post2.json, circuit
/// version 7): the checks outside the proof, the statement the proof is checked against, every
/// refusal, and the three transports.
@Suite("Zero-knowledge verifier")
struct ZeroKnowledgeVerifierTests {
  static let circuitID = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"
  /// Within a day of the capture's timestamp (2026-01-12T23:59:59Z), inside the document
  /// signer's validity (to 2026-05-07).
  static let now = Date(timeIntervalSince1970: 1_768_262_399 - 12 * 3600)

  let transcript: SessionTranscript
  let response: DeviceResponse
  let root: Certificate
  let circuit: ZeroKnowledgeCircuit

  init() throws {
    let object = try VectorFile.object("longfellow-post2", in: Bundle.module)
    let transcript = try #require(
      (object["Transcript"] as? String).flatMap { Data(base64Encoded: $0) })
    let response = try #require(
      (object["ZKDeviceResponseCBOR"] as? String).flatMap { Data(base64Encoded: $0) })
    self.transcript = try SessionTranscript(bytes: Array(transcript))
    self.response = try DeviceResponse(bytes: Array(response))
    let pem = String(
      decoding: try VectorFile.bytes("longfellow-payground-root", ext: "pem", in: Bundle.module),
      as: UTF8.self)
    root = try Certificate(pemEncoded: pem)
    circuit = try Self.loaded.get()
  }

  /// The circuit, read once for every test (reading it recomputes both circuits' ids).
  static let loaded = Result { () throws -> ZeroKnowledgeCircuit in
    try ZeroKnowledgeCircuit(
      compressed: try VectorFile.bytes(
        "longfellow-circuit-\(circuitID)", ext: "zst", in: Bundle.module))
  }

  func verifier(anchors: [Certificate]? = nil) -> ZeroKnowledgeVerifier {
    ZeroKnowledgeVerifier(circuits: [circuit], issuerTrustAnchors: anchors ?? [root])
  }

  static func asked(
    docType: String = "org.iso.18013.5.1.mDL", ids: [String] = [circuitID],
    elements: [(String, String)] = [("org.iso.18013.5.1", "age_over_18")]
  ) -> [RequestedZeroKnowledge] {
    [
      RequestedZeroKnowledge(
        docType: docType, zkSystemIds: ids, elements: elements.map { ($0.0, $0.1) })
    ]
  }

  @Test(
    "The capture passes every check outside the proof, and its statement is what the proof binds")
  func capture() throws {
    let prepared = try verifier().prepare(
      response, requested: Self.asked(), sessionTranscript: transcript, now: Self.now)
    let proof = try #require(prepared.proofs.first)
    let leaf = try Certificate(derEncoded: response.zkDocuments[0].documentData.msoX5chain[0])
    #expect(
      prepared.checks == [
        .zkDeviceResponseStructure(version: "1.0", zkDocumentCount: 1),
        .zkIssuer(
          docType: "org.iso.18013.5.1.mDL", documentSigner: leaf.subject, anchor: root.subject),
        .zkStatement(
          docType: "org.iso.18013.5.1.mDL", zkSystemId: Self.circuitID,
          elements: ["org.iso.18013.5.1/age_over_18"], timestamp: "2026-01-12T23:59:59Z"),
      ])
    let statement = proof.statement
    #expect(statement.docType == "org.iso.18013.5.1.mDL")
    #expect(statement.attributes.map(\.identifier) == ["age_over_18"])
    #expect(statement.attributes.map(\.cborValue) == [[0xF5]])
    #expect(statement.sessionTranscript == transcript.bytes)
    #expect(statement.now == "2026-01-12T23:59:59Z")
    let key = try #require(leaf.publicKey.ecPublicKey)
    let (x, y) = (statement.issuerKeyX, statement.issuerKeyY)
    #expect(x.count == 32 && y.count == 32 && [0x04] + x + y == key.x963Representation)
    #expect(proof.proof == response.zkDocuments[0].proof)
    #expect(proof.circuit.spec.version == 7)
  }

  @Test("Google Wallet's proof verifies: age_over_18 proven under the Payground Root, nothing else")
  func captureProofVerifies() async throws {
    let request = DeviceRequest(docRequests: [
      DocRequest(
        itemsRequest: try verifier().itemsRequest(
          docType: "org.iso.18013.5.1.mDL", nameSpace: "org.iso.18013.5.1",
          elements: ["age_over_18"]))
    ])
    let (verifier, response, transcript) = (verifier(), response, transcript)
    // Seconds in a debug build: off Swift's cooperative pool (see offCooperativePool).
    let result = try await offCooperativePool {
      try verifier.verify(response, request: request, sessionTranscript: transcript, now: Self.now)
    }
    let document = try #require(result.documents.first)
    #expect(document.docType == "org.iso.18013.5.1.mDL")
    #expect(document.elements.map(\.identifier) == ["age_over_18"])
    #expect(document.elements.map(\.value) == [.boolean(true)])
    guard case .chain(let path) = document.trust else {
      Issue.record("the issuer is not trusted through the anchor")
      return
    }
    #expect(path.anchor == root)
    #expect(
      result.report.checks.last
        == .zkProof(docType: "org.iso.18013.5.1.mDL", zkSystemId: Self.circuitID))
  }

  @Test("A pinned document signer is trusted as itself")
  func pinnedSigner() throws {
    let leaf = try Certificate(derEncoded: response.zkDocuments[0].documentData.msoX5chain[0])
    let prepared = try verifier(anchors: [leaf]).prepare(
      response, requested: Self.asked(), sessionTranscript: transcript, now: Self.now)
    #expect(prepared.checks.contains { if case .zkIssuer(_, _, nil) = $0 { true } else { false } })
  }

  static let refusals: [(String, [RequestedZeroKnowledge], Date, Bool)] = [
    ("another circuit requested", asked(ids: [String(repeating: "0", count: 64)]), now, true),
    ("another docType requested", asked(docType: "eu.europa.ec.av.1"), now, true),
    (
      "another element requested", asked(elements: [("org.iso.18013.5.1", "age_over_21")]), now,
      true
    ),
    ("another namespace requested", asked(elements: [("org.example", "age_over_18")]), now, true),
    ("nothing requested", [], now, true),
    ("timestamp two days old", asked(), now.addingTimeInterval(2 * 86_400), true),
    ("timestamp two days ahead", asked(), now.addingTimeInterval(-2 * 86_400), true),
    ("no anchor", asked(), now, false),
  ]

  @Test("Every check outside the proof refuses", arguments: 0..<refusals.count)
  func refusal(_ index: Int) {
    let (what, asked, now, anchored) = Self.refusals[index]
    #expect(throws: VerifierError.self, "\(what)") {
      try verifier(anchors: anchored ? nil : []).prepare(
        response, requested: asked, sessionTranscript: transcript, now: now)
    }
  }

  @Test("A document signer outside its validity is refused, even pinned")
  func signerExpired() throws {
    let leaf = try Certificate(derEncoded: response.zkDocuments[0].documentData.msoX5chain[0])
    let late = leaf.notAfter.addingTimeInterval(3600)
    var verifier = verifier(anchors: [leaf])
    verifier.maxTimestampSkew = 400 * 86_400
    #expect(throws: VerifierError.self) {
      try verifier.prepare(
        response, requested: Self.asked(), sessionTranscript: transcript, now: late)
    }
  }

  @Test("A ZK document disclosing more than its circuit proves, or device-signed data, is refused")
  func shape() throws {
    let data = response.zkDocuments[0].documentData
    let item = ZkSignedItem(elementIdentifier: "age_over_21", elementValue: .boolean(true))
    let two = ZkDocumentData(
      zkSystemId: data.zkSystemId, docType: data.docType, timestamp: data.timestamp,
      issuerSigned: [(data.issuerSigned[0].nameSpace, data.issuerSigned[0].items + [item])],
      msoX5chain: data.msoX5chain)
    let deviceSigned = ZkDocumentData(
      zkSystemId: data.zkSystemId, docType: data.docType, timestamp: data.timestamp,
      issuerSigned: data.issuerSigned, deviceSigned: [("org.iso.18013.5.1", [item])],
      msoX5chain: data.msoX5chain)
    let asked = Self.asked(elements: [
      ("org.iso.18013.5.1", "age_over_18"), ("org.iso.18013.5.1", "age_over_21"),
    ])
    for bad in [two, deviceSigned] {
      let response = DeviceResponse(
        documents: [], zkDocuments: [ZkDocument(documentData: bad, proof: [1])])
      #expect(throws: VerifierError.self) {
        try verifier().prepare(
          response, requested: asked, sessionTranscript: transcript, now: Self.now)
      }
    }
  }

  @Test("A statement the circuit cannot take (a transcript over 65,000 bytes) fails as a proof")
  func statementRefused() throws {
    let long = SessionTranscript(
      deviceEngagementBytes: .byteString([UInt8](repeating: 7, count: 70_000)),
      eReaderKeyBytes: .byteString([2]), handover: .null)
    do {
      _ = try verifier().prepare(
        response, requested: Self.asked(), sessionTranscript: long, now: Self.now)
      Issue.record("a statement DCZK refuses was prepared")
    } catch {
      #expect(error.code == .verificationFailed)
      #expect(error.reason.contains("not one the circuit takes"))
    }
  }

  @Test(
    "Circuits are read and named by their computed id; requests name those that prove that many attributes"
  )
  func circuitsAndRequests() throws {
    #expect(circuit.spec.zkSystemId == Self.circuitID)
    #expect(throws: VerifierError.self) { try ZeroKnowledgeCircuit(compressed: [1]) }
    #expect(throws: VerifierError.self) { try ZeroKnowledgeCircuit(compressed: []) }
    #expect(throws: VerifierError.self) {
      try ZeroKnowledgeCircuit(
        compressed: Array(repeating: 0, count: ZeroKnowledgeCircuit.maxCompressedLength + 1))
    }
    let items = try verifier().itemsRequest(
      docType: "org.iso.18013.5.1.mDL", nameSpace: "org.iso.18013.5.1", elements: ["age_over_18"])
    let spec = try #require(try items.zkRequest?.systemSpecs.first)
    #expect(spec.zkSystemId == Self.circuitID && spec.system == "longfellow-libzk-v1")
    #expect(spec.blockEncHash == 4151 && spec.blockEncSig == 4096 && spec.numAttributes == 1)
    #expect(items.nameSpaces.first?.elements.first?.intentToRetain == false)
    #expect(throws: VerifierError.self) {
      try verifier().itemsRequest(
        docType: "org.iso.18013.5.1.mDL", nameSpace: "org.iso.18013.5.1",
        elements: ["age_over_18", "age_over_21"])
    }
  }

  @Test("org-iso-mdoc: a ZK answer sealed to the request opens and is checked up to the proof")
  func annexC() throws {
    let items = try verifier().itemsRequest(
      docType: "org.iso.18013.5.1.mDL", nameSpace: "org.iso.18013.5.1", elements: ["age_over_18"])
    let state = try AnnexCVerifier.makeRequest(
      itemsRequests: [items], origin: try WebOrigin("https://verifier.example"))
    let sealed = try EncryptedResponse.seal(
      response, to: state.request.encryptionInfo.recipientPublicKey,
      sessionTranscript: state.sessionTranscript)
    let (opened, transcript) = try AnnexCVerifier.openDeviceResponse(
      responseData: sealed.data, state: state)
    #expect(opened == response && transcript == state.sessionTranscript)
    let prepared = try verifier().prepare(
      opened, requested: try RequestedZeroKnowledge.all(in: state.request.deviceRequest),
      sessionTranscript: transcript, now: Self.now)
    #expect(prepared.proofs[0].statement.sessionTranscript == state.sessionTranscript.bytes)
    #expect(throws: VerifierError.self) {
      try AnnexCVerifier.verifyZeroKnowledge(
        responseData: sealed.data, state: state, verifier: verifier(), now: Self.now)
    }
  }

  @Test(
    "OpenID4VP mso_mdoc_zk: the query names the circuits; the vp_token's answer is checked up to the proof"
  )
  func openID4VP() throws {
    let credentialQuery = try verifier().dcqlCredentialQuery(
      id: "zk", docType: "org.iso.18013.5.1.mDL", nameSpace: "org.iso.18013.5.1",
      elements: ["age_over_18"])
    #expect(credentialQuery["format"]?.string == "mso_mdoc_zk")
    let system = try #require(credentialQuery["meta"]?["zk_system_type"]?.array?.first)
    #expect(system["id"]?.string == Self.circuitID)
    #expect(system["circuit_hash"]?.string == Self.circuitID)
    #expect(system["version"]?.int == 7 && system["num_attributes"]?.int == 1)
    let request = try VerifierRequest(
      dcqlQuery: .object([("credentials", .array([credentialQuery]))]),
      origin: "https://verifier.example", responseMode: .dcAPI)
    #expect(request.state.asksZeroKnowledge)
    let answer = JSONValue.object([
      ("vp_token", .object([("zk", .array([.string(Base64URL.encode(response.bytes))]))]))
    ])
    let prepared = try request.state.prepareZeroKnowledge(
      answer, verifier: verifier(), now: Self.now)
    let expected = SessionTranscript(
      handover: Handover.openID4VPDCAPI(
        origin: "https://verifier.example", nonce: request.state.nonce, jwkThumbprint: nil))
    #expect(prepared.proofs[0].statement.sessionTranscript == expected.bytes)
    #expect(prepared.checks.count == 3)
    let twoEntries = JSONValue.object([
      (
        "vp_token",
        .object([
          ("zk", .array([.string(Base64URL.encode(response.bytes))])),
          ("other", .array([.string("x")])),
        ])
      )
    ])
    #expect(throws: VerifierError.self) {
      try request.state.prepareZeroKnowledge(twoEntries, verifier: verifier(), now: Self.now)
    }
  }

  @Test(
    "In person: the request carries zkRequest under readerAuth; the answer is checked up to the proof"
  )
  func inPerson() async throws {
    let items = try verifier().itemsRequest(
      docType: "org.iso.18013.5.1.mDL", nameSpace: "org.iso.18013.5.1", elements: ["age_over_18"])
    let session = SessionTranscript(
      deviceEngagementBytes: .byteString([1]), eReaderKeyBytes: .byteString([2]),
      handover: .null)
    let request = try ProximityReader.makeRequest(
      itemsRequests: [items], sessionTranscript: session)
    let read = try DeviceRequest(bytes: request.bytes)
    #expect(
      try read.docRequests[0].itemsRequest.zkRequest?.systemSpecs.first?.zkSystemId
        == Self.circuitID)
    let prepared = try verifier().prepare(
      response, requested: try RequestedZeroKnowledge.all(in: read), sessionTranscript: session,
      now: Self.now)
    #expect(prepared.proofs[0].statement.sessionTranscript == session.bytes)
    // The capture was made for another session: its proof does not verify under this one.
    let (verifier, bytes) = (verifier(), response.bytes)
    let code = try await offCooperativePool { () -> VerifierErrorCode? in
      do throws(VerifierError) {
        _ = try ProximityReader.verifyZeroKnowledge(
          response: bytes, request: read, sessionTranscript: session, verifier: verifier,
          now: Self.now)
        return nil
      } catch { return error.code }
    }
    #expect(code == .verificationFailed, "a proof made for another session verified")
  }
}
