import DCAPI
import DCCBOR
import DCCrypto
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCWallet
import DCWalletFixtureTestSupport
import DCWalletTestSupport
import DCX509
import Foundation
import Testing

/// A wallet without a prover refuses a zero-knowledge request with a typed reason instead of
/// answering it with a disclosure, though it holds a matching mdoc: over Annex C (ISO 18013-5
/// 2nd edition `zkRequest` in the ItemsRequest's requestInfo) and OpenID4VP (`mso_mdoc_zk`).
@Suite("Zero-knowledge requests are refused")
struct ZeroKnowledgeRefusalTests {
  let dir: TemporaryDirectory
  let wallet: Wallet

  init() async throws {
    dir = try TemporaryDirectory()
    let pki = try TestPKI(now: Date())
    wallet = try Wallet(
      home: WalletHome(directory: dir.path), policy: WalletPolicy(acceptsUnverifiedIssuers: true))
    let device = try ECPrivateKey(curve: .p256)
    _ = try await wallet.importMdoc(
      try pki.issue(deviceKey: device.publicKey).bytes, deviceKey: device, id: "mdl")
  }

  static let spec = ZkSystemSpec(
    longfellowCircuitHash: "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
    numAttributes: 1, version: 7, blockEncHash: 4151, blockEncSig: 4096)

  func refusals(_ envelope: RequestEnvelope) async -> [Refusal] {
    do {
      _ = try await wallet.resolve(envelope, origin: "https://verifier.example")
      return []
    } catch {
      return error.refusals
    }
  }

  static func annexC(_ items: ItemsRequest) throws -> RequestEnvelope {
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 1, count: 16),
        recipientPublicKey: try ECPrivateKey(curve: .p256).publicKey))
    return RequestEnvelope(requests: [
      ProtocolRequest(protocolIdentifier: "org-iso-mdoc", data: request.data)
    ])
  }

  @Test("org-iso-mdoc: a zkRequest is refused as zeroKnowledgeProofUnsupported")
  func annexCRefused() async throws {
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL", zeroKnowledge: ZkRequest(systemSpecs: [Self.spec]),
      nameSpaces: [("org.iso.18013.5.1", ["age_over_18"])])
    let refusals = await refusals(try Self.annexC(items))
    #expect(refusals.map(\.code) == [.zeroKnowledgeProofUnsupported])
    #expect(refusals.first?.reason.contains("longfellow-libzk-v1") == true)
    // The same request without zkRequest is answerable: the refusal is for the ZK request only.
    let plain = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])])
    #expect(await self.refusals(try Self.annexC(plain)).isEmpty)
  }

  @Test("org-iso-mdoc: an unreadable zkRequest is refused the same way, not answered")
  func unreadableRefused() async throws {
    let items = ItemsRequest(
      docType: "org.iso.18013.5.1.mDL",
      nameSpaces: [("org.iso.18013.5.1", [.init("age_over_18", intentToRetain: false)])],
      requestInfo: [.textString("zkRequest"): .textString("not a map")])
    #expect(
      await refusals(try Self.annexC(items)).map(\.code) == [.zeroKnowledgeProofUnsupported])
  }

  @Test("OpenID4VP: an mso_mdoc_zk Credential Query is refused as zeroKnowledgeProofUnsupported")
  func openID4VPRefused() async throws {
    let query = try JSONValue(
      parsing: """
        {"credentials": [{"id": "zk", "format": "mso_mdoc_zk",
          "meta": {"doctype_value": "org.iso.18013.5.1.mDL",
            "zk_system_type": [{"id": "x", "system": "longfellow-libzk-v1"}]},
          "claims": [{"path": ["org.iso.18013.5.1", "age_over_18"]}]}]}
        """)
    let data = JSONValue.object([
      ("response_type", "vp_token"), ("response_mode", "dc_api"), ("nonce", "n-1234567890"),
      ("dcql_query", query),
      (
        "client_metadata",
        .object([
          (
            "vp_formats_supported",
            .object([("mso_mdoc", .object([])), ("mso_mdoc_zk", .object([]))])
          ),
          ("jwks", .object([("keys", .array([]))])),
        ])
      ),
    ])
    let envelope = RequestEnvelope(requests: [
      ProtocolRequest(protocolIdentifier: "openid4vp-v1-unsigned", data: data)
    ])
    let refusals = await refusals(envelope)
    #expect(refusals.map(\.code) == [.zeroKnowledgeProofUnsupported], "\(refusals)")
  }
}
