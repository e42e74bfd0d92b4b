public import DCAPI
import DCJOSE
import DCJSON
public import DCMdoc
import DCOrgIsoMdoc
public import DCX509
public import Foundation

/// The decisions an iOS provider extension makes between the OS and the wallet, as plain values
/// so that the Apple bridge (`IdentityDocumentServicesBridge`) only translates types.
///
/// IdentityDocumentServices hands the extension a request twice for `org-iso-mdoc`: parsed, for
/// the consent screen, and raw, inside `sendResponse`, after consent. For OpenID4VP (iOS 27.3) it
/// hands over the raw request once, with an exchange protocol identifier.
package enum IOSProviderExchange {
  /// The origin of the website that asked (`requestingWebsiteOrigin`), normalised.
  ///
  /// The OS sets it for every web request; a request without one is refused rather than answered
  /// for an origin taken from the payload.
  package static func origin(requestingWebsiteOrigin text: String?) throws(DigitalCredentialsError)
    -> WebOrigin
  {
    guard let text else {
      throw DigitalCredentialsError(
        .invalidOrigin, "the OS reported no requesting website origin; the request is refused")
    }
    return try WebOrigin(text)
  }

  /// The envelope to resolve for the raw `org-iso-mdoc` request the OS releases after consent.
  ///
  /// - Parameters:
  ///   - rawRequestProtocol: the protocol the raw request's `requestType` stands for.
  ///   - rawRequestData: `requestData`, JSON `{"deviceRequest", "encryptionInfo"}`.
  ///   - shown: the parsed request the consent screen showed.
  /// - Throws: `unsupportedProtocol` when the raw request is not `org-iso-mdoc`;
  ///   a `PresentationError` `consentViolation` when it asks for more than was shown or cannot be
  ///   decoded (`ConsistencyCheck`); `invalidRequest` when its data is not a JSON object.
  package static func mobileDocumentEnvelope(
    rawRequestProtocol: String, rawRequestData: [UInt8], shown: MobileDocumentRequest
  ) throws -> RequestEnvelope {
    guard DigitalCredentialProtocol(rawValue: rawRequestProtocol) == .orgIsoMdoc else {
      throw DigitalCredentialsError(
        .unsupportedProtocol,
        "the mobile document request context released a \(rawRequestProtocol) request")
    }
    try ConsistencyCheck.check(rawMobileDocumentRequest: Data(rawRequestData), shown: shown)
    return try envelope(DigitalCredentialProtocol.orgIsoMdoc.rawValue, rawRequestData)
  }

  /// The bytes for `ISO18013MobileDocumentResponse(responseData:)`: the CBOR `EncryptedResponse`
  /// (ISO/IEC TS 18013-7 C.3.2.2), without the `{"response": ...}` wrapper the OS adds.
  package static func mobileDocumentResponseData(_ response: ProtocolResponse)
    throws(DigitalCredentialsError) -> [UInt8]
  {
    guard response.protocolIdentifier == DigitalCredentialProtocol.orgIsoMdoc.rawValue else {
      throw DigitalCredentialsError(
        .unsupportedProtocol, "a \(response.protocolIdentifier) response answers no mdoc request")
    }
    do {
      return try EncryptedResponse(data: response.data).bytes
    } catch {
      throw DigitalCredentialsError(.invalidRequest, error.reason, underlying: error)
    }
  }

  /// The DC API protocol of a raw OpenID4VP request (`OpenID4VPRawRequestContext.requestData`,
  /// iOS 27.3), read from the data as OpenID4VP 1.0 Appendix A.3 lays it out: a `request` member
  /// holding a compact JWS is `openid4vp-v1-signed`, one holding a JWS JSON serialization object
  /// is `openid4vp-v1-multisigned`, and without `request` the data is the parameters themselves,
  /// `openid4vp-v1-unsigned`. The context's `exchangeProtocol` is not read: Apple documents no
  /// case, raw value or description of `OpenID4VPExchangeProtocolIdentifier`.
  ///
  /// - Throws: `invalidRequest` when the data is not a JSON object, or its `request` is neither a
  ///   string nor an object.
  package static func openID4VPProtocol(requestData: [UInt8])
    throws(DigitalCredentialsError) -> DigitalCredentialProtocol
  {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: requestData)
    } catch {
      throw DigitalCredentialsError(
        .invalidRequest, "the OpenID4VP request data is not JSON: \(error.reason)")
    }
    guard case .object = value else {
      throw DigitalCredentialsError(
        .invalidRequest, "the OpenID4VP request data is not a JSON object")
    }
    switch value["request"] {
    case nil: return .openID4VPUnsigned
    case .string?: return .openID4VPSigned
    case .object?: return .openID4VPMultisigned
    case _?:
      throw DigitalCredentialsError(
        .invalidRequest,
        "the OpenID4VP request data's request is neither a JWS nor a JWS JSON serialization")
    }
  }

  /// The envelope to resolve for a raw OpenID4VP request (`OpenID4VPRawRequestContext`).
  ///
  /// - Throws: `unsupportedProtocol` when the protocol is not OpenID4VP; `invalidRequest` when the
  ///   data is not a JSON object.
  package static func openID4VPEnvelope(
    requestData: [UInt8], protocol: DigitalCredentialProtocol
  ) throws(DigitalCredentialsError) -> RequestEnvelope {
    guard `protocol` != .orgIsoMdoc else {
      throw DigitalCredentialsError(
        .unsupportedProtocol, "org-iso-mdoc is not answered through the OpenID4VP context")
    }
    return try envelope(`protocol`.rawValue, requestData)
  }

  /// The bytes for `OpenID4VPRawRequestContext.Response(responseData:)`: the authorization
  /// response (OpenID4VP 1.0 Appendix A.2), the JSON of the response `data`.
  package static func openID4VPResponseData(
    _ response: ProtocolResponse, protocol: DigitalCredentialProtocol
  ) throws(DigitalCredentialsError) -> [UInt8] {
    guard response.protocolIdentifier == `protocol`.rawValue, `protocol` != .orgIsoMdoc else {
      throw DigitalCredentialsError(
        .unsupportedProtocol,
        "a \(response.protocolIdentifier) response answers no \(`protocol`.rawValue) request")
    }
    return Array(response.data.serialized().utf8)
  }

  /// `{"protocol": P, "data": D}` read as a website's request would be.
  private static func envelope(_ identifier: String, _ data: [UInt8])
    throws(DigitalCredentialsError) -> RequestEnvelope
  {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: data)
    } catch {
      throw DigitalCredentialsError(
        .invalidRequest, "the \(identifier) request data is not JSON: \(error.reason)")
    }
    guard case .object = value else {
      throw DigitalCredentialsError(
        .invalidRequest, "the \(identifier) request data is not a JSON object")
    }
    return RequestEnvelope(requests: [ProtocolRequest(protocolIdentifier: identifier, data: value)])
  }
}

