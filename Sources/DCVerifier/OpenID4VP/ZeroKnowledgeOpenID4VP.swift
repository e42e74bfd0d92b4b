import DCEncoding
public import DCJSON
package import DCMdoc
import DCOpenID4VP
import DCQL
public import Foundation

// OpenID4VP `mso_mdoc_zk`: OpenID4VP 1.0 (final) and HAIP 1.0 define no zero-knowledge format.
// What is used here is what Google's longfellow-zk documentation proposes
// (`docs/content/en/docs/protocols.md`, `zk-system-spec.md`) and multipaz's verifier sends
// (`multipaz-verifier-server/.../verifier.kt`): a Credential Query with format `mso_mdoc_zk`,
// `meta.doctype_value` and `meta.zk_system_type` (one object per spec: `id`, `system` and the
// parameters flattened beside them), `claims` as for `mso_mdoc`; the vp_token entry is a
// base64url DeviceResponse holding `zkDocuments`, made under the OpenID4VPDCAPIHandover
// transcript as for `mso_mdoc` (Google Wallet's captures post1.json / post2.json use it).

extension ZeroKnowledgeVerifier {
  /// The DCQL format identifier of a zero-knowledge mdoc request (not in OpenID4VP 1.0).
  package static let dcqlFormat = "mso_mdoc_zk"

  /// A DCQL Credential Query (OpenID4VP 1.0 §6.1) asking for a zero-knowledge proof of
  /// `elements` of `docType` in `nameSpace`, under every configured circuit that proves that many
  /// attributes: format `mso_mdoc_zk`, `meta.zk_system_type`.
  ///
  /// - Throws: `invalidRequest` when no configured circuit proves `elements.count` attributes.
  public func dcqlCredentialQuery(
    id: String, docType: String, nameSpace: String, elements: [String]
  ) throws(VerifierError) -> JSONValue {
    let items = try itemsRequest(docType: docType, nameSpace: nameSpace, elements: elements)
    let specs = (try? items.zkRequest)?.systemSpecs ?? []
    return .object([
      ("id", .string(id)), ("format", .string(Self.dcqlFormat)),
      (
        "meta",
        .object([
          ("doctype_value", .string(docType)),
          ("zk_system_type", .array(specs.map(Self.json))),
        ])
      ),
      (
        "claims",
        .array(
          elements.map {
            .object([
              ("path", .array([.string(nameSpace), .string($0)])),
              ("intent_to_retain", .bool(false)),
            ])
          })
      ),
    ])
  }

  /// A `zk_system_type` entry: `id`, `system`, then the parameters (longfellow-zk
  /// `zk-system-spec.md`, "ZK Spec Parameters in OpenID4VP DCQL").
  static func json(_ spec: ZkSystemSpec) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("id", .string(spec.zkSystemId)), ("system", .string(spec.system)),
    ]
    for (name, value) in spec.params.sorted(by: { $0.key < $1.key }) {
      let json: JSONValue =
        switch value {
        case .text(let text): .string(text)
        case .integer(let n): .integer(n)
        case .boolean(let flag): .bool(flag)
        case .double(let number): .number(number)
        }
      members.append((name, json))
    }
    return .object(members)
  }
}

extension RequestedZeroKnowledge {
  /// A `mso_mdoc_zk` Credential Query as what it asks: the docType, the ids of its
  /// `zk_system_type` entries (`id`, or `zkSystemId` as EUDI's reader also accepts), and its
  /// `[namespace, element]` claims; nil for another format.
  init?(_ query: CredentialQuery) {
    // The DCQL module reads `doctype_value` for `mso_mdoc` only; here it is read from `meta`.
    guard query.format == ZeroKnowledgeVerifier.dcqlFormat,
      let docType = query.meta.raw["doctype_value"]?.stringValue
    else { return nil }
    var ids: [String] = []
    if case .array(let entries)? = query.meta.raw["zk_system_type"] {
      for case .object(let entry) in entries {
        if let id = (entry["id"] ?? entry["zkSystemId"])?.stringValue { ids.append(id) }
      }
    }
    var elements: [(nameSpace: String, identifier: String)] = []
    for claim in query.claims ?? [] {
      if case .key(let ns) = claim.path.components.first, claim.path.components.count == 2,
        case .key(let element) = claim.path.components[1]
      {
        elements.append((ns, element))
      }
    }
    self.init(docType: docType, zkSystemIds: ids, elements: elements)
  }
}

extension VerifierState {
  /// Opens a response to a request whose DCQL query has one `mso_mdoc_zk` Credential Query and
  /// verifies its proof: the vp_token entry's DeviceResponse `zkDocuments`, under the
  /// OpenID4VPDCAPIHandover transcript of this origin, nonce and encryption key (OpenID4VP 1.0
  /// Appendix B.2.6.2, as for `mso_mdoc`).
  public func verifyZeroKnowledge(
    _ data: JSONValue, verifier: ZeroKnowledgeVerifier, now: Date
  ) throws(VerifierError) -> ZeroKnowledgeVerifier.Result {
    try verifier.checkProofs(prepareZeroKnowledge(data, verifier: verifier, now: now))
  }

  /// Whether the state's DCQL query has an `mso_mdoc_zk` Credential Query.
  package var asksZeroKnowledge: Bool {
    ((try? parsedQuery())?.credentials ?? []).contains {
      $0.format == ZeroKnowledgeVerifier.dcqlFormat
    }
  }

  /// Everything up to the proofs (see ``verifyZeroKnowledge(_:verifier:now:)``).
  package func prepareZeroKnowledge(
    _ data: JSONValue, verifier: ZeroKnowledgeVerifier, now: Date
  ) throws(VerifierError) -> (proofs: [PreparedProof], checks: [VerificationCheck]) {
    let (response, transcript, decrypted) = try zeroKnowledgeResponse(data)
    let query: DCQLQuery
    do {
      query = try parsedQuery()
    } catch {
      throw VerifierError(.invalidRequest, error.reason, underlying: error)
    }
    let requested = query.credentials.compactMap(RequestedZeroKnowledge.init)
    let prepared = try verifier.prepare(
      response, requested: requested, sessionTranscript: transcript, now: now)
    return (prepared.proofs, (decrypted ? [.responseDecrypted] : []) + prepared.checks)
  }

  /// The one vp_token entry's DeviceResponse and its SessionTranscript; whether it was
  /// decrypted.
  package func zeroKnowledgeResponse(_ data: JSONValue) throws(VerifierError) -> (
    DeviceResponse, SessionTranscript, Bool
  ) {
    do {
      let opened = try open(data)
      let (_, entries) = try Self.readVPToken(opened.payload)
      guard entries.count == 1, let items = entries[0].value.array, items.count == 1,
        let presentation = items[0].string
      else {
        throw VerifierError(
          .verificationFailed, "vp_token must hold one entry with one DeviceResponse")
      }
      let response = try DeviceResponse(bytes: try Base64URL.decode(presentation))
      let transcript = PresentationBinding.dcAPI(origin: origin).sessionTranscript(
        nonce: nonce, jwkThumbprint: opened.thumbprint)
      return (response, transcript, opened.thumbprint != nil)
    } catch let error as VerifierError {
      throw error
    } catch {
      throw VerifierError(.verificationFailed, "\(error)", underlying: error)
    }
  }
}
