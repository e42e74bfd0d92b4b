import DCCBOR
import DCMdoc
import DCTestSupport
import DCX509
import Foundation
import Testing

@testable import DCVerifier

/// Version 6 circuits (ZkSpec rate 4, 132 → 128 opened columns, the attribute layout before
/// version 7): Google Wallet's earlier capture (longfellow-zk post1.json, circuit 137e5a75…)
/// verifies end to end, and not under another transcript.
@Suite("Zero-knowledge verifier: version 6 circuits")
struct ZeroKnowledgeVersion6Tests {
  static let circuitID = "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6"
  /// Half a day before the capture's timestamp (2025-12-01T23:59:59Z).
  static let now = Date(timeIntervalSince1970: 1_764_633_599 - 12 * 3600)

  static func capture() throws -> (SessionTranscript, DeviceResponse) {
    let object = try VectorFile.object("longfellow-post1", in: Bundle.module)
    let transcript = try #require(
      (object["Transcript"] as? String).flatMap { Data(base64Encoded: $0) })
    let response = try #require(
      (object["ZKDeviceResponseCBOR"] as? String).flatMap { Data(base64Encoded: $0) })
    return (
      try SessionTranscript(bytes: Array(transcript)), try DeviceResponse(bytes: Array(response))
    )
  }

  static func verifier() throws -> ZeroKnowledgeVerifier {
    let circuit = try ZeroKnowledgeCircuit(
      compressed: try VectorFile.bytes(
        "longfellow-circuit-\(circuitID)", ext: "zst", in: Bundle.module))
    #expect(circuit.spec.zkSystemId == circuitID && circuit.spec.version == 6)
    let pem = String(
      decoding: try VectorFile.bytes("longfellow-payground-root", ext: "pem", in: Bundle.module),
      as: UTF8.self)
    return ZeroKnowledgeVerifier(
      circuits: [circuit], issuerTrustAnchors: [try Certificate(pemEncoded: pem)])
  }

  @Test("post1.json (version 6) verifies: age_over_18 proven, not under another transcript")
  func captureVerifies() async throws {
    let (transcript, response) = try Self.capture()
    let requested = [
      RequestedZeroKnowledge(
        docType: "org.iso.18013.5.1.mDL", zkSystemIds: [Self.circuitID],
        elements: [("org.iso.18013.5.1", "age_over_18")])
    ]
    let other = SessionTranscript(
      deviceEngagementBytes: .byteString([1]), eReaderKeyBytes: .byteString([2]),
      handover: .null)
    // Seconds in a debug build: off Swift's cooperative pool (see offCooperativePool).
    let (elements, refused) = try await offCooperativePool {
      let verifier = try Self.verifier()
      let result = try verifier.checkProofs(
        verifier.prepare(
          response, requested: requested, sessionTranscript: transcript, now: Self.now))
      let refused: VerifierErrorCode?
      do throws(VerifierError) {
        _ = try verifier.checkProofs(
          verifier.prepare(response, requested: requested, sessionTranscript: other, now: Self.now))
        refused = nil
      } catch { refused = error.code }
      return (result.documents.flatMap { $0.elements.map(\.identifier) }, refused)
    }
    #expect(elements == ["age_over_18"])
    #expect(refused == .verificationFailed)
  }
}
