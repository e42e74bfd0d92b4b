public import DCCBOR
import DCCrypto
public import DCMdoc
public import DCX509
package import DCZK
public import Foundation

/// The relying party's side of zero-knowledge mdoc presentation (ISO 18013-5 2nd edition
/// `ZkRequest` / `ZkDocument`, Longfellow `longfellow-libzk-v1`): it asks for a proof under the
/// circuits it was configured with, and verifies a `ZkDocument` against them.
///
/// What is checked outside the proof: the response names a requested circuit, its docType and
/// elements were requested, the timestamp is near `now`, the `msoX5chain` chains to an issuer
/// anchor (or is a pinned document signer) at `now`. The proof itself binds the issuer key, the
/// docType, each element's identifier and value, the SessionTranscript and the timestamp.
public struct ZeroKnowledgeVerifier: Sendable {
  /// The circuits, in the order the request lists them.
  package let circuits: [ZeroKnowledgeCircuit]
  /// Trusted mdoc issuers: IACAs, or document signer certificates pinned as they are.
  package let issuerTrustAnchors: [Certificate]
  /// How far the proof's `timestamp` may be from `now`, either way. Google Wallet sends the end
  /// of the current UTC day (its captures say 23:59:59Z), so the default allows a day and an hour.
  public var maxTimestampSkew: TimeInterval = 25 * 3600

  /// A verifier of proofs under `circuits`, issued under `issuerTrustAnchors`.
  public init(circuits: [ZeroKnowledgeCircuit], issuerTrustAnchors: [Certificate]) {
    self.circuits = circuits
    self.issuerTrustAnchors = issuerTrustAnchors
  }

  /// The ItemsRequest asking for a zero-knowledge proof of `elements` of `docType`, all in
  /// `nameSpace` (a Longfellow proof takes one namespace), under every configured circuit that
  /// proves that many attributes.
  ///
  /// - Throws: `invalidRequest` when no configured circuit proves `elements.count` attributes.
  public func itemsRequest(docType: String, nameSpace: String, elements: [String])
    throws(VerifierError) -> ItemsRequest
  {
    let specs = circuits.map(\.spec).filter { $0.numAttributes == elements.count }
    guard !elements.isEmpty, !specs.isEmpty else {
      throw VerifierError(
        .invalidRequest,
        "no configured circuit proves \(elements.count) attribute(s); configured: "
          + circuits.map { "\($0.spec.zkSystemId) (\($0.spec.numAttributes ?? 0))" }
          .joined(separator: ", "))
    }
    return ItemsRequest(
      docType: docType, zeroKnowledge: ZkRequest(systemSpecs: specs, zkRequired: true),
      nameSpaces: [(nameSpace, elements)])
  }

  /// One document proven in zero knowledge.
  public struct ProvenDocument: Sendable {
    /// The document type the proof binds.
    public let docType: String
    /// The elements the proof binds, in response order: nothing else was disclosed.
    public let elements: [(nameSpace: String, identifier: String, value: CBOR)]
    /// The document signer certificate (`msoX5chain`'s leaf), checked outside the proof.
    public let documentSigner: Certificate
    /// Why the issuer is trusted: a chain to an anchor, or the pinned document signer.
    public let trust: IssuerTrustBasis
    /// The ZkSystemSpec the proof was made under.
    package let zkSystemId: String
    /// The instant the proof says the MSO was valid at (`timestamp`).
    package let timestamp: String
  }

  /// The outcome of verifying a ZK response.
  public struct Result: Sendable {
    /// The documents proven, in response order.
    public let documents: [ProvenDocument]
    /// What was checked, in order.
    public let report: VerificationReport
  }

  /// Verifies a DeviceResponse's `zkDocuments` for `request`, made under `sessionTranscript`
  /// (Annex C's dcapi handover, the in-person session's, or OpenID4VP's), at `now`.
  ///
  /// - Throws: `verificationFailed` naming the first check that fails; `proofSystemUnavailable`
  ///   when every check outside the proof passed but this build cannot check the proof.
  public func verify(
    _ response: DeviceResponse, request: DeviceRequest, sessionTranscript: SessionTranscript,
    now: Date
  ) throws(VerifierError) -> Result {
    try checkProofs(
      prepare(
        response, requested: try RequestedZeroKnowledge.all(in: request),
        sessionTranscript: sessionTranscript, now: now))
  }

  /// Verifies each prepared proof, appending a check per proof.
  package func checkProofs(_ prepared: (proofs: [PreparedProof], checks: [VerificationCheck]))
    throws(VerifierError) -> Result
  {
    var checks = prepared.checks
    for proof in prepared.proofs {
      try ZeroKnowledgeProofCheck.verify(proof)
      checks.append(
        .zkProof(docType: proof.statement.docType, zkSystemId: proof.circuit.spec.zkSystemId))
    }
    return Result(
      documents: prepared.proofs.map(\.document), report: VerificationReport(checks: checks))
  }

