// Shadow of IdentityDocumentServices' requests, responses and errors (test only).
// https://developer.apple.com/documentation/identitydocumentservices
//
// Judgement calls (Tests/AppleShadow/README.md lists them): Apple does not state whether the
// request types are `Sendable`, so none is declared `Sendable` except where a documented
// `Sendable` type contains it; the request's property names equal its initializer labels.
public import Foundation
public import Security

/// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct ISO18013MobileDocumentRequest {
  public var presentmentRequests: [PresentmentRequest]
  public var requestAuthentications: [RequestAuthentication]

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/init(presentmentrequests:requestauthentications:)
  public init(
    presentmentRequests: [PresentmentRequest], requestAuthentications: [RequestAuthentication]
  ) {
    self.presentmentRequests = presentmentRequests
    self.requestAuthentications = requestAuthentications
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/presentmentrequest
  public struct PresentmentRequest {
    public var documentRequestSets: [DocumentRequestSet]
    public var isMandatory: Bool
    public init(documentRequestSets: [DocumentRequestSet], isMandatory: Bool) {
      self.documentRequestSets = documentRequestSets
      self.isMandatory = isMandatory
    }
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/documentrequestset
  public struct DocumentRequestSet {
    public var requests: [DocumentRequest]
    public init(requests: [DocumentRequest]) { self.requests = requests }
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/documentrequest
  public struct DocumentRequest {
    public var documentType: String
    public var namespaces: [String: [String: ElementInfo]]
    private var issuerKeys: [Data]

    /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/documentrequest/issuerkeyidentifiers
    @available(iOS 27.0, *)
    public var issuerKeyIdentifiers: [Data] {
      get { issuerKeys }
      set { issuerKeys = newValue }
    }

    public init(documentType: String, namespaces: [String: [String: ElementInfo]]) {
      self.documentType = documentType
      self.namespaces = namespaces
      issuerKeys = []
    }

    @available(iOS 27.0, *)
    public init(
      documentType: String, namespaces: [String: [String: ElementInfo]],
      issuerKeyIdentifiers: [Data]
    ) {
      self.init(documentType: documentType, namespaces: namespaces)
      issuerKeys = issuerKeyIdentifiers
    }
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/elementinfo
  public struct ElementInfo {
    public var isRetaining: Bool
    public init(isRetaining: Bool) { self.isRetaining = isRetaining }
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/requestauthentication
  public struct RequestAuthentication {
    public var authenticationCertificateChain: [SecCertificate]
    public init(authenticationCertificateChain: [SecCertificate]) {
      self.authenticationCertificateChain = authenticationCertificateChain
    }
  }
}

/// https://developer.apple.com/documentation/identitydocumentservices/openid4vpexchangeprotocolidentifier
///
/// Judgement call: Apple's case names are not confirmed. `Sendable` because the documented
/// `Sendable` `IdentityDocumentWebPresentmentRawRequest.RequestType` carries it; not
/// `RawRepresentable` (the strictest form: the adapter must read it through its description). The
/// case names are the shadow's guesses, from the DC API identifiers `openid4vp-v1-unsigned`,
/// `-signed`, `-multisigned`; no package code names them.
@available(iOS 27.3, *)
@available(macCatalyst, unavailable)
public enum OpenID4VPExchangeProtocolIdentifier: Sendable, Hashable {
  case openID4VPv1Unsigned
  case openID4VPv1Signed
  case openID4VPv1Multisigned
}

/// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentwebpresentmentrawrequest
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct IdentityDocumentWebPresentmentRawRequest {
  public var requestType: RequestType
  /// For `iso18013MobileDocument`: JSON `{"deviceRequest": b64url, "encryptionInfo": b64url}`.
  public var requestData: Data

  public init(requestType: RequestType, requestData: Data) {
    self.requestType = requestType
    self.requestData = requestData
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentwebpresentmentrawrequest/requesttype-swift.enum
  ///
  /// The `openID4VP` case is new (presumably 27.3); switches need `@unknown default`.
  public enum RequestType: Sendable {
    case iso18013MobileDocument
    case openID4VP(OpenID4VPExchangeProtocolIdentifier)
  }
}

/// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentresponse
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct ISO18013MobileDocumentResponse {
  let data: Data
  /// `responseData` is the CBOR `EncryptedResponse`; the OS wraps it for the page.
  public init(responseData: Data) { data = responseData }
}

extension ISO18013MobileDocumentResponse {
  /// Shadow only (not Apple API): the bytes the response was made from (no documented getter).
  public var shadowResponseData: Data { data }
}

/// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct IdentityDocumentPresentmentError: Error {
  public let code: Code

  /// Shadow only (not Apple API): the framework makes these.
  public init(shadowCode code: Code) { self.code = code }

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/code-swift.enum
  public enum Code: Sendable, Hashable {
    case cancelled
    case invalidRequest
    case notEntitled
    case requestInProgress
    case unknown
  }
}

/// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentwebpresentmentrawrequestvalidator
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct IdentityDocumentWebPresentmentRawRequestValidator {
  public init() {}

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentwebpresentmentrawrequestvalidator/validateiso18013mobiledocumentrequest(_:origin:)
  ///
  /// Shadow: always throws `invalidRequest` (the package does not call it).
  public func validateISO18013MobileDocumentRequest(_ requestData: Data, origin: URL) throws
    -> ISO18013MobileDocumentRequest
  {
    throw IdentityDocumentPresentmentError(shadowCode: .invalidRequest)
  }
}
