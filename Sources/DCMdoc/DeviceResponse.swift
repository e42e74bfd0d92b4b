public import DCCBOR
package import DCCOSE
public import DCCrypto

/// `DeviceAuthentication = ["DeviceAuthentication", SessionTranscript, DocType,
/// DeviceNameSpacesBytes]`, signed as `DeviceAuthenticationBytes = #6.24(bstr .cbor ...)`
/// (ISO 18013-5 §9.1.3.4).
package enum DeviceAuthentication {
  /// The detached payload of deviceSignature / deviceMac: the tag 24 item's encoding.
  package static func bytes(
    sessionTranscript: SessionTranscript, docType: String, deviceNameSpaces: EncodedCBOR
  ) -> [UInt8] {
    // Written directly: the transcript and DeviceNameSpacesBytes are spliced as kept.
    CBORWriter.tag24(
      capacity: sessionTranscript.bytes.count + docType.utf8.count + deviceNameSpaces.bytes.count
        + 40
    ) { writer in
      writer.arrayHead(count: 4)
      writer.text("DeviceAuthentication")
      writer.encoded(sessionTranscript.bytes)
      writer.text(docType)
      writer.tag24(deviceNameSpaces.bytes)
    }
  }

  /// EMacKey (§9.1.3.5): HKDF-SHA-256 over ECDH(device key, reader ephemeral key), salted with
  /// SHA-256 of SessionTranscriptBytes, info "EMacKey", 32 bytes.
  package static func macKey(
    privateKey: ECPrivateKey, peerKey: ECPublicKey, sessionTranscript: SessionTranscript
  ) throws(MdocError) -> [UInt8] {
    try macKey(keyAgreement: privateKey, peerKey: peerKey, sessionTranscript: sessionTranscript)
  }

  /// EMacKey (§9.1.3.5) with a key that agrees without handing out its scalar: the holder's
  /// device key (SDeviceKey) and the reader's EReaderKey, or the reader's EReaderKey and the
  /// MSO's device key. Both sides reach the same key.
  package static func macKey(
    keyAgreement privateKey: any KeyAgreementKey, peerKey: ECPublicKey,
    sessionTranscript: SessionTranscript
  ) throws(MdocError) -> [UInt8] {
    do {
      let z = try privateKey.sharedSecret(with: peerKey)
      return try HKDF.deriveKey(
        .sha256, inputKeyMaterial: z, salt: sessionTranscript.keyDerivationSalt,
        info: Array("EMacKey".utf8), outputByteCount: 32)
    } catch {
      throw MdocError(
        .invalidDeviceSignature, "EMacKey derivation: \(error)", underlying: error)
    }
  }

  /// The deviceMac (§9.1.3.5): a COSE_Mac0 with HMAC 256/256 (alg 5 in the protected header,
  /// RFC 9053 §3.1), an empty unprotected header and a detached payload (null), over
  /// DeviceAuthenticationBytes with EMacKey.
  package static func mac(
    sessionTranscript: SessionTranscript, docType: String, deviceNameSpaces: EncodedCBOR,
    macKey: [UInt8]
  ) -> COSEMac0 {
    COSEMac0.mac(
      payload: bytes(
        sessionTranscript: sessionTranscript, docType: docType,
        deviceNameSpaces: deviceNameSpaces),
      detached: true, key: macKey)
  }
}

/// How the holder authenticates a presented document (ISO 18013-5 §9.1.3).
public enum DeviceAuthenticator: Sendable {
  /// A deviceSignature (§9.1.3.6): ECDSA with the device key.
  case signature(any Signer)
  /// A deviceMac (§9.1.3.5): HMAC with the EMacKey derived from ECDH of the device key and the
  /// reader's ephemeral key (EReaderKey, the SessionTranscript's second member in person).
  case mac(any KeyAgreementKey, eReaderKey: ECPublicKey)
}

