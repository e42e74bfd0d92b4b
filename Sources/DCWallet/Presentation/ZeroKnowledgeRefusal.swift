import DCMdoc
import DCQL

extension Wallet {
  /// The refusal of a DeviceRequest that asks for a zero-knowledge proof (ISO 18013-5 2nd edition
  /// `zkRequest` in an ItemsRequest's `requestInfo`): this wallet has no prover, and answering
  /// with a plain document would disclose what the verifier asked to stay hidden (the issuer's
  /// signature, linkable across verifiers). An unreadable `zkRequest` is refused the same way.
  static func zeroKnowledgeRefusal(_ request: DeviceRequest, protocolIdentifier: String)
    -> Refusal?
  {
    for docRequest in request.docRequests {
      let items = docRequest.itemsRequest
      let systems: [String]
      do {
        guard let zkRequest = try items.zkRequest else { continue }
        systems = zkRequest.systemSpecs.map { "\($0.system) \($0.zkSystemId)" }
      } catch {
        systems = ["unreadable: \(error.reason)"]
      }
      return Refusal(
        protocolIdentifier: protocolIdentifier, code: .zeroKnowledgeProofUnsupported,
        reason:
          "\(items.docType) is requested as a zero-knowledge proof (\(systems.joined(separator: ", "))); "
          + "this wallet has no prover and does not answer it with a disclosure")
    }
    return nil
  }

  /// The refusal of a DCQL query with an `mso_mdoc_zk` Credential Query (the format Google's
  /// longfellow-zk documentation proposes; not in OpenID4VP 1.0), for the same reason.
  static func zeroKnowledgeRefusal(_ query: DCQLQuery, protocolIdentifier: String) -> Refusal? {
    guard let zk = query.credentials.first(where: { $0.format == "mso_mdoc_zk" }) else {
      return nil
    }
    return Refusal(
      protocolIdentifier: protocolIdentifier, code: .zeroKnowledgeProofUnsupported,
      reason:
        "credential query \(zk.id) (\(zk.meta.raw["doctype_value"]?.stringValue ?? "no doctype")) asks for a "
        + "zero-knowledge proof (mso_mdoc_zk); this wallet has no prover and does not answer it "
        + "with a disclosure")
  }
}
