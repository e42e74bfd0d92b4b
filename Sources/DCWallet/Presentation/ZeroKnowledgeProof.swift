import DCCBOR
import DCCrypto
import DCEncoding
package import DCMdoc
import DCQL
import DCX509
package import DCZK
package import Foundation

/// A Longfellow circuit the wallet proves with (draft-google-cfrg-libzk; the mdoc circuits
/// longfellow-zk publishes): an app gives the wallet the circuits it ships, and a request whose
/// `ZkSystemSpec` names one of them is answered with a proof instead of a disclosure.
public struct ZeroKnowledgeProverCircuit: Sendable {
  /// The circuit id DCZK computes from the file (SHA-256 over the pair, hex): the
  /// `circuit_hash` a request names it by, and the `zkSystemId` of the answer.
  public let circuitHash: String
  /// How many attributes one proof with it discloses (1 to 4).
  package let attributeCount: Int
  /// The circuit pair.
  package let circuit: LongfellowCircuit

  /// The largest circuit file accepted (published ones are 210 to 340 KB compressed).
  package static let maxCompressedLength = 16 << 20

  /// Reads a circuit file (zstd-compressed, as published).
  ///
  /// - Throws: `invalidInput` for an empty, oversized or unreadable file, or one that is not a
  ///   version 7 mdoc circuit (the layout the wallet's witness fills).
  public init(compressed: [UInt8]) throws(WalletError) {
    guard !compressed.isEmpty, compressed.count <= Self.maxCompressedLength else {
      throw WalletError(
        .invalidInput,
        "a circuit file must be 1 to \(Self.maxCompressedLength) bytes, not \(compressed.count)")
    }
    do {
      let circuit = try LongfellowCircuit(compressed: compressed)
      attributeCount = try MdocZKPreparedCircuit(circuit).attributes
      circuitHash = Hex.encode(circuit.id)
      self.circuit = circuit
    } catch {
      throw WalletError(
        .invalidInput, "not a version 7 Longfellow mdoc circuit: \(error.reason)",
        underlying: error)
    }
  }
}

/// A doc request the wallet answers with a proof: the spec it chose and its circuit.
package struct ZeroKnowledgeAnswer: Sendable {
  /// The doc request's index.
  package let docRequestIndex: Int
  /// The spec of the request the answer follows (its `zkSystemId` names the proof).
  package let spec: ZkSystemSpec
  /// The circuit that proves it.
  package let circuit: ZeroKnowledgeProverCircuit
  /// The namespace of the requested elements (a proof covers one).
  package let nameSpace: String
  /// The requested elements, in request order: the proof's attributes.
  package let elements: [String]
}

extension ResolvedDeviceRequest {
  /// The doc requests that ask for a zero-knowledge proof, each with the circuit that answers
  /// it; or the reason one cannot be answered (ISO 18013-5 2nd edition `zkRequest`): the wallet
  /// has no circuit named by its specs, or the circuit does not prove its elements (one
  /// namespace, as many elements as the circuit's attributes). A request with `zkRequired`
  /// false is refused the same way: a disclosure is never made in place of a proof.
  package func zeroKnowledgeAnswers(circuits: [ZeroKnowledgeProverCircuit])
    -> Result<[ZeroKnowledgeAnswer], ZeroKnowledgeMismatch>
  {
    var answers: [ZeroKnowledgeAnswer] = []
    for docRequest in documentRequests {
      let items = docRequest.itemsRequest
      let zkRequest: ZkRequest
      do {
        guard let request = try items.zkRequest else { continue }
        zkRequest = request
      } catch {
        return .failure(.unreadable(docType: items.docType, reason: error.reason))
      }
      let spaces = Set(items.requestedElements.map(\.nameSpace))
      let elements = items.requestedElements.map(\.element.identifier)
      let offered = zkRequest.systemSpecs.map { "\($0.system) \($0.zkSystemId)" }
      let match = zkRequest.systemSpecs.lazy.compactMap { spec in
        circuits.first { circuit in
          spec.system == ZkSystemSpec.longfellowV1
            && (spec.zkSystemId == circuit.circuitHash || spec.circuitHash == circuit.circuitHash)
        }.map { (spec, $0) }
      }.first
      guard let (spec, circuit) = match else {
        return .failure(.noCircuit(docType: items.docType, offered: offered))
      }
      guard spaces.count == 1, let nameSpace = spaces.first,
        elements.count == circuit.attributeCount
      else {
        return .failure(
          .elementsNotProvable(
            docType: items.docType, zkSystemId: spec.zkSystemId,
            attributes: circuit.attributeCount, requested: elements.count,
            nameSpaces: spaces.count))
      }
      answers.append(
        ZeroKnowledgeAnswer(
          docRequestIndex: docRequest.index, spec: spec, circuit: circuit, nameSpace: nameSpace,
          elements: elements))
    }
    return .success(answers)
  }
}

