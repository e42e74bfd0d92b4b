import DCCBOR
import DCEncoding
import DCJSON
import DCMdoc
import DCX509
import Foundation

/// `dcwallet inspect` of zero-knowledge requests and documents (ISO 18013-5 2nd edition
/// `ZkRequest` / `ZkDocument`, OpenID4VP `mso_mdoc_zk`), in words.
enum ZeroKnowledgeInspect {
  /// A ZK document: what the proof claims and what it keeps hidden.
  static func describe(_ document: ZkDocument, index: Int) -> [String] {
    let data = document.documentData
    var lines = [
      "  zkDocuments[\(index)]: \(data.docType), a zero-knowledge proof (\(document.proof.count) bytes) "
        + "under the ZK system \(data.zkSystemId)"
    ]
    lines.append("    claims, if the proof verifies (nothing is verified here):")
    for (ns, item) in data.disclosedElements {
      lines.append(
        "      \(ns)/\(item.elementIdentifier) = \(item.elementValue.diagnosticNotation.prefix(120))"
      )
    }
    for (ns, items) in data.deviceSigned {
      for item in items { lines.append("      device-signed \(ns)/\(item.elementIdentifier)") }
    }
    lines.append("      the MSO was valid at \(data.timestamp)")
    let signer = (try? Certificate(derEncoded: data.msoX5chain[0]))?.subject.description
    lines.append(
      "      issued by the document signer \(signer ?? "(unreadable certificate)") "
        + "(msoX5chain, \(data.msoX5chain.count) certificate(s); its chain is checked outside the proof)"
    )
    lines.append(
      "    hidden: every other element, the MSO and its signature, the device key and signature")
    lines.append("    documentData:")
    lines += InspectCommand.indent(data.cbor.diagnosticNotation).map { "    " + $0 }
    return lines
  }

  /// The zero-knowledge part of a DeviceRequest, empty when it asks none.
  static func describe(_ request: DeviceRequest) -> [String] {
    var lines: [String] = []
    for (index, docRequest) in request.docRequests.enumerated() {
      let items = docRequest.itemsRequest
      let zkRequest: ZkRequest?
      do {
        zkRequest = try items.zkRequest
      } catch {
        lines.append("docRequests[\(index)]: an unreadable zkRequest: \(error.reason)")
        continue
      }
      guard let zkRequest else { continue }
      let elements = items.requestedElements.map { "\($0.nameSpace)/\($0.element.identifier)" }
      lines.append(
        "docRequests[\(index)]: a zero-knowledge proof of \(elements.joined(separator: ", ")) "
          + "of \(items.docType) (\(zkRequest.zkRequired ? "required" : "preferred")), "
          + "nothing else disclosed, under one of:")
      lines += zkRequest.systemSpecs.map(specLine)
    }
    return lines
  }

  static func specLine(_ spec: ZkSystemSpec) -> String {
    let params = spec.params.sorted { $0.key < $1.key }.map { name, value in
      let text =
        switch value {
        case .text(let text): text
        case .integer(let n): "\(n)"
        case .boolean(let flag): "\(flag)"
        case .double(let number): "\(number)"
        }
      return "\(name)=\(text)"
    }
    return "  \(spec.system) \(spec.zkSystemId) (\(params.joined(separator: ", ")))"
  }

  /// An OpenID4VP request's `mso_mdoc_zk` Credential Queries, empty when it has none.
  static func describeDCQL(_ data: JSONValue) -> [String] {
    var query = data["dcql_query"]
    if query == nil, let jws = data["request"]?.string {
      let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
      if parts.count == 3, let payload = try? Base64URL.decode(String(parts[1])),
        let json = try? JSONValue(parsing: payload)
      {
        query = json["dcql_query"]
      }
    }
    var lines: [String] = []
    for credential in query?["credentials"]?.array ?? []
    where credential["format"]?.string == "mso_mdoc_zk" {
      let claims = (credential["claims"]?.array ?? []).map { claim in
        (claim["path"]?.array ?? []).compactMap(\.string).joined(separator: "/")
      }
      let systems = (credential["meta"]?["zk_system_type"]?.array ?? []).map { entry in
        "  \(entry["system"]?.string ?? "?") \(entry["id"]?.string ?? entry["zkSystemId"]?.string ?? "?")"
      }
      lines.append(
        "credential query \(credential["id"]?.string ?? "?"): a zero-knowledge proof "
          + "(mso_mdoc_zk, not in OpenID4VP 1.0) of \(claims.joined(separator: ", ")) of "
          + "\(credential["meta"]?["doctype_value"]?.string ?? "?"), nothing else disclosed, under one of:"
      )
      lines += systems
    }
    return lines
  }

  /// A capture in the shape Google's verifier service takes (`Transcript`,
  /// `ZKDeviceResponseCBOR`), or nil.
  static func describeCapture(_ json: JSONValue) -> [String]? {
    guard let transcriptText = json["Transcript"]?.string,
      let responseText = json["ZKDeviceResponseCBOR"]?.string,
      let transcript = Data(base64Encoded: transcriptText),
      let response = Data(base64Encoded: responseText),
      let item = try? CBOR.decode(Array(response))
    else { return nil }
    var lines = ["zero-knowledge verification input (Google verifier service shape):"]
    lines.append("SessionTranscript (\(transcript.count) bytes):")
    if let cbor = try? CBOR.decode(Array(transcript)) {
      lines += InspectCommand.indent(cbor.diagnosticNotation)
    }
    return lines + InspectCommand.describeDeviceResponse(item)
  }
}
