import DCAPI
import DCCBOR
import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCVerifier
import DCX509
import Foundation

/// `dcwallet inspect FILE`: prints any request, response, registry blob or credential it
/// recognises, readably (CBOR diagnostic notation, decoded JOSE headers and payloads).
enum InspectCommand {
  static let spec = CommandSpec(
    path: "dcwallet inspect",
    summary: "Print a DC API request or response, a credential or registry data in readable form.",
    options: [
      .value(
        "key", "FILE",
        "open an encrypted response with the verifier's private key (P-256 JWK or PEM)"),
      .value("origin", "ORIGIN", "with --key: the origin the platform reported (Annex C)"),
      .value("request", "FILE", "with --key: the request that was sent (needed for Annex C)"),
      .flag("json", "with a Status List Token: print every entry's status as JSON"),
    ],
    positionals: ["FILE"],
    discussion: """
      Recognises: DC API requests (every shape 'respond' reads) for org-iso-mdoc and OpenID4VP,
      their responses, compact JWS/JWE, SD-JWT, CBOR (IssuerSigned, DeviceRequest, DeviceResponse,
      any item), base64url CBOR, the CMWallet/Ubique registry blob, and Status List Tokens
      (JWT, or CWT as bytes, hex or base64url; --json lists every entry's status).
      With --key, an encrypted response is opened and its content printed: an Annex C HPKE
      response (needs --request and --origin: its EncryptionInfo and the origin make the HPKE info)
      shows the DeviceResponse; an OpenID4VP JWE response shows the vp_token, each presentation
      decoded. Nothing is verified: use 'verifier verify' for that.
      """)

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    let args = try context.parse(spec, arguments)
    let bytes = try Files.read(args.positionals[0], limit: .inspected)
    if let detected = StatusListInspect.detect(bytes) {
      let read = try StatusListInspect.read(detected.bytes)
      if args.flag("json") {
        context.console.outBytes(StatusListInspect.json(read))
      } else {
        for line in StatusListInspect.summary(read) { context.console.outLine(line) }
      }
      return
    }
    if args.flag("json") {
      throw UsageError(
        "--json is for Status List Tokens; this input is not one", command: spec.path)
    }
    if let keyPath = args.value("key") {
      for line in try openResponse(bytes, keyPath: keyPath, args) { context.console.out(line) }
      return
    }
    for line in describe(bytes) { context.console.out(line) }
  }

  /// `inspect --key`: opens an Annex C HPKE or OpenID4VP JWE response and describes what is
  /// inside.
  static func openResponse(_ bytes: [UInt8], keyPath: String, _ args: ParsedArguments) throws
    -> [String]
  {
    let key = try VerifierCommand.recipientKey(keyPath)
    let json: JSONValue
    do {
      json = try JSONValue(parsing: bytes)
    } catch {
      throw CommandFailure("the response is not JSON: \(error.reason)")
    }
    let data = json["data"] ?? json
    guard let sealed = data["response"]?.string else {
      throw CommandFailure("the response holds no encrypted \"response\" to open")
    }
    if sealed.split(separator: ".", omittingEmptySubsequences: false).count == 5 {
      return try openJWEResponse(sealed, key: key)
    }
    return try openAnnexCResponse(data, key: key, args)
  }

  /// OpenID4VP 1.0 §8.3: a JWE sealed to the key of client_metadata.jwks, opened and each
  /// presentation of its `vp_token` described.
  private static func openJWEResponse(_ sealed: String, key: ECPrivateKey) throws -> [String] {
    let plaintext: [UInt8]
    do {
      plaintext = try CompactJWE(sealed).decrypt(with: key)
    } catch {
      throw CommandFailure("the JWE response does not open with this key: \(error.reason)")
    }
    guard let payload = try? JSONValue(parsing: plaintext) else {
      throw CommandFailure("the decrypted JWE is not JSON")
    }
    var lines = ["OpenID4VP response (JWE opened with the given key):"]
    guard let vpToken = payload["vp_token"]?.object else {
      return lines + pretty(payload)
    }
    for (queryID, presentations) in vpToken {
      for (index, presentation) in (presentations.array ?? [presentations]).enumerated() {
        lines.append("")
        lines.append("vp_token.\(queryID)[\(index)]:")
        lines.append(contentsOf: describePresentation(presentation))
      }
    }
    return lines
  }

  /// One `vp_token` presentation: an SD-JWT, a DeviceResponse, or its text as it is.
  private static func describePresentation(_ presentation: JSONValue) -> [String] {
    guard let text = presentation.string else {
      return pretty(presentation)
    }
    if text.contains("~") {
      return describeSDJWT(text).map { "  " + $0 }
    } else if let cbor = try? Base64URL.decode(text), let item = try? CBOR.decode(cbor) {
      return describeDeviceResponse(item).map { "  " + $0 }
    } else {
      return indent(text)
    }
  }

  /// Opens an Annex C response with `--request` and `--origin` and describes its
  /// DeviceResponse.
  private static func openAnnexCResponse(
    _ data: JSONValue, key: ECPrivateKey, _ args: ParsedArguments
  ) throws -> [String] {
    // ISO/IEC TS 18013-7 Annex C: HPKE with info = SessionTranscript, which hashes the request's
    // EncryptionInfo text and the origin (C.3.2.2): both are needed to open the response.
    guard let requestPath = args.value("request") else {
      throw UsageError(
        "opening an Annex C response needs --request (its EncryptionInfo) and --origin",
        command: spec.path)
    }
    guard let origin = args.value("origin"), !origin.isEmpty else {
      throw UsageError("opening an Annex C response needs --origin", command: spec.path)
    }
    let envelope: RequestEnvelope
    do {
      envelope = try RequestEnvelope(json: try Files.read(requestPath, limit: .request))
    } catch let error as DigitalCredentialsError {
      throw CommandFailure("the request cannot be read: \(error.reason)")
    }
    guard let entry = envelope.requests.first(where: { $0.knownProtocol == .orgIsoMdoc }) else {
      throw CommandFailure("the request holds no org-iso-mdoc entry")
    }
    let plaintext: [UInt8]
    do {
      let state = try AnnexCVerifier.State(
        sentRequest: entry.data, origin: origin, recipientPrivateKey: key)
      plaintext = try EncryptedResponse(data: data).open(
        privateKey: key, sessionTranscript: state.sessionTranscript)
    } catch {
      throw CommandFailure("the Annex C response does not open: \(reason(of: error))")
    }
    guard let item = try? CBOR.decode(plaintext) else {
      throw CommandFailure("the decrypted Annex C response is not CBOR")
    }
    return ["Annex C response (HPKE opened for \(origin) with the given key):"]
      + describeDeviceResponse(item)
  }

  /// A DeviceResponse in words (status, documents, issuer, elements), then in full.
  static func describeDeviceResponse(_ item: CBOR) -> [String] {
    guard let response = try? DeviceResponse(cbor: item) else {
      return ["not a DeviceResponse:"] + indent(diagnosticWithTag24(item))
    }
    var lines = [
      "DeviceResponse \(response.version), status \(response.status) "
        + "(\(AnnexCVerifier.statusMeaning(response.status))), "
        + "\(response.documents.count) document(s)"
    ]
    for document in response.documents {
      let mso = document.issuerSigned.mso
      lines.append(
        "  \(document.docType), MSO valid \(mso.validityInfo.validFrom) to \(mso.validityInfo.validUntil)"
      )
      if let signer = try? document.issuerSigned.documentSignerChain().first {
        lines.append("    document signer: \(signer.subject) (not verified here)")
      }
      for (ns, items) in document.issuerSigned.nameSpaces {
        for element in items {
          lines.append(
            "    \(ns)/\(element.elementIdentifier) = \(element.elementValue.diagnosticNotation.prefix(120))"
          )
        }
      }
    }
    for error in response.documentErrors {
      lines.append("  documentErrors: \(error.map { "\($0.key): \($0.value)" }.sorted())")
    }
    guard response.zkDocuments.isEmpty else {
      // The proofs are hundreds of kilobytes: their sizes are shown, not their bytes.
      lines.append("  \(response.zkDocuments.count) zero-knowledge document(s)")
      for (index, document) in response.zkDocuments.enumerated() {
        lines += ZeroKnowledgeInspect.describe(document, index: index)
      }
      return lines
    }
    lines.append("CBOR:")
    return lines + indent(diagnosticWithTag24(item))
  }

  static func describe(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    if let json = try? JSONValue(parsing: text), case .object = json { return describeJSON(json) }
    if text.contains("~"), let first = text.split(separator: "~").first,
      first.split(separator: ".").count == 3
    {
      return describeSDJWT(text)
    }
    let dots = text.split(separator: ".", omittingEmptySubsequences: false).count
    if !text.contains(" "), dots == 3 || dots == 5 { return describeCompactJOSE(text) }
    if let item = try? CBOR.decode(bytes) { return describeCBOR(item, bytes: bytes) }
    if bytes.count > 4 {
      let offset = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
      if offset >= 4, offset < bytes.count,
        let json = try? JSONValue(parsing: Array(bytes[offset...]))
      {
        return [
          "CMWallet/Ubique registry blob: JSON at offset \(offset), \(offset - 4) bytes of icons"
        ] + pretty(json)
      }
    }
    if let decoded = try? Base64URL.decode(text), let item = try? CBOR.decode(decoded) {
      return ["base64url CBOR (\(decoded.count) bytes):"] + describeCBOR(item, bytes: decoded)
    }
    return ["not recognised (\(bytes.count) bytes)"]
  }

  static func describeJSON(_ json: JSONValue) -> [String] {
    if json["digital"] != nil || json["providers"] != nil,
      let envelope = try? RequestEnvelope(json: json)
    {
      return ["DC API request (\(envelope.requests.count) request(s))"]
        + envelope.requests.enumerated().flatMap { index, request in
          ["", "requests[\(index)]:"]
            + (request.problem.map { ["skipped: \($0)"] }
              ?? (["protocol: \(request.protocolIdentifier)"]
                + describeData(request.protocolIdentifier, request.data)))
        }
    }
    if let list = json["requests"]?.array {
      return ["DC API request list (\(list.count) request(s))"]
        + list.enumerated().flatMap { index, item in
          ["", "requests[\(index)]:"] + describeJSON(item)
        }
    }
    if let protocolID = json["protocol"]?.string, let data = json["data"] {
      var resolvedData = data
      if let string = data.string, let parsed = try? JSONValue(parsing: string) {
        resolvedData = parsed
      }
      return ["protocol: \(protocolID)"] + describeData(protocolID, resolvedData)
    }
    if json["response"] != nil || json["vp_token"] != nil { return describeData("", json) }
    if let capture = ZeroKnowledgeInspect.describeCapture(json) { return capture }
    return ["JSON:"] + pretty(json)
  }

  static func describeData(_ protocolID: String, _ data: JSONValue) -> [String] {
    var lines = ZeroKnowledgeInspect.describeDCQL(data)
    if let response = data["response"]?.string {
      let parts = response.split(separator: ".", omittingEmptySubsequences: false)
      if parts.count == 5 {
        return ["response: JWE (open it with --key)"] + describeCompactJOSE(response)
      }
      if let bytes = try? Base64URL.decode(response), let item = try? CBOR.decode(bytes) {
        lines.append(
          "response: EncryptedResponse (\(bytes.count) bytes; sealed to the verifier: open it with --key, --request and --origin)"
        )
        lines.append(contentsOf: indent(item.diagnosticNotation))
        return lines
      }
    }
    if let vpToken = data["vp_token"] { return ["vp_token:"] + pretty(vpToken) }
    if let error = data["error"]?.string {
      return ["error: \(error)" + (data["error_description"]?.string.map { " (\($0))" } ?? "")]
    }
    if let deviceRequest = data["deviceRequest"]?.string,
      let encryptionInfo = data["encryptionInfo"]?.string
    {
      if let bytes = try? Base64URL.decode(deviceRequest), let item = try? CBOR.decode(bytes) {
        if let request = try? DeviceRequest(cbor: item) {
          lines += ZeroKnowledgeInspect.describe(request)
        }
        lines.append("deviceRequest (\(bytes.count) bytes):")
        lines.append(contentsOf: indent(diagnosticWithTag24(item)))
      }
      if let bytes = try? Base64URL.decode(encryptionInfo), let item = try? CBOR.decode(bytes) {
        lines.append("encryptionInfo:")
        lines.append(contentsOf: indent(item.diagnosticNotation))
      }
      return lines
    }
    if let request = data["request"]?.string {
      return lines + ["signed request (compact JWS):"] + describeCompactJOSE(request)
    }
    if let signatures = data["signatures"]?.array, let jws = try? JWSJSON(json: data) {
      lines.append("multisigned request (JWS JSON, \(signatures.count) signature(s))")
      for (index, signature) in jws.signatures.enumerated() {
        lines.append("signature[\(index)] protected header:")
        lines.append(contentsOf: pretty(signature.protectedHeader))
      }
      lines.append("payload:")
      lines.append(
        contentsOf: (try? JSONValue(parsing: jws.payload)).map(pretty)
          ?? indent(String(decoding: jws.payload, as: UTF8.self)))
      return lines
    }
    return lines + ["data:"] + pretty(data)
  }

  static func describeCompactJOSE(_ text: String) -> [String] {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    var lines: [String] = []
    if let header = try? JSONValue(parsing: Base64URL.decode(parts[0])) {
      lines.append(parts.count == 5 ? "JWE protected header:" : "JWS protected header:")
      // An x5c chain is summarised; a header without one gets no `x5c: null`.
      lines.append(
        contentsOf: pretty(
          header["x5c"] == nil ? header : header.setting("x5c", to: .string("<certificates>"))))
    }
    if parts.count == 3 {
      lines.append("payload:")
      if let payload = try? Base64URL.decode(parts[1]) {
        lines.append(
          contentsOf: (try? JSONValue(parsing: payload)).map(pretty)
            ?? indent(String(decoding: payload, as: UTF8.self)))
      }
      lines.append("signature: \(parts[2].count) base64url characters (not verified here)")
    } else if parts.count == 5 {
      lines.append("ciphertext: \(parts[3].count) base64url characters (encrypted to the verifier)")
    }
    return lines
  }

  static func describeSDJWT(_ text: String) -> [String] {
    let parts = text.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
    var lines = [
      "SD-JWT with \(max(0, parts.count - 2)) disclosure(s)"
        + (parts.last?.isEmpty == false ? " and a key binding JWT" : "")
    ]
    lines.append("issuer-signed JWT:")
    lines.append(contentsOf: describeCompactJOSE(parts[0]))
    for disclosure in parts.dropFirst().dropLast() {
      if let decoded = try? Base64URL.decode(disclosure),
        let json = try? JSONValue(parsing: decoded)
      {
        lines.append("disclosure \(json.serialized())")
      }
    }
    if let kb = parts.last, !kb.isEmpty {
      lines.append("key binding JWT:")
      lines.append(contentsOf: describeCompactJOSE(kb))
    }
    return lines
  }

  static func describeCBOR(_ item: CBOR, bytes: [UInt8]) -> [String] {
    var lines: [String] = []
    if let issuerSigned = try? IssuerSigned(cbor: item) {
      let mso = issuerSigned.mso
      lines.append(
        "IssuerSigned: \(mso.docType), valid \(Timestamp.utc(mso.validityInfo.validFrom)) to "
          + Timestamp.utc(mso.validityInfo.validUntil)
      )
      for (ns, items) in issuerSigned.nameSpaces {
        for element in items {
          lines.append(
            "  \(ns)/\(element.elementIdentifier) = \(element.elementValue.diagnosticNotation.prefix(120))"
          )
        }
      }
      return lines
    }
    if let request = try? DeviceRequest(cbor: item) {
      lines.append("DeviceRequest:")
      lines += ZeroKnowledgeInspect.describe(request)
    }
    if let response = try? DeviceResponse(cbor: item) {
      guard response.zkDocuments.isEmpty else { return describeDeviceResponse(item) }
      lines.append("DeviceResponse:")
    }
    if item.map?["protocols"] != nil && item.map?["credentials"] != nil {
      lines.append("multipaz matcher registry database:")
    }
    if lines.isEmpty { lines.append("CBOR (\(bytes.count) bytes):") }
    return lines + indent(diagnosticWithTag24(item))
  }

  /// Diagnostic notation with tag 24 contents shown decoded, as `24(<< ... >>)`.
  static func diagnosticWithTag24(_ item: CBOR) -> String {
    func expand(_ value: CBOR) -> CBOR {
      switch value.unwrapped {
      case .tagged(24, .byteString(let bytes)):
        if let inner = try? CBOR.decode(bytes) { return .tagged(24, expand(inner)) }
        return value
      case .array(let items): return .array(items.map(expand))
      case .map(let map): return .map(CBORMap(map.pairs.map { (expand($0.key), expand($0.value)) }))
      case .tagged(let tag, let inner): return .tagged(tag, expand(inner))
      default: return value
      }
    }
    return expand(item).diagnosticNotation
  }

  /// JSON indented, keys sorted, `/` unescaped; then the JWT date claims (`iat`, `nbf`, `exp`)
  /// of an object as UTC dates beside their epoch seconds.
  static func pretty(_ json: JSONValue) -> [String] {
    guard
      let data = try? JSONSerialization.jsonObject(
        with: Data(json.serializedBytes()), options: [.fragmentsAllowed]),
      let formatted = try? JSONSerialization.data(
        withJSONObject: data,
        options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
    else { return indent(json.serialized()) }
    return indent(String(decoding: formatted, as: UTF8.self)) + dates(json)
  }

  /// `  exp: 2027-03-04T05:06:07Z (1804136767)` for each JWT date claim of an object.
  static func dates(_ json: JSONValue) -> [String] {
    ["iat", "nbf", "exp"].compactMap { name in
      guard let seconds = json[name]?.int else { return nil }
      return "  \(name): " + Timestamp.withEpoch(Date(timeIntervalSince1970: Double(seconds)))
    }
  }

  static func indent(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
  }
}
