public import DCAPI
public import DCCBOR
public import DCCrypto
import DCEncoding
import DCJOSE
public import DCJSON
public import DCMdoc
public import DCOrgIsoMdoc
public import DCX509
public import Foundation

/// The relying party's side of `org-iso-mdoc` (ISO/IEC TS 18013-7:2025 Annex C): make a
/// request, then open and verify the response.
public enum AnnexCVerifier {
  /// What the verifier keeps between the request and the response. It holds the HPKE private
  /// key: store it like a secret, and use it once.
  public struct State: Sendable, Hashable {
    /// The origin the verifier expects the wallet's platform to report, exactly as it goes into
    /// the SessionTranscript (C.3.2.2): the verifier compares it as given, without normalising.
    public let origin: String
    /// The request data sent to the wallet.
    public let request: AnnexCRequest
    /// The HPKE recipient private key.
    package let recipientPrivateKey: ECPrivateKey

    /// Creates a state for an origin taken exactly as given.
    package init(origin: String, request: AnnexCRequest, recipientPrivateKey: ECPrivateKey) {
      self.origin = origin
      self.request = request
      self.recipientPrivateKey = recipientPrivateKey
    }

    /// Creates a state for a web origin, in its serialization.
    package init(origin: WebOrigin, request: AnnexCRequest, recipientPrivateKey: ECPrivateKey) {
      self.init(
        origin: origin.serialized, request: request, recipientPrivateKey: recipientPrivateKey)
    }

    /// The state of a request that was sent and captured, without a saved state: the request
    /// `data` as sent (`deviceRequest` and `encryptionInfo`), the origin the platform reported,
    /// and the verifier's HPKE private key.
    ///
    /// - Throws: `invalidRequest` for unreadable request data, `invalidEncryptionInfo` when the
    ///   private key is not the one whose public key the request's EncryptionInfo names.
    public init(sentRequest data: JSONValue, origin: String, recipientPrivateKey: ECPrivateKey)
      throws(VerifierError)
    {
      let request = try orgIsoMdoc { () throws(OrgIsoMdocError) in try AnnexCRequest(data: data) }
      // C.3.2.1: the response is sealed to EncryptionInfo.recipientPublicKey; another key can
      // never open it, so say so instead of reporting a failed decryption.
      guard
        recipientPrivateKey.publicKey.x963Representation
          == request.encryptionInfo.recipientPublicKey.x963Representation
      else {
        throw VerifierError(
          .invalidEncryptionInfo,
          "the recipient key is not the one the request's EncryptionInfo names")
      }
      self.init(origin: origin, request: request, recipientPrivateKey: recipientPrivateKey)
    }

    public static func == (lhs: State, rhs: State) -> Bool {
      lhs.origin == rhs.origin && lhs.request == rhs.request
        && lhs.recipientPrivateKey.rawRepresentation == rhs.recipientPrivateKey.rawRepresentation
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(request) }

    /// `SessionTranscript = [null, null, ["dcapi", SHA-256(CBOR([encryptionInfoB64, origin]))]]`
    /// (C.3.2.2) for this state's origin, byte for byte as given.
    public var sessionTranscript: SessionTranscript {
      SessionTranscript(
        handover: Handover.dcapi(
          encryptionInfoBase64: request.encryptionInfo.base64URL, origin: origin))
    }

    /// The state as JSON (origin, request data, private key as base64url scalar).
    public var json: JSONValue {
      .object([
        ("protocol", .string(DigitalCredentialProtocol.orgIsoMdoc.rawValue)),
        ("origin", .string(origin)),
        ("request", request.data),
        ("recipientPrivateKey", .string(Base64URL.encode(recipientPrivateKey.rawRepresentation))),
      ])
    }

    /// Reads a state saved as JSON.
    public init(json: JSONValue) throws(VerifierError) {
      guard let origin = json["origin"]?.string, let request = json["request"],
        let key = json["recipientPrivateKey"]?.string
      else {
        throw VerifierError(
          .invalidRequest, "verifier state needs origin, request and recipientPrivateKey")
      }
      self.origin = origin
      self.request = try orgIsoMdoc { () throws(OrgIsoMdocError) in
        try AnnexCRequest(data: request)
      }
      do {
        recipientPrivateKey = try ECPrivateKey(
          rawRepresentation: Base64URL.decode(key), curve: .p256)
      } catch {
        throw VerifierError(
          .invalidRequest, "verifier state has an unusable private key", underlying: error)
      }
    }
  }

  /// A reader key and its certificate chain (leaf first) for reader authentication.
  public struct ReaderCredentials: Sendable {
    /// The reader key that signs ReaderAuthentication; its public key is the chain's leaf.
    public let signer: any Signer
    /// The reader certificate chain, leaf first, sent in readerAuth's `x5chain`.
    public let chain: [Certificate]
    /// The relying party's registration certificate (ETSI TS 119 475, JWT text or CWT bytes),
    /// sent as `euWrprc` in every ItemsRequest's `requestInfo`, which readerAuth signs.
    public let registrationCertificate: [UInt8]?