/// `DeviceSigned = {"nameSpaces": DeviceNameSpacesBytes, "deviceAuth": DeviceAuth}` (§8.3.2.1.2.2).
public struct DeviceSigned: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §8.3.2.1.2.2).
  enum Keys {
    static let nameSpaces = "nameSpaces"
    static let deviceAuth = "deviceAuth"
    static let deviceSignature = "deviceSignature"
    static let deviceMac = "deviceMac"
    static let all = [nameSpaces, deviceAuth]
    static let authKeys = [deviceSignature, deviceMac]
    static let clause = "ISO 18013-5 §8.3.2.1.2.2"
  }

  /// How the device authenticated the document.
  package enum Authentication: Sendable, Hashable {
    /// ECDSA over DeviceAuthenticationBytes (§9.1.3.6).
    case signature(COSESign1)
    /// HMAC with EMacKey over DeviceAuthenticationBytes (§9.1.3.5).
    case mac(COSEMac0)
  }

  /// `DeviceNameSpacesBytes`, kept exactly (they are signed).
  package let nameSpaces: EncodedCBOR
  /// The device authentication.
  package let deviceAuth: Authentication

  /// Assembles a DeviceSigned.
  package init(nameSpaces: EncodedCBOR, deviceAuth: Authentication) {
    self.nameSpaces = nameSpaces
    self.deviceAuth = deviceAuth
  }

  /// Reads a DeviceSigned map.
  package init(cbor: CBOR) throws(MdocError) {
    let ctx = "DeviceSigned"
    let (spaces, signatureItem, macItem) = try reading(ctx) {
      () throws(CBORError) -> (EncodedCBOR, CBOR?, CBOR?) in
      let map = try CBORMapReader(cbor, structure: ctx, clause: Keys.clause, knownKeys: Keys.all)
      // DeviceNameSpacesBytes: decoded once, its bytes kept for DeviceAuthentication (§9.1.3.4).
      let spaces = try map.requiredTag24(Keys.nameSpaces)
      guard spaces.value.map != nil else {
        throw map.error(.typeMismatch, Keys.nameSpaces, "must hold a map")
      }
      let auth = try map.requiredMap(Keys.deviceAuth, knownKeys: Keys.authKeys)
      return (
        spaces, try auth.optional(Keys.deviceSignature, as: CBOR.self),
        try auth.optional(Keys.deviceMac, as: CBOR.self)
      )
    }
    nameSpaces = spaces
    do {
      switch (signatureItem, macItem) {
      case (let signature?, nil): deviceAuth = .signature(try COSESign1(cbor: signature))
      case (nil, let mac?): deviceAuth = .mac(try COSEMac0(cbor: mac))
      default:
        throw MdocError(
          .malformed, "\(ctx).deviceAuth must hold exactly one of deviceSignature, deviceMac")
      }
    } catch let error as COSEError {
      throw MdocError(.malformed, "\(ctx).deviceAuth: \(error.reason)", underlying: error)
    } catch let error as MdocError {
      throw error
    } catch {
      throw MdocError(.malformed, "\(ctx).deviceAuth: \(error)", underlying: error)
    }
  }

  /// The map in CDDL order.
  package var cbor: CBOR {
    let auth: CBOR =
      switch deviceAuth {
      case .signature(let sign1): [.textString(Keys.deviceSignature): sign1.cbor()]
      case .mac(let mac0): [.textString(Keys.deviceMac): mac0.cbor()]
      }
    return [.textString(Keys.nameSpaces): nameSpaces.tag24, .textString(Keys.deviceAuth): auth]
  }

  /// Writes the map that `cbor` holds, without building it; DeviceNameSpacesBytes is its kept
  /// encoding (ISO 18013-5 §9.1.3.4: DeviceAuthentication covers those bytes).
  func write(to writer: inout CBORWriter) {
    writer.mapHead(count: 2)
    writer.text(Keys.nameSpaces)
    writer.tag24(nameSpaces.bytes)
    writer.text(Keys.deviceAuth)
    writer.mapHead(count: 1)
    switch deviceAuth {
    case .signature(let sign1):
      writer.text(Keys.deviceSignature)
      writer.value(sign1.cbor(), encoder: mdocEncoder)
    case .mac(let mac0):
      writer.text(Keys.deviceMac)
      writer.value(mac0.cbor(), encoder: mdocEncoder)
    }
  }

  /// Device-signed elements by namespace (usually none: this library signs nothing extra).
  public var elements: [(nameSpace: String, elements: [(String, CBOR)])] {
    (nameSpaces.value.map ?? CBORMap()).compactMap { key, value in
      guard let ns = key.text, let inner = value.map else { return nil }
      return (ns, inner.compactMap { k, v in k.text.map { ($0, v) } })
    }
  }
}