/// What the holder chose on an iOS consent screen for a parsed mobile document request, checked
/// against it: the credentials to present and the elements to disclose, as the
/// `ConsentSelection` that `PresentationRequest.consent(_:)` takes.
public struct MobileDocumentSelection: Sendable, Hashable {
  /// The chosen credentials, in the order of the choices.
  package let credentialIDs: [String]
  /// The elements to disclose.
  package let disclosedElements: Set<ClaimReference>

  /// The selection to build the consent from.
  package var consentSelection: ConsentSelection {
    ConsentSelection(credentialIDs: credentialIDs, claims: disclosedElements)
  }

  /// Checks the holder's choices and elements against the request the screen showed.
  ///
  /// - Throws: `consentViolation` when the choices break the request's rules (`validate`), an
  ///   element was not shown, or nothing is left to share (an empty selection must never read as
  ///   "share everything").
  public init(
    request: MobileDocumentRequest, choices: [PresentmentChoice], documents: [OfferableDocument],
    disclosing elements: Set<MobileDocumentRequest.ShownElement>
  ) throws(PresentationError) {
    try request.validate(choices, documents: documents)
    let shown = request.shownElements
    if let hidden = elements.first(where: { shown[$0] == nil }) {
      throw PresentationError(.consentViolation, "\(hidden) was not shown")
    }
    let ids = choices.flatMap(\.documentIDs)
    guard !ids.isEmpty, !elements.isEmpty else {
      throw PresentationError(.consentViolation, "the selection shares nothing")
    }
    credentialIDs = ids
    disclosedElements = Set(
      elements.map { ClaimReference.mdoc(nameSpace: $0.namespace, element: $0.element) })
  }
}

extension MobileDocumentRequest {
  /// The trust of each reader certificate chain (`requestAuthentications`) against the wallet's
  /// reader anchors, for the consent screen's badge before consent (ISO 18013-5 §9.1.4 policy).
  ///
  /// Only the chain is checked here: the reader's signature covers the raw request, which the OS
  /// releases after consent, where the wallet verifies it and refuses a bad one. Empty when the
  /// request is not signed.
  public func readerTrust(trustAnchors: [Certificate], at now: Date) -> [ChainTrust] {
    let validator = CertificateValidator(
      trustAnchors: trustAnchors, policy: .mdocReaderAuthentication, revocation: .current)
    return requestAuthentications.map { chain in
      switch validator.validate(chainDER: chain, at: now) {
      case .trusted(let path): .trusted(path)
      case .untrusted(let reason), .malformed(let reason): .untrusted(reason: reason)
      }
    }
  }
}

extension OfferableDocument {
  /// What a stored mdoc can offer on a consent screen: its docType, the elements it holds and
  /// the key identifiers of its issuer chain (the wallet records them on import).
  package init(storedMdoc: StoredMdoc, issuerKeyIdentifiers: [[UInt8]]) {
    var elements: [String: Set<String>] = [:]
    for (nameSpace, items) in storedMdoc.issuerSigned.nameSpaces {
      elements[nameSpace, default: []].formUnion(items.map(\.elementIdentifier))
    }
    self.init(
      id: storedMdoc.id, documentType: storedMdoc.issuerSigned.docType, elements: elements,
      issuerKeyIdentifiers: issuerKeyIdentifiers)
  }
}

extension OfferableDocument {
  /// The offerable documents among stored mdocs (`IssuerSigned` bytes with the issuer key
  /// identifiers recorded on import), in order. One that no longer parses is left out: it could
  /// not be presented either.
  package static func mobileDocuments(
    _ stored: [(id: String, issuerSigned: [UInt8], issuerKeyIdentifiers: [[UInt8]])]
  ) -> [OfferableDocument] {
    stored.compactMap { document in
      guard let issuerSigned = try? IssuerSigned(bytes: document.issuerSigned) else { return nil }
      return OfferableDocument(
        storedMdoc: StoredMdoc(id: document.id, issuerSigned: issuerSigned),
        issuerKeyIdentifiers: document.issuerKeyIdentifiers)
    }
  }
}