  /// Everything up to the proof: the documents, the statements and the checks that passed.
  package func prepare(
    _ response: DeviceResponse, requested: [RequestedZeroKnowledge],
    sessionTranscript: SessionTranscript, now: Date
  ) throws(VerifierError) -> (proofs: [PreparedProof], checks: [VerificationCheck]) {
    // ISO 18013-5 §8.3.2.1.2.3: a non-zero status means the mdoc could not answer.
    guard response.status == DeviceResponse.statusOK, !response.zkDocuments.isEmpty else {
      throw VerifierError(
        .verificationFailed,
        "the DeviceResponse has status \(response.status) and \(response.zkDocuments.count) "
          + "zkDocuments: no zero-knowledge proof to verify")
    }
    var checks: [VerificationCheck] = [
      .zkDeviceResponseStructure(
        version: response.version, zkDocumentCount: response.zkDocuments.count)
    ]
    var proofs: [PreparedProof] = []
    for (index, document) in response.zkDocuments.enumerated() {
      do {
        let proof = try prepare(
          document, requested: requested, sessionTranscript: sessionTranscript, now: now,
          checks: &checks)
        proofs.append(proof)
      } catch {
        throw VerifierError(
          error.code, "zkDocuments[\(index)]: \(error.reason)", underlying: error)
      }
    }
    return (proofs, checks)
  }

  /// One ZK document's checks outside the proof, and its statement.
  private func prepare(
    _ document: ZkDocument, requested: [RequestedZeroKnowledge],
    sessionTranscript: SessionTranscript, now: Date, checks: inout [VerificationCheck]
  ) throws(VerifierError) -> PreparedProof {
    let data = document.documentData
    let (circuit, asked) = try requestedCircuit(data, requested: requested)
    try checkElements(data, circuit: circuit, requested: asked)
    try checkTimestamp(data.timestamp, now: now)
    let (signer, trust, key) = try issuer(data, now: now)
    checks.append(
      .zkIssuer(docType: data.docType, documentSigner: signer.subject, anchor: trust.anchorName))
    let elements = data.disclosedElements
    let statement = try Self.statement(
      key: key, data: data, sessionTranscript: sessionTranscript.bytes)
    checks.append(
      .zkStatement(
        docType: data.docType, zkSystemId: data.zkSystemId,
        elements: elements.map { "\($0.nameSpace)/\($0.item.elementIdentifier)" },
        timestamp: data.timestamp))
    let proven = ProvenDocument(
      docType: data.docType,
      elements: elements.map { ($0.nameSpace, $0.item.elementIdentifier, $0.item.elementValue) },
      documentSigner: signer, trust: trust, zkSystemId: data.zkSystemId,
      timestamp: data.timestamp)
    return PreparedProof(
      document: proven, circuit: circuit, statement: statement, proof: document.proof)
  }

  /// The proof's public inputs (longfellow-zk `mdoc_zk.h` `run_mdoc_verifier`): a statement
  /// the circuits cannot take (DCZK checks each part) is refused like a proof that fails.
  private static func statement(
    key: ECPublicKey, data: ZkDocumentData, sessionTranscript: [UInt8]
  ) throws(VerifierError) -> MdocZKStatement {
    // x then y, 32 bytes big-endian each.
    let raw = key.rawRepresentation
    do {
      return try MdocZKStatement(
        issuerKeyX: Array(raw.prefix(32)), issuerKeyY: Array(raw.suffix(32)), docType: data.docType,
        attributes: data.disclosedElements.map {
          MdocZKAttribute(
            identifier: $0.item.elementIdentifier, cborValue: $0.item.elementValueBytes)
        },
        sessionTranscript: sessionTranscript, now: data.timestamp)
    } catch {
      throw VerifierError(
        .verificationFailed,
        "\(data.docType): the proof's statement is not one the circuit takes: \(error.reason)",
        underlying: error)
    }
  }

  /// The circuit `zkSystemId` names: one this verifier has and a request of this docType asked
  /// for.
  private func requestedCircuit(_ data: ZkDocumentData, requested: [RequestedZeroKnowledge])
    throws(VerifierError) -> (ZeroKnowledgeCircuit, RequestedZeroKnowledge)
  {
    for asked in requested
    where asked.docType == data.docType && asked.zkSystemIds.contains(data.zkSystemId) {
      if let circuit = circuits.first(where: { $0.spec.zkSystemId == data.zkSystemId }) {
        return (circuit, asked)
      }
    }
    throw VerifierError(
      .verificationFailed,
      "\(data.docType) under \(data.zkSystemId) was not requested, or names no configured circuit")
  }

  /// Every disclosed element was requested, in one namespace (the circuit binds identifiers and
  /// values, not the namespace), as many as the circuit proves, and nothing is device-signed.
  private func checkElements(
    _ data: ZkDocumentData, circuit: ZeroKnowledgeCircuit, requested: RequestedZeroKnowledge
  ) throws(VerifierError) {
    let elements = data.disclosedElements
    guard data.issuerSigned.count == 1, data.deviceSigned.isEmpty,
      elements.count == circuit.spec.numAttributes
    else {
      throw VerifierError(
        .verificationFailed,
        "a proof under \(circuit.spec.zkSystemId) discloses \(circuit.spec.numAttributes ?? 0) "
          + "element(s) of one namespace and nothing device-signed; this one has "
          + "\(elements.count) in \(data.issuerSigned.count) namespace(s)"
          + (data.deviceSigned.isEmpty ? "" : " and device-signed elements"))
    }
    for (ns, item) in elements
    where !requested.elements.contains(where: {
      $0.nameSpace == ns && $0.identifier == item.elementIdentifier
    }) {
      throw VerifierError(
        .verificationFailed, "\(ns)/\(item.elementIdentifier) was returned but not requested")
    }
  }

