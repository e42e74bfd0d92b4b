import DCEncoding
import DCJSON
import DCStatusList
import DCX509

// How a verification report is written to a transaction's row and read back (see
// StoredPresentationTransaction.swift): each check as `{"check": NAME, ...its values}`.

extension VerificationReport {
  var stored: JSONValue { .array(checks.map(\.stored)) }

  init(stored json: JSONValue) throws(PresentationStoreError) {
    guard let list = json.array else { throw .corrupt("a report is not an array") }
    var checks: [VerificationCheck] = []
    for item in list { checks.append(try VerificationCheck(stored: item)) }
    self.init(checks: checks)
  }
}

extension VerificationCheck {
  var stored: JSONValue {
    let (name, values) = storedMembers
    return .object([("check", .string(name))] + values)
  }

  private var storedMembers: (String, [(key: String, value: JSONValue)]) {
    switch self {
    case .responseOpened(let origin): ("response_opened", [("origin", .string(origin))])
    case .deviceResponseStructure(let version, let count):
      ("device_response", [("version", .string(version)), ("count", .integer(Int64(count)))])
    case .documentIssuer(let docType, let signer, let trust):
      (
        "document_issuer",
        [
          ("doctype", .string(docType)), ("signer", .string(Base64URL.encode(signer.derBytes))),
          ("trust", .string(trust.stored)),
        ]
      )
    case .documentDeviceSignature(let docType):
      ("device_signature", [("doctype", .string(docType))])
    case .documentDeviceMac(let docType): ("device_mac", [("doctype", .string(docType))])
    case .deviceSignaturePayloadAttached(let docType):
      ("payload_attached", [("doctype", .string(docType))])
    case .onlyRequestedElements(let docType, let count):
      ("only_requested", [("doctype", .string(docType)), ("count", .integer(Int64(count)))])
    case .responseDecrypted: ("response_decrypted", [])
    case .credentialSetsSatisfied: ("credential_sets", [])
    case .everyCredentialQueryAnswered: ("every_query", [])
    case .presentationsMeetQueries: ("meet_queries", [])
    case .sdJWTIssuerSignature: ("sd_jwt_issuer", [])
    case .sdJWTDisclosureDigests: ("sd_jwt_digests", [])
    case .keyBinding(let origin): ("key_binding", [("origin", .string(origin))])
    case .transactionDataBound: ("transaction_data", [])
    case .mdocIssuerAuth(let trust): ("mdoc_issuer", [("trust", .string(trust.stored))])
    case .mdocValueDigests: ("mdoc_digests", [])
    case .mdocHandoverDeviceSignature(let origin): ("mdoc_handover", [("origin", .string(origin))])
    case .keyBindingToClient(let clientID):
      ("key_binding_client", [("client_id", .string(clientID))])
    case .mdocRedirectHandoverDeviceSignature(let clientID, let responseURI):
      (
        "mdoc_redirect_handover",
        [("client_id", .string(clientID)), ("response_uri", .string(responseURI))]
      )
    case .credentialStatus(let credential, let outcome):
      ("status", [("credential", .string(credential)), ("outcome", outcome.stored)])
    case .issuerRevocation(let unknown):
      ("issuer_revocation", [("unknown", .array(unknown.map { .string($0) }))])
    case .zkDeviceResponseStructure, .zkIssuer, .zkStatement, .zkProof: zkStoredMembers
    }
  }

  /// The zero-knowledge checks as stored.
  private var zkStoredMembers: (String, [(key: String, value: JSONValue)]) {
    func name(_ name: DistinguishedName) -> JSONValue { .string(Base64URL.encode(name.derBytes)) }
    switch self {
    case .zkDeviceResponseStructure(let version, let count):
      return ("zk_response", [("version", .string(version)), ("count", .integer(Int64(count)))])
    case .zkIssuer(let docType, let signer, let anchor):
      return (
        "zk_issuer",
        [("doctype", .string(docType)), ("signer", name(signer))]
          + (anchor.map { [("anchor", name($0))] } ?? [])
      )
    case .zkStatement(let docType, let id, let elements, let timestamp):
      return (
        "zk_statement",
        [
          ("doctype", .string(docType)), ("zk_system_id", .string(id)),
          ("elements", .array(elements.map(JSONValue.string))), ("timestamp", .string(timestamp)),
        ]
      )
    case .zkProof(let docType, let id):
      return ("zk_proof", [("doctype", .string(docType)), ("zk_system_id", .string(id))])
    default: return ("unknown", [])
    }
  }