/// Why a zero-knowledge request cannot be answered by this wallet.
package enum ZeroKnowledgeMismatch: Error, Sendable, Equatable {
  /// The `zkRequest` does not parse.
  case unreadable(docType: String, reason: String)
  /// None of the offered specs names a circuit the wallet has.
  case noCircuit(docType: String, offered: [String])
  /// The circuit does not prove the requested elements: they are not in one namespace, or not
  /// as many as its attributes.
  case elementsNotProvable(
    docType: String, zkSystemId: String, attributes: Int, requested: Int, nameSpaces: Int)

  /// The refusal's reason.
  var reason: String {
    switch self {
    case .unreadable(let docType, let reason):
      "\(docType) is requested as a zero-knowledge proof, unreadable (\(reason)); "
        + "the wallet does not answer it with a disclosure"
    case .noCircuit(let docType, let offered):
      "\(docType) is requested as a zero-knowledge proof (\(offered.joined(separator: ", "))); "
        + "this wallet has no circuit for it and does not answer it with a disclosure"
    case .elementsNotProvable(let docType, let id, let attributes, let requested, let spaces):
      "\(docType) is requested as a zero-knowledge proof under \(id), whose circuit proves "
        + "\(attributes) element(s) of one namespace; the request names \(requested) in "
        + "\(spaces) namespace(s), so no proof can answer it (no disclosure is made instead)"
    }
  }
}

extension Wallet {
  /// The refusal of a DeviceRequest whose `zkRequest` this wallet cannot answer with a proof
  /// (`circuits` empty: every one, as in person, where no proof is made).
  func zeroKnowledgeRefusal(
    _ resolved: ResolvedDeviceRequest, circuits: [ZeroKnowledgeProverCircuit],
    protocolIdentifier: String
  ) -> Refusal? {
    guard case .failure(let mismatch) = resolved.zeroKnowledgeAnswers(circuits: circuits) else {
      return nil
    }
    return Refusal(
      protocolIdentifier: protocolIdentifier, code: .zeroKnowledgeProofUnsupported,
      reason: mismatch.reason)
  }
}

extension ResolvedDeviceRequest {
  /// Replaces the documents of the doc requests in `answers` by zero-knowledge documents: each
  /// one's disclosed document (device-signed over this transcript, as the witness needs) is the
  /// prover's input and is not sent. The statement is the one a verifier builds from the
  /// `ZkDocument` (issuer key from `msoX5chain`'s leaf, docType, the elements' values, the
  /// transcript, the timestamp).
  ///
  /// - Throws: `consentViolation` when the consent for such a doc request does not share
  ///   exactly its requested elements; `cryptoFailure` when the credential does not prove the
  ///   statement (the prover's refusal named).
  package func zeroKnowledgeResponse(
    _ response: DeviceResponse, consent: MdocConsent, answers: [ZeroKnowledgeAnswer], now: Date
  ) throws(PresentationError) -> DeviceResponse {
    guard !answers.isEmpty else { return response }
    let ordered = consent.documents.sorted { $0.docRequestIndex < $1.docRequestIndex }
    var documents: [Document] = []
    var zkDocuments: [ZkDocument] = []
    for (item, document) in zip(ordered, response.documents) {
      guard let answer = answers.first(where: { $0.docRequestIndex == item.docRequestIndex })
      else {
        documents.append(document)
        continue
      }
      guard item.elements == [answer.nameSpace: Set(answer.elements)] else {
        throw PresentationError(
          .consentViolation,
          "\(document.docType) is answered with a proof of exactly the requested elements "
            + "(\(answer.elements.joined(separator: ", "))); the consent names others")
      }
      zkDocuments.append(try zeroKnowledgeDocument(document, answer: answer, now: now))
    }
    return DeviceResponse(
      documents: documents, documentErrors: response.documentErrors, status: response.status,
      zkDocuments: zkDocuments)
  }