/// `Document` (§8.3.2.1.2.2): one presented document.
public struct Document: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §8.3.2.1.2.2).
  enum Keys {
    static let docType = "docType"
    static let issuerSigned = "issuerSigned"
    static let deviceSigned = "deviceSigned"
    static let errors = "errors"
    static let all = [docType, issuerSigned, deviceSigned, errors]
    static let clause = "ISO 18013-5 §8.3.2.1.2.2"
  }

  /// `docType`: the document type, e.g. `org.iso.18013.5.1.mDL`.
  public let docType: String
  /// `issuerSigned`: the disclosed items and the issuer's MSO signature (§9.1.2).
  public let issuerSigned: IssuerSigned
  /// `deviceSigned`: the holder's signature or MAC over the session (§9.1.3).
  public let deviceSigned: DeviceSigned
  /// `errors`: elements requested but not returned, by namespace, with their error code
  /// (0 = data not returned, §8.3.2.1.2.3).
  public let errors: [String: [String: Int]]

  /// Assembles a document.
  package init(
    docType: String, issuerSigned: IssuerSigned, deviceSigned: DeviceSigned,
    errors: [String: [String: Int]] = [:]
  ) {
    self.docType = docType
    self.issuerSigned = issuerSigned
    self.deviceSigned = deviceSigned
    self.errors = errors
  }

  /// Reads a Document map.
  package init(cbor: CBOR) throws(MdocError) {
    let ctx = "Document"
    let (docType, issuerItem, deviceItem, errors) = try reading(ctx) {
      () throws(CBORError) -> (String, CBOR, CBOR, [String: [String: Int]]) in
      let map = try CBORMapReader(cbor, structure: ctx, clause: Keys.clause, knownKeys: Keys.all)
      return (
        try map.required(Keys.docType, as: String.self),
        try map.required(Keys.issuerSigned, as: CBOR.self),
        try map.required(Keys.deviceSigned, as: CBOR.self),
        try map.optional(Keys.errors, as: [String: [String: Int]].self) ?? [:]
      )
    }
    self.docType = docType
    issuerSigned = try IssuerSigned(cbor: issuerItem)
    deviceSigned = try DeviceSigned(cbor: deviceItem)
    self.errors = errors
  }

  /// The map in CDDL order.
  package var cbor: CBOR {
    var map: CBORMap = [
      .textString(Keys.docType): .textString(docType),
      .textString(Keys.issuerSigned): issuerSigned.cbor,
      .textString(Keys.deviceSigned): deviceSigned.cbor,
    ]
    if !errors.isEmpty {
      map[Keys.errors] = .map(
        CBORMap(
          errors.sorted { $0.key < $1.key }.map { ns, items in
            (
              .textString(ns),
              .map(
                CBORMap(
                  items.sorted { $0.key < $1.key }.map { (.textString($0.key), CBOR($0.value)) }))
            )
          }))
    }
    return .map(map)
  }

  /// Writes the map that `cbor` holds, without building it (see `IssuerSigned.write(to:)`).
  func write(to writer: inout CBORWriter) {
    writer.mapHead(count: errors.isEmpty ? 3 : 4)
    writer.text(Keys.docType)
    writer.text(docType)
    writer.text(Keys.issuerSigned)
    issuerSigned.write(to: &writer)
    writer.text(Keys.deviceSigned)
    deviceSigned.write(to: &writer)
    if !errors.isEmpty {
      writer.text(Keys.errors)
      writer.mapHead(count: errors.count)
      for (ns, items) in errors.sorted(by: { $0.key < $1.key }) {
        writer.text(ns)
        writer.mapHead(count: items.count)
        for (element, code) in items.sorted(by: { $0.key < $1.key }) {
          writer.text(element)
          writer.int(code)
        }
      }
    }
  }

  /// Presents an mdoc (§9.1.3): only the chosen elements, and a device signature over this
  /// session's DeviceAuthentication with the device key.
  ///
  /// - Parameters:
  ///   - issuerSigned: the mdoc as issued; its items not disclosed are left out.
  ///   - disclosing: the elements to reveal, by namespace; elements the mdoc lacks are ignored.
  ///   - notReturned: requested elements that are not returned, reported in `errors` with code 0.
  ///   - sessionTranscript: this session's transcript, which the device signature covers.
  ///   - deviceKey: the private key whose public key the MSO binds (`deviceKeyInfo`).
  /// - Throws: `signingFailed` when the key cannot sign.
  package static func present(
    _ issuerSigned: IssuerSigned, disclosing: [String: Set<String>],
    notReturned: [String: [String]] = [:],
    sessionTranscript: SessionTranscript, deviceKey: any Signer
  ) throws(MdocError) -> Document {
    try present(
      issuerSigned, disclosing: disclosing, notReturned: notReturned,
      sessionTranscript: sessionTranscript, authenticator: .signature(deviceKey))
  }

  /// Presents an mdoc (§9.1.3) with a deviceSignature or a deviceMac, as `authenticator` says.
  ///
  /// - Parameters:
  ///   - issuerSigned: the mdoc as issued; its items not disclosed are left out.
  ///   - disclosing: the elements to reveal, by namespace; elements the mdoc lacks are ignored.
  ///   - notReturned: requested elements that are not returned, reported in `errors` with code 0.
  ///   - sessionTranscript: this session's transcript, which the signature or MAC covers.
  ///   - authenticator: the device key, as a signer (deviceSignature) or as a key agreement key
  ///     with the reader's ephemeral key (deviceMac).
  /// - Throws: `signingFailed` when the key cannot sign, or cannot agree with the reader key.
  public static func present(
    _ issuerSigned: IssuerSigned, disclosing: [String: Set<String>],
    notReturned: [String: [String]] = [:],
    sessionTranscript: SessionTranscript, authenticator: DeviceAuthenticator
  ) throws(MdocError) -> Document {
    let docType = issuerSigned.docType
    let deviceNameSpaces = EncodedCBOR(mdoc: .map([:]))
    let auth: DeviceSigned.Authentication
    switch authenticator {
    case .signature(let deviceKey):
      let payload = DeviceAuthentication.bytes(
        sessionTranscript: sessionTranscript, docType: docType, deviceNameSpaces: deviceNameSpaces)
      do {
        auth = .signature(try COSESign1.sign(payload: payload, detached: true, signer: deviceKey))
      } catch {
        throw MdocError(.signingFailed, "deviceSignature: \(error.reason)", underlying: error)
      }
    case .mac(let deviceKey, let eReaderKey):
      let macKey: [UInt8]
      do {
        macKey = try DeviceAuthentication.macKey(
          keyAgreement: deviceKey, peerKey: eReaderKey, sessionTranscript: sessionTranscript)
      } catch {
        throw MdocError(.signingFailed, "deviceMac: \(error.reason)", underlying: error)
      }
      auth = .mac(
        DeviceAuthentication.mac(
          sessionTranscript: sessionTranscript, docType: docType,
          deviceNameSpaces: deviceNameSpaces, macKey: macKey))
    }
    var errors: [String: [String: Int]] = [:]
    for (ns, elements) in notReturned where !elements.isEmpty {
      errors[ns] = Dictionary(elements.map { ($0, 0) }, uniquingKeysWith: { a, _ in a })
    }
    return Document(
      docType: docType, issuerSigned: issuerSigned.disclosing(disclosing),
      deviceSigned: DeviceSigned(nameSpaces: deviceNameSpaces, deviceAuth: auth),
      errors: errors)
  }

  /// Verifies the device's authentication over this session (§9.3.2, mdoc authentication):
  /// a deviceSignature with the MSO's device key, or a deviceMac with the EMacKey that
  /// `macKey` gives (the reader computes it from its ephemeral private key).
  ///
  /// A deviceSignature's payload is detached (§9.1.3.4); an attached one is accepted only when
  /// it is byte-identical to the DeviceAuthenticationBytes computed here (Android's wallet sends
  /// it so), and the result says so.
  ///
  /// - Throws: `invalidDeviceSignature` for a signature or MAC that does not verify, or an
  ///   attached payload that is not this session's DeviceAuthenticationBytes;
  ///   `unauthorizedElement` for a device-signed element the MSO does not authorize.
  @discardableResult
  public func verifyDeviceAuthentication(
    sessionTranscript: SessionTranscript, deviceKey: ECPublicKey,
    macKey: (() throws(MdocError) -> [UInt8])? = nil
  ) throws(MdocError) -> VerifiedDeviceAuthentication {
    let payload = DeviceAuthentication.bytes(
      sessionTranscript: sessionTranscript, docType: docType,
      deviceNameSpaces: deviceSigned.nameSpaces)
    let verified: VerifiedDeviceAuthentication
    switch deviceSigned.deviceAuth {
    case .signature(let sign1):
      verified = try Self.verify(sign1, deviceKey: deviceKey, payload: payload)
    case .mac(let mac0):
      guard let macKey else {
        throw MdocError(
          .invalidDeviceSignature, "deviceMac needs the reader's ephemeral key to verify")
      }
      do {
        try mac0.verify(key: try macKey(), detachedPayload: payload)
      } catch let error as COSEError {
        throw MdocError(.invalidDeviceSignature, "deviceMac: \(error.reason)", underlying: error)
      } catch let error as MdocError {
        throw error
      } catch {
        throw MdocError(.invalidDeviceSignature, "deviceMac: \(error)", underlying: error)
      }
      verified = .mac
    }
    // §9.1.2.4: device-signed elements must be authorized by the MSO.
    for (ns, elements) in deviceSigned.elements {
      for (element, _) in elements
      where
        !(issuerSigned.mso.keyAuthorizations?.authorizes(nameSpace: ns, element: element) ?? false)
      {
        throw MdocError(
          .unauthorizedElement, "device-signed \(ns)/\(element) is not authorized by the MSO")
      }
    }
    return verified
  }

  /// A deviceSignature over `payload`, the DeviceAuthenticationBytes: detached as §9.1.3.4 asks,
  /// or attached and then byte-identical to them (any other attached payload is refused, so
  /// what the key signed is always this session's DeviceAuthentication).
  static func verify(_ sign1: COSESign1, deviceKey: ECPublicKey, payload: [UInt8])
    throws(MdocError) -> VerifiedDeviceAuthentication
  {
    if let attached = sign1.payload, attached != payload {
      throw MdocError(
        .invalidDeviceSignature,
        "deviceSignature: the attached payload is not this session's DeviceAuthenticationBytes")
    }
    do {
      try sign1.verify(
        publicKey: deviceKey, detachedPayload: sign1.payload == nil ? payload : nil)
    } catch {
      throw MdocError(
        .invalidDeviceSignature, "deviceSignature: \(error.reason)", underlying: error)
    }
    return sign1.payload == nil ? .signature : .signatureWithAttachedPayload
  }
}