  init(stored json: JSONValue) throws(PresentationStoreError) {
    func text(_ name: String) throws(PresentationStoreError) -> String {
      guard let value = json[name]?.string else { throw .corrupt("a check lacks \(name)") }
      return value
    }
    func count() throws(PresentationStoreError) -> Int {
      guard let value = json["count"]?.int else { throw .corrupt("a check lacks its count") }
      return value
    }
    let name = try text("check")
    if let simple = Self.simple[name] {
      self = simple
      return
    }
    switch name {
    case "response_opened": self = .responseOpened(transcriptOrigin: try text("origin"))
    case "device_response":
      self = .deviceResponseStructure(version: try text("version"), documentCount: try count())
    case "document_issuer":
      let signer: DistinguishedName
      do {
        signer = try DistinguishedName(derEncoded: try Base64URL.decode(try text("signer")))
      } catch {
        throw .corrupt("a stored document signer name does not read back")
      }
      self = .documentIssuer(
        docType: try text("doctype"), documentSigner: signer, trust: try IssuerTrust(text("trust")))
    case "device_signature": self = .documentDeviceSignature(docType: try text("doctype"))
    case "device_mac": self = .documentDeviceMac(docType: try text("doctype"))
    case "payload_attached": self = .deviceSignaturePayloadAttached(docType: try text("doctype"))
    case "only_requested":
      self = .onlyRequestedElements(docType: try text("doctype"), elementCount: try count())
    case "key_binding": self = .keyBinding(origin: try text("origin"))
    case "mdoc_issuer": self = .mdocIssuerAuth(trust: try IssuerTrust(text("trust")))
    case "issuer_revocation":
      guard let unknown = json["unknown"]?.array?.compactMap(\.string) else {
        throw .corrupt("a revocation check lacks its unknown list")
      }
      self = .issuerRevocation(unknown: unknown)
    case "mdoc_handover": self = .mdocHandoverDeviceSignature(origin: try text("origin"))
    case "key_binding_client": self = .keyBindingToClient(clientID: try text("client_id"))
    case "mdoc_redirect_handover":
      self = .mdocRedirectHandoverDeviceSignature(
        clientID: try text("client_id"), responseURI: try text("response_uri"))
    case "status":
      guard let outcome = json["outcome"] else { throw .corrupt("a status check lacks outcome") }
      self = .credentialStatus(
        credential: try text("credential"), outcome: try ReportedCredentialStatus(stored: outcome))
    default:
      self = try Self(storedZK: json, name: name)
    }
  }

  /// A stored zero-knowledge check.
  private init(storedZK json: JSONValue, name: String) throws(PresentationStoreError) {
    func text(_ key: String) throws(PresentationStoreError) -> String {
      guard let value = json[key]?.string else { throw .corrupt("a check lacks \(key)") }
      return value
    }
    func distinguishedName(_ key: String) throws(PresentationStoreError) -> DistinguishedName {
      do {
        return try DistinguishedName(derEncoded: try Base64URL.decode(try text(key)))
      } catch {
        throw .corrupt("a stored name does not read back")
      }
    }
    switch name {
    case "zk_response":
      guard let count = json["count"]?.int else { throw .corrupt("a check lacks its count") }
      self = .zkDeviceResponseStructure(version: try text("version"), zkDocumentCount: count)
    case "zk_issuer":
      self = .zkIssuer(
        docType: try text("doctype"), documentSigner: try distinguishedName("signer"),
        anchor: json["anchor"] == nil ? nil : try distinguishedName("anchor"))
    case "zk_statement":
      guard let elements = json["elements"]?.array?.compactMap(\.string) else {
        throw .corrupt("a check lacks its elements")
      }
      self = .zkStatement(
        docType: try text("doctype"), zkSystemId: try text("zk_system_id"), elements: elements,
        timestamp: try text("timestamp"))
    case "zk_proof":
      self = .zkProof(docType: try text("doctype"), zkSystemId: try text("zk_system_id"))
    default:
      throw .corrupt("unknown check \(name)")
    }
  }

  /// The checks without values, by stored name.
  private static let simple: [String: VerificationCheck] = [
    "response_decrypted": .responseDecrypted, "credential_sets": .credentialSetsSatisfied,
    "every_query": .everyCredentialQueryAnswered, "meet_queries": .presentationsMeetQueries,
    "sd_jwt_issuer": .sdJWTIssuerSignature, "sd_jwt_digests": .sdJWTDisclosureDigests,
    "transaction_data": .transactionDataBound, "mdoc_digests": .mdocValueDigests,
  ]
}

extension VerificationCheck.IssuerTrust {
  var stored: String {
    switch self {
    case .chainToIACA: "chain"
    case .pinnedDocumentSigner: "pinned"
    }
  }

  init(_ stored: String) throws(PresentationStoreError) {
    switch stored {
    case "chain": self = .chainToIACA
    case "pinned": self = .pinnedDocumentSigner
    default: throw .corrupt("unknown issuer trust \(stored)")
    }
  }
}

extension ReportedCredentialStatus {
  var stored: JSONValue {
    switch self {
    case .valid(let uri, let index):
      .object([("is", "valid"), ("uri", .string(uri)), ("index", .integer(Int64(index)))])
    case .unknown(let uri, let reason, let detail):
      .object(
        [("is", "unknown"), ("reason", .string(reason.rawValue)), ("detail", .string(detail))]
          + (uri.map { [("uri", .string($0))] } ?? []))
    case .notReferenced: .object([("is", "not_referenced")])
    case .skipped: .object([("is", "skipped")])
    }
  }

  init(stored json: JSONValue) throws(PresentationStoreError) {
    switch json["is"]?.string {
    case "valid":
      guard let uri = json["uri"]?.string, let index = json["index"]?.int else {
        throw .corrupt("a valid status lacks its uri or index")
      }
      self = .valid(uri: uri, index: index)
    case "unknown":
      guard let reason = json["reason"]?.string.flatMap(StatusUnknownReason.init(rawValue:)),
        let detail = json["detail"]?.string
      else { throw .corrupt("an unknown status lacks its reason") }
      self = .unknown(uri: json["uri"]?.string, reason: reason, detail: detail)
    case "not_referenced": self = .notReferenced
    case "skipped": self = .skipped
    default: throw .corrupt("unknown credential status")
    }
  }
}