  /// One proof: the statement, the prover on the disclosed document, the `ZkDocument`.
  private func zeroKnowledgeDocument(
    _ document: Document, answer: ZeroKnowledgeAnswer, now: Date
  ) throws(PresentationError) -> ZkDocument {
    let data: ZkDocumentData
    let statement: MdocZKStatement
    do {
      (data, statement) = try Self.zeroKnowledgeStatement(
        document, answer: answer, sessionTranscript: sessionTranscript.bytes, now: now)
    } catch {
      throw PresentationError(
        .cryptoFailure, "\(document.docType): no statement to prove: \(error)")
    }
    let single = DeviceResponse(documents: [document], documentErrors: [])
    var random = ZKRandom()
    do {
      let proof = try MdocZKProver.prove(
        circuit: answer.circuit.circuit, statement: statement, deviceResponse: single.bytes,
        random: &random)
      return ZkDocument(documentData: data, proof: proof)
    } catch {
      throw PresentationError(
        .cryptoFailure,
        "\(document.docType): the credential does not prove the statement: \(error.reason)")
    }
  }

  /// The `ZkDocumentData` and the statement a verifier builds from it (longfellow-zk
  /// `mdoc_zk.h` `run_mdoc_verifier` public inputs): the same element values, encoded by the
  /// same encoder.
  package static func zeroKnowledgeStatement(
    _ document: Document, answer: ZeroKnowledgeAnswer, sessionTranscript: [UInt8], now: Date
  ) throws -> (ZkDocumentData, MdocZKStatement) {
    let issuerSigned = document.issuerSigned
    let chain = try issuerSigned.documentSignerChain()
    guard let key = chain[0].publicKey.ecPublicKey, key.curve == .p256 else {
      throw PresentationError(.cryptoFailure, "the document signer key is not P-256")
    }
    let held = issuerSigned.nameSpaces.first { $0.nameSpace == answer.nameSpace }?.items ?? []
    var items: [ZkSignedItem] = []
    for element in answer.elements {
      guard let item = held.first(where: { $0.elementIdentifier == element }) else {
        throw PresentationError(
          .consentViolation, "the credential has no \(answer.nameSpace)/\(element)")
      }
      items.append(ZkSignedItem(elementIdentifier: element, elementValue: item.elementValue))
    }
    // ISO 18013-5 2nd edition ZkDocumentData.timestamp: tdate, whole seconds (20 characters,
    // longfellow-zk proofs.go TIMESTAMP_LEN).
    let timestamp = Self.timestamp(now)
    let data = ZkDocumentData(
      zkSystemId: answer.spec.zkSystemId, docType: issuerSigned.docType, timestamp: timestamp,
      issuerSigned: [(answer.nameSpace, items)], msoX5chain: chain.map(\.derBytes))
    let raw = key.rawRepresentation
    let statement = try MdocZKStatement(
      issuerKeyX: Array(raw.prefix(32)), issuerKeyY: Array(raw.suffix(32)),
      docType: issuerSigned.docType,
      attributes: items.map {
        MdocZKAttribute(identifier: $0.elementIdentifier, cborValue: $0.elementValueBytes)
      },
      sessionTranscript: sessionTranscript, now: timestamp)
    return (data, statement)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` in UTC.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }
}

extension Wallet {
  /// The refusal of a DCQL query with an `mso_mdoc_zk` Credential Query (the format Google's
  /// longfellow-zk documentation proposes; not in OpenID4VP 1.0): the wallet proves only in
  /// Annex C DeviceRequests, and never answers such a query with a disclosure.
  static func zeroKnowledgeRefusal(_ query: DCQLQuery, protocolIdentifier: String) -> Refusal? {
    guard let zk = query.credentials.first(where: { $0.format == "mso_mdoc_zk" }) else {
      return nil
    }
    return Refusal(
      protocolIdentifier: protocolIdentifier, code: .zeroKnowledgeProofUnsupported,
      reason:
        "credential query \(zk.id) (\(zk.meta.raw["doctype_value"]?.stringValue ?? "no doctype")) asks for a "
        + "zero-knowledge proof (mso_mdoc_zk); this wallet proves only in ISO 18013-5 "
        + "DeviceRequests and does not answer it with a disclosure")
  }
}