/// How a document's device authentication verified (ISO 18013-5 §9.1.3).
public enum VerifiedDeviceAuthentication: Sendable, Hashable {
  /// A deviceSignature with a detached payload (§9.1.3.4).
  case signature
  /// A deviceSignature whose payload was attached, byte-identical to the
  /// DeviceAuthenticationBytes the verifier computed: ISO 18013-5 asks for a detached payload;
  /// some wallets attach it.
  case signatureWithAttachedPayload
  /// A deviceMac (§9.1.3.5).
  case mac
}

/// `DeviceResponse` (§8.3.2.1.2.2).
public struct DeviceResponse: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once (ISO 18013-5 §8.3.2.1.2.2).
  enum Keys {
    static let version = "version"
    static let documents = "documents"
    static let documentErrors = "documentErrors"
    static let status = "status"
    /// ISO 18013-5 2nd edition: zero-knowledge documents (multipaz `DeviceResponseGenerator.kt`,
    /// Google's verifier service `cbor.go`, Google Wallet's captures).
    static let zkDocuments = "zkDocuments"
    static let all = [version, documents, documentErrors, status, zkDocuments]
    static let clause = "ISO 18013-5 §8.3.2.1.2.2"
  }

  /// Status code 0: OK (§8.3.2.1.2.3).
  public static let statusOK = 0
  /// Status code 10: general error.
  public static let statusGeneralError = 10
  /// Status code 11: CBOR decoding error: the mdoc cannot decode the request (§8.3.2.1.2.3).
  public static let statusCBORDecodingError = 11
  /// Status code 12: CBOR validation error: the request decodes but is not a valid
  /// DeviceRequest (§8.3.2.1.2.3).
  public static let statusCBORValidationError = 12

  /// `version`: "1.0" for a response written here.
  package let version: String
  /// `documents`: the returned documents, empty when none is returned.
  public let documents: [Document]
  /// Documents not returned, by docType, with their error code.
  public let documentErrors: [[String: Int]]
  /// `status`: ``statusOK``, or one of the error codes of §8.3.2.1.2.3 (10, 11 or 12).
  public let status: Int
  /// `zkDocuments` (ISO 18013-5 2nd edition): documents proven in zero knowledge, empty when
  /// none.
  package let zkDocuments: [ZkDocument]
  /// The most ZK documents one response may carry (each proof is up to
  /// `ZkDocument.maxProofLength`).
  package static let maxZkDocuments = 8

  /// Assembles a response.
  public init(
    documents: [Document], documentErrors: [[String: Int]] = [],
    status: Int = DeviceResponse.statusOK
  ) {
    self.init(documents: documents, documentErrors: documentErrors, status: status, zkDocuments: [])
  }

  /// Assembles a response with zero-knowledge documents (ISO 18013-5 2nd edition).
  package init(
    documents: [Document], documentErrors: [[String: Int]] = [],
    status: Int = DeviceResponse.statusOK,
    zkDocuments: [ZkDocument]
  ) {
    version = "1.0"
    self.documents = documents
    self.documentErrors = documentErrors
    self.status = status
    self.zkDocuments = zkDocuments
  }

  /// Reads a DeviceResponse from its bytes.
  public init(bytes: [UInt8]) throws(MdocError) {
    let cbor = try reading("DeviceResponse") { () throws(CBORError) in try CBOR.decode(bytes) }
    try self.init(cbor: cbor)
  }

  /// Reads a DeviceResponse map.
  package init(cbor: CBOR) throws(MdocError) {
    let ctx = "DeviceResponse"
    let (version, docs, errors, status, zkDocs) = try reading(ctx) {
      () throws(CBORError) -> (String, [CBOR], [[String: Int]], Int, [CBOR]) in
      let map = try CBORMapReader(cbor, structure: ctx, clause: Keys.clause, knownKeys: Keys.all)
      return (
        try map.required(Keys.version, as: String.self),
        try map.optional(Keys.documents, as: [CBOR].self) ?? [],
        try map.optional(Keys.documentErrors, as: [[String: Int]].self) ?? [],
        try map.required(Keys.status, as: Int.self),
        try map.optional(Keys.zkDocuments, as: [CBOR].self) ?? []
      )
    }
    guard zkDocs.count <= Self.maxZkDocuments else {
      throw MdocError(
        .malformed, "\(ctx).zkDocuments holds \(zkDocs.count), more than \(Self.maxZkDocuments)")
    }
    guard version.hasPrefix("1.") else {
      throw MdocError(.malformed, "DeviceResponse version \(version) is not supported")
    }
    self.version = version
    var documents: [Document] = []
    for (index, item) in docs.enumerated() {
      do {
        documents.append(try Document(cbor: item))
      } catch {
        throw MdocError(error.code, "documents[\(index)]: \(error.reason)", underlying: error)
      }
    }
    self.documents = documents
    documentErrors = errors
    self.status = status
    var zkDocuments: [ZkDocument] = []
    for (index, item) in zkDocs.enumerated() {
      do {
        zkDocuments.append(try ZkDocument(cbor: item))
      } catch {
        throw MdocError(error.code, "zkDocuments[\(index)]: \(error.reason)", underlying: error)
      }
    }
    self.zkDocuments = zkDocuments
  }

  /// The map in CDDL order.
  package var cbor: CBOR {
    var map: CBORMap = [.textString(Keys.version): .textString(version)]
    if !documents.isEmpty { map[Keys.documents] = .array(documents.map(\.cbor)) }
    if !documentErrors.isEmpty {
      map[Keys.documentErrors] = .array(
        documentErrors.map {
          .map(CBORMap($0.sorted { $0.key < $1.key }.map { (.textString($0.key), CBOR($0.value)) }))
        })
    }
    map[Keys.status] = CBOR(status)
    if !zkDocuments.isEmpty { map[Keys.zkDocuments] = .array(zkDocuments.map(\.cbor)) }
    return .map(map)
  }

  /// The encoding: the same bytes as encoding `cbor`, written directly from the kept encodings
  /// of every signed part (IssuerSignedItemBytes, the MSO, DeviceNameSpacesBytes) rather than
  /// through a `CBOR` tree.
  public var bytes: [UInt8] {
    var capacity = 64
    for document in documents { capacity += document.issuerSigned.encodedSizeEstimate + 512 }
    for document in zkDocuments { capacity += document.proof.count + 4096 }
    var writer = CBORWriter(capacity: capacity)
    var count = 2
    if !documents.isEmpty { count += 1 }
    if !documentErrors.isEmpty { count += 1 }
    if !zkDocuments.isEmpty { count += 1 }
    writer.mapHead(count: count)
    writer.text(Keys.version)
    writer.text(version)
    if !documents.isEmpty {
      writer.text(Keys.documents)
      writer.arrayHead(count: documents.count)
      for document in documents { document.write(to: &writer) }
    }
    if !documentErrors.isEmpty {
      writer.text(Keys.documentErrors)
      writer.arrayHead(count: documentErrors.count)
      for entry in documentErrors {
        writer.mapHead(count: entry.count)
        for (docType, code) in entry.sorted(by: { $0.key < $1.key }) {
          writer.text(docType)
          writer.int(code)
        }
      }
    }
    writer.text(Keys.status)
    writer.int(status)
    if !zkDocuments.isEmpty {
      writer.text(Keys.zkDocuments)
      writer.value(.array(zkDocuments.map(\.cbor)), encoder: mdocEncoder)
    }
    return writer.bytes
  }
}