  /// The proof's `timestamp` is within ``maxTimestampSkew`` of `now`: the circuit proves the MSO
  /// valid at that instant, so an old one would let an expired mdoc through.
  private func checkTimestamp(_ timestamp: String, now: Date) throws(VerifierError) {
    guard let instant = CBOR.tagged(0, .textString(timestamp)).dateTime,
      abs(instant.timeIntervalSince(now)) <= maxTimestampSkew
    else {
      throw VerifierError(
        .verificationFailed,
        "the proof's timestamp \(timestamp) is more than \(Int(maxTimestampSkew)) s from now")
    }
  }

  /// `msoX5chain` checked against the anchors at `now` (outside the proof: the proof binds only
  /// the leaf's key), as `IssuerSigned.verify(issuerAnchors:)` does for a disclosed mdoc.
  private func issuer(_ data: ZkDocumentData, now: Date) throws(VerifierError) -> (
    Certificate, IssuerTrustBasis, ECPublicKey
  ) {
    var chain: [Certificate] = []
    for der in data.msoX5chain {
      do {
        chain.append(try Certificate(derEncoded: der))
      } catch {
        throw VerifierError(
          .verificationFailed, "msoX5chain: \(error.reason)", underlying: error)
      }
    }
    let leaf = chain[0]
    // longfellow-zk mdoc_zk.h: the circuit verifies an ES256 MSO signature, so a P-256 key.
    guard let key = leaf.publicKey.ecPublicKey, key.curve == .p256 else {
      throw VerifierError(
        .verificationFailed, "the document signer key is \(leaf.publicKey), not P-256")
    }
    let validator = CertificateValidator(
      trustAnchors: issuerTrustAnchors, policy: .mdocDocumentSigner, revocation: .current)
    switch validator.validate(chain: chain, at: now) {
    case .trusted(let path): return (leaf, .chain(path), key)
    case .untrusted(let reason), .malformed(let reason):
      guard issuerTrustAnchors.contains(where: { $0.derBytes == leaf.derBytes }),
        leaf.notBefore <= now, now <= leaf.notAfter
      else {
        throw VerifierError(
          .verificationFailed, "document signer \(leaf.subject) is not trusted: \(reason)")
      }
      return (leaf, .pinnedDocumentSigner(leaf), key)
    }
  }
}

extension IssuerTrustBasis {
  /// The anchor's subject for a chain; nil for a pinned document signer.
  var anchorName: DistinguishedName? {
    if case .chain(let path) = self { return path.anchor.subject }
    return nil
  }
}

/// A ZK document checked up to its proof.
package struct PreparedProof: Sendable {
  /// What the proof, once verified, establishes.
  package let document: ZeroKnowledgeVerifier.ProvenDocument
  /// The circuit it names.
  package let circuit: ZeroKnowledgeCircuit
  /// Its public inputs, checked against what the circuits take.
  package let statement: MdocZKStatement
  /// The proof bytes.
  package let proof: [UInt8]
}

/// What a verifier asked to be proven in zero knowledge, whatever the protocol carried it: an
/// ItemsRequest with `zkRequest` (ISO 18013-5 2nd edition) or an OpenID4VP `mso_mdoc_zk`
/// Credential Query.
package struct RequestedZeroKnowledge: Sendable {
  /// The requested docType.
  package let docType: String
  /// The `zkSystemId`s of the specs offered.
  package let zkSystemIds: [String]
  /// The requested elements.
  package let elements: [(nameSpace: String, identifier: String)]

  /// A request as the values it carried.
  package init(
    docType: String, zkSystemIds: [String], elements: [(nameSpace: String, identifier: String)]
  ) {
    self.docType = docType
    self.zkSystemIds = zkSystemIds
    self.elements = elements
  }

  /// The doc requests of `request` that ask for a proof.
  package static func all(in request: DeviceRequest) throws(VerifierError)
    -> [RequestedZeroKnowledge]
  {
    var out: [RequestedZeroKnowledge] = []
    for docRequest in request.docRequests {
      let items = docRequest.itemsRequest
      let zkRequest: ZkRequest?
      do {
        zkRequest = try items.zkRequest
      } catch {
        throw VerifierError(.invalidRequest, error.reason, underlying: error)
      }
      guard let zkRequest else { continue }
      out.append(
        RequestedZeroKnowledge(
          docType: items.docType, zkSystemIds: zkRequest.systemSpecs.map(\.zkSystemId),
          elements: items.requestedElements.map { ($0.nameSpace, $0.element.identifier) }))
    }
    return out
  }
}