    /// Creates reader credentials, with the registration certificate to send, if any.
    public init(signer: any Signer, chain: [Certificate], registrationCertificate: [UInt8]? = nil) {
      self.signer = signer
      self.chain = chain
      self.registrationCertificate = registrationCertificate
    }

    /// The ItemsRequest as sent: carrying the registration certificate when there is one.
    package func sent(_ items: ItemsRequest) -> ItemsRequest {
      guard let registrationCertificate else { return items }
      return items.carrying(registrationCertificate: registrationCertificate)
    }
  }

  /// Makes a request: a fresh nonce and HPKE key pair, and per doc request a readerAuth over
  /// this origin's transcript when reader credentials are given.
  public static func makeRequest(
    itemsRequests: [ItemsRequest], origin: WebOrigin, reader: ReaderCredentials? = nil,
    random: any RandomSource = SecureRandom()
  ) throws(VerifierError) -> State {
    guard !itemsRequests.isEmpty else {
      throw VerifierError(.invalidRequest, "request at least one document")
    }
    let key: ECPrivateKey
    do {
      key = try ECPrivateKey(curve: .p256)
    } catch {
      throw VerifierError(
        .cryptoFailure, "HPKE key generation: \(error.reason)", underlying: error)
    }
    let encryptionInfo = EncryptionInfo(
      nonce: random.bytes(count: 16), recipientPublicKey: key.publicKey)
    let transcript = SessionTranscript(
      handover: Handover.dcapi(
        encryptionInfoBase64: encryptionInfo.base64URL, origin: origin.serialized))
    var docRequests: [DocRequest] = []
    for items in itemsRequests.map({ reader?.sent($0) ?? $0 }) {
      let unsigned = DocRequest(itemsRequest: items)
      guard let reader else {
        docRequests.append(unsigned)
        continue
      }
      do {
        let readerAuth = try ReaderAuthentication.sign(
          payload: ReaderAuthentication.bytes(
            sessionTranscript: transcript, itemsRequestBytes: unsigned.itemsRequestBytes),
          signer: reader.signer, chain: reader.chain)
        docRequests.append(DocRequest(itemsRequest: items, readerAuth: readerAuth))
      } catch {
        throw VerifierError(.cryptoFailure, error.reason, underlying: error)
      }
    }
    let request = AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: docRequests), encryptionInfo: encryptionInfo)
    return State(origin: origin, request: request, recipientPrivateKey: key)
  }

  /// A verified document and what it disclosed.
  public struct VerifiedDocument: Sendable {
    /// The verified document's type, e.g. `org.iso.18013.5.1.mDL`.
    public let docType: String
    /// Disclosed elements in response order.
    public let elements: [(nameSpace: String, identifier: String, value: CBOR)]
    /// The document signer, and the MSO's device key.
    public let issuer: IssuerVerification
    /// Why the issuer is trusted: a chain to an IACA, or the pinned document signer itself.
    package let trustBasis: IssuerTrustBasis
    /// Requested elements the holder did not return, by namespace, with their error code
    /// (the Document's `errors`, ISO 18013-5 §8.3.2.1.2.3: 0 = data not returned).
    package var notReturned: [String: [String: Int]] = [:]
    /// Every element the doc request asked for that the document does not hold, in request
    /// order: the ones in ``notReturned`` and any the holder left out without saying so.
    package var absentElements: [(nameSpace: String, identifier: String)] = []
    /// The document's MSO, for its status reference (ISO 18013-5 second edition `status`).
    var mso: MobileSecurityObject? = nil
  }

  /// The outcome of verifying a response.
  public struct Result: Sendable {
    /// The documents that passed every check, in response order.
    public let documents: [VerifiedDocument]
    /// What was checked, in order.
    public let report: VerificationReport
    /// Requested documents the holder did not return, by docType, with their error code (the
    /// DeviceResponse's `documentErrors`, ISO 18013-5 §8.3.2.1.2.2).
    package var documentErrors: [[String: Int]] = []

    /// This result, or a `verificationFailed` error naming every requested element a document
    /// does not hold: the policy of a verifier that needs all it asked for (a holder may leave
    /// elements out, ISO 18013-5 §8.3.2.1.2.3, and the response still verifies).
    package func requiringEveryRequestedElement() throws(VerifierError) -> Result {
      let absent = documents.filter { !$0.absentElements.isEmpty }.map { document in
        document.docType + " "
          + document.absentElements.map { "\($0.nameSpace)/\($0.identifier)" }
          .joined(separator: ", ")
      }
      guard absent.isEmpty else {
        throw VerifierError(
          .verificationFailed,
          "requested but not returned: " + absent.joined(separator: "; "))
      }
      return self
    }
  }

  /// The meaning of a DeviceResponse `status` (ISO 18013-5 §8.3.2.1.2.3, Table 8).
  package static func statusMeaning(_ status: Int) -> String {
    switch status {
    case 0: "OK"
    case 10: "general error"
    case 11: "CBOR decoding error"
    case 12: "CBOR validation error"
    default: "unknown status"
    }
  }

  /// Opens and verifies a response: decryption under the transcript of the state's origin
  /// (taken exactly as given), the DeviceResponse structure and status, each document's issuer
  /// signature, its trust (a chain to an IACA in `issuerTrustAnchors`, or a document signer
  /// certificate pinned there), digests and validity at `now`, its device signature over the
  /// same transcript, and that only requested elements came back.
  ///
  /// A response that opens but holds no document verifies nothing, so it is refused with what it
  /// does say (its status and the documents that were requested).
  public static func verify(
    responseData: JSONValue, state: State, issuerTrustAnchors: [Certificate], now: Date
  ) throws(VerifierError) -> Result {
    var checks: [VerificationCheck] = []
    let transcript = state.sessionTranscript
    let plaintext = try orgIsoMdoc { () throws(OrgIsoMdocError) in
      try EncryptedResponse(data: responseData).open(
        privateKey: state.recipientPrivateKey, sessionTranscript: transcript)
    }
    checks.append(.responseOpened(transcriptOrigin: state.origin))
    let response: DeviceResponse
    do {
      response = try DeviceResponse(bytes: plaintext)
    } catch {
      throw VerifierError(
        .verificationFailed, "DeviceResponse: \(error.reason)", underlying: error)
    }
    let documents = try verifyDeviceResponse(
      response, request: state.request.deviceRequest, sessionTranscript: transcript,
      issuerTrustAnchors: issuerTrustAnchors, now: now, checks: &checks)
    return Result(
      documents: documents, report: VerificationReport(checks: checks),
      documentErrors: response.documentErrors)
  }

  /// Verifies a document's device authentication over `transcript` (ISO 18013-5 §9.1.3) and
  /// returns the checks it passed: a deviceSignature (noting a payload attached, identical to
  /// the DeviceAuthenticationBytes), or a deviceMac with the EMacKey from `eReaderKey`.
  static func deviceAuthenticationChecks(
    _ document: Document, deviceKey: ECPublicKey, transcript: SessionTranscript,
    eReaderKey: ECPrivateKey?
  ) throws(MdocError) -> [VerificationCheck] {
    // §9.1.3.5: the reader derives EMacKey from its ephemeral key and the MSO's device key.
    var macKey: [UInt8]?
    if case .mac = document.deviceSigned.deviceAuth, let eReaderKey {
      macKey = try DeviceAuthentication.macKey(
        privateKey: eReaderKey, peerKey: deviceKey, sessionTranscript: transcript)
    }
    let verified =
      if let macKey {
        try document.verifyDeviceAuthentication(
          sessionTranscript: transcript, deviceKey: deviceKey
        ) { () throws(MdocError) in macKey }
      } else {
        try document.verifyDeviceAuthentication(
          sessionTranscript: transcript, deviceKey: deviceKey)
      }
    let docType = document.docType
    switch verified {
    case .signature: return [.documentDeviceSignature(docType: docType)]
    case .signatureWithAttachedPayload:
      return [
        .documentDeviceSignature(docType: docType),
        .deviceSignaturePayloadAttached(docType: docType),
      ]
    case .mac: return [.documentDeviceMac(docType: docType)]
    }
  }

  /// The checks of a DeviceResponse both Annex C and in-person readers run (ISO 18013-5 §9.3):
  /// status 0 and at least one document, each document answering a doc request of its docType,
  /// its issuer signature and trust (a chain to an IACA in `issuerTrustAnchors`, or a pinned
  /// document signer), digests and validity at `now`, its device authentication over
  /// `transcript` (a deviceSignature with the MSO's device key, or a deviceMac with the EMacKey
  /// from `eReaderKey`, the reader's ephemeral private key), and that only requested elements
  /// came back. Passed checks are appended to `checks`; the first failure throws.
  static func verifyDeviceResponse(
    _ response: DeviceResponse, request: DeviceRequest,
    sessionTranscript transcript: SessionTranscript,
    eReaderKey: ECPrivateKey? = nil, issuerTrustAnchors: [Certificate], now: Date,
    checks: inout [VerificationCheck]
  ) throws(VerifierError) -> [VerifiedDocument] {
    try checkStatusAndDocuments(
      response, requested: request.docRequests.map(\.itemsRequest.docType))
    checks.append(
      .deviceResponseStructure(
        version: response.version, documentCount: response.documents.count))
    var documents: [VerifiedDocument] = []
    var usedRequests = Set<Int>()
    for document in response.documents {
      // Each document answers a doc request of its docType that was not answered yet.
      guard
        let requestIndex = request.docRequests.indices.first(where: {
          !usedRequests.contains($0)
            && request.docRequests[$0].itemsRequest.docType == document.docType
        })
      else {
        throw VerifierError(.verificationFailed, "\(document.docType) was not requested")
      }
      usedRequests.insert(requestIndex)
      documents.append(
        try verifyDocument(
          document, requested: request.docRequests[requestIndex].itemsRequest,
          transcript: transcript, eReaderKey: eReaderKey, issuerTrustAnchors: issuerTrustAnchors,
          now: now, checks: &checks))
    }
    return documents
  }

  /// Refuses a DeviceResponse with a non-zero status or without documents.
  private static func checkStatusAndDocuments(_ response: DeviceResponse, requested: [String])
    throws(VerifierError)
  {
    // ISO 18013-5 §8.3.2.1.2.3: a non-zero status means the mdoc could not answer.
    guard response.status == DeviceResponse.statusOK else {
      throw VerifierError(
        .verificationFailed,
        "the response opened but its DeviceResponse has status \(response.status) "
          + "(\(statusMeaning(response.status))) and nothing is verified")
    }
    guard !response.documents.isEmpty else {
      throw VerifierError(
        .verificationFailed,
        "the response opened and its DeviceResponse \(response.version) has status 0 (OK), "
          + "but it holds no documents: nothing was presented for "
          + requested.joined(separator: ", ")
          + (response.documentErrors.isEmpty
            ? "" : " (documentErrors: \(response.documentErrors.flatMap(\.keys).sorted()))"))
    }
  }

  /// One document's issuer signature and trust, device authentication and disclosed elements,
  /// each passed check appended to `checks`.
  private static func verifyDocument(
    _ document: Document, requested itemsRequest: ItemsRequest, transcript: SessionTranscript,
    eReaderKey: ECPrivateKey?, issuerTrustAnchors: [Certificate], now: Date,
    checks: inout [VerificationCheck]
  ) throws(VerifierError) -> VerifiedDocument {
    let issuer: IssuerVerification
    let basis: IssuerTrustBasis
    do {
      (issuer, basis) = try document.issuerSigned.verify(
        expectedDocType: document.docType, issuerAnchors: issuerTrustAnchors, at: now)
      let trust: VerificationCheck.IssuerTrust =
        switch basis {
        case .chain: .chainToIACA
        case .pinnedDocumentSigner: .pinnedDocumentSigner
        }
      checks.append(
        .documentIssuer(
          docType: document.docType, documentSigner: issuer.documentSigner.subject, trust: trust))
      if case .trusted(let chain) = issuer.trust,
        let revocation = VerificationCheck.revocation(of: chain)
      {
        checks.append(revocation)
      }
      checks += try deviceAuthenticationChecks(
        document, deviceKey: issuer.deviceKey, transcript: transcript, eReaderKey: eReaderKey)
    } catch {
      throw VerifierError(
        .verificationFailed, "\(document.docType): \(error.reason)", underlying: error)
    }
    let (elements, absent) = try disclosedElements(document, requested: itemsRequest)
    checks.append(.onlyRequestedElements(docType: document.docType, elementCount: elements.count))
    return VerifiedDocument(
      docType: document.docType, elements: elements, issuer: issuer, trustBasis: basis,
      notReturned: document.errors, absentElements: absent, mso: document.issuerSigned.mso)
  }

  /// The elements a document disclosed, each of which its doc request asked for (else
  /// `verificationFailed`), and the requested elements it does not hold, in request order.
  static func disclosedElements(_ document: Document, requested itemsRequest: ItemsRequest)
    throws(VerifierError) -> (
      elements: [(nameSpace: String, identifier: String, value: CBOR)],
      absent: [(nameSpace: String, identifier: String)]
    )
  {
    var elements: [(nameSpace: String, identifier: String, value: CBOR)] = []
    for (ns, items) in document.issuerSigned.nameSpaces {
      for item in items {
        guard
          itemsRequest.requestedElements.contains(where: {
            $0.nameSpace == ns && $0.element.identifier == item.elementIdentifier
          })
        else {
          throw VerifierError(
            .verificationFailed, "\(ns)/\(item.elementIdentifier) was returned but not requested")
        }
        elements.append((ns, item.elementIdentifier, item.elementValue))
      }
    }
    let absent = itemsRequest.requestedElements.filter { requested in
      !elements.contains {
        $0.nameSpace == requested.nameSpace && $0.identifier == requested.element.identifier
      }
    }.map { (nameSpace: $0.nameSpace, identifier: $0.element.identifier) }
    return (elements, absent)
  }
}
