// Shadow of IdentityDocumentServices' requests, responses and errors (test only).
// https://developer.apple.com/documentation/identitydocumentservices
//
// `Sendable` exactly where Apple's pages list it (Relationships, "Conforms To"); the property
// names are the ones Apple's pages list (`var presentmentRequests`, `var documentRequestSets`, ...).
public import Foundation
public import Security

/// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentwebpresentmentrequest
/// ("A closed protocol": only the framework's types conform).
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public protocol IdentityDocumentWebPresentmentRequest: Sendable {}

/// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentwebpresentmentresponse
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public protocol IdentityDocumentWebPresentmentResponse {}

/// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct ISO18013MobileDocumentRequest: IdentityDocumentWebPresentmentRequest {
  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/presentmentrequests
  public var presentmentRequests: [PresentmentRequest]
  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/requestauthentications
  public var requestAuthentications: [RequestAuthentication]

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/init(presentmentrequests:requestauthentications:)
  public init(
    presentmentRequests: [PresentmentRequest], requestAuthentications: [RequestAuthentication]
  ) {
    self.presentmentRequests = presentmentRequests
    self.requestAuthentications = requestAuthentications
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/presentmentrequest
  ///
  /// `Sendable`: a stored property of the `Sendable` request (Apple's page lists no conformance).
  public struct PresentmentRequest: Sendable {
    public var documentRequestSets: [DocumentRequestSet]
    public var isMandatory: Bool
    public init(documentRequestSets: [DocumentRequestSet], isMandatory: Bool) {
      self.documentRequestSets = documentRequestSets
      self.isMandatory = isMandatory
    }
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/documentrequestset
  /// (Conforms To: `Sendable`.)
  public struct DocumentRequestSet: Sendable {
    public var requests: [DocumentRequest]
    public init(requests: [DocumentRequest]) { self.requests = requests }
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/documentrequest
  ///
  /// `Sendable`: a stored property of the `Sendable` set (Apple's page lists no conformance).
  public struct DocumentRequest: Sendable {
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
  /// (Conforms To: `Sendable`.)
  public struct ElementInfo: Sendable {
    public var isRetaining: Bool
    public init(isRetaining: Bool) { self.isRetaining = isRetaining }
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentrequest/requestauthentication
  /// (Conforms To: `Sendable`.) Unchecked here only because the shadow's `SecCertificate` is not
  /// `Sendable`; clients see a plain `Sendable` conformance, as Apple's page lists.
  public struct RequestAuthentication: @unchecked Sendable {
    public var authenticationCertificateChain: [SecCertificate]
    public init(authenticationCertificateChain: [SecCertificate]) {
      self.authenticationCertificateChain = authenticationCertificateChain
    }
  }
}

/// `OpenID4VPExchangeProtocolIdentifier` (iOS 27.3): Apple has no page for the type itself; it is
/// named by `OpenID4VPRawRequestContext.exchangeProtocol` and by `RequestType.openID4VP`, which is
/// `Sendable` and carries it. Its cases, raw values and conformances beyond `Sendable` are not
/// documented, so none is declared: package code cannot read it.
///
/// Shadow only: `shadowUndocumented` stands for whatever value Apple's type holds, so that tests
/// can make a context; `ShadowNamesTests` fails when code under Sources/ names any `shadow…` member.
@available(iOS 27.3, *)
@available(macCatalyst, unavailable)
public enum OpenID4VPExchangeProtocolIdentifier: Sendable {
  /// Shadow only (not Apple API).
  case shadowUndocumented
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
  /// The `openID4VP` case's availability is not stated (its payload type is 27.3); switches need
  /// `default`.
  public enum RequestType: Sendable {
    /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentwebpresentmentrawrequest/requesttype-swift.enum/iso18013mobiledocument
    case iso18013MobileDocument
    /// An OpenID4VP request with its exchange protocol.
    case openID4VP(OpenID4VPExchangeProtocolIdentifier)
  }
}

/// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentresponse
/// (Conforms To: `IdentityDocumentWebPresentmentResponse`, `Sendable`).
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct ISO18013MobileDocumentResponse: IdentityDocumentWebPresentmentResponse, Sendable {
  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentresponse/responsedata
  public let responseData: Data
  /// https://developer.apple.com/documentation/identitydocumentservices/iso18013mobiledocumentresponse/init(responsedata:)
  /// (the CBOR `EncryptedResponse`; the OS wraps it for the page).
  public init(responseData: Data) { self.responseData = responseData }
}

/// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror
@available(iOS 26.0, *)
@available(macCatalyst, unavailable)
public struct IdentityDocumentPresentmentError: Error {
  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/code-swift.property
  public let code: Code
  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/debugdescription
  public let debugDescription: String

  /// Shadow only (not Apple API): the framework makes these.
  public init(shadowCode code: Code, debugDescription: String = "") {
    self.code = code
    self.debugDescription = debugDescription
  }

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/cancelled
  public static let cancelled = Code.cancelled
  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/invalidrequest
  public static let invalidRequest = Code.invalidRequest
  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/notentitled
  public static let notEntitled = Code.notEntitled
  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/requestinprogress
  public static let requestInProgress = Code.requestInProgress
  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/unknown
  public static let unknown = Code.unknown

  /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/code-swift.enum
  /// (`init?(rawValue: Int)`, `rawValue: Int`). The raw values are not documented: the shadow's
  /// are Swift's defaults and no package code reads them.
  public enum Code: Int, Sendable {
    case cancelled
    case invalidRequest
    case notEntitled
    case requestInProgress
    case unknown

    /// https://developer.apple.com/documentation/identitydocumentservices/identitydocumentpresentmenterror/code-swift.enum/~=(_:_:)
    public static func ~= (code: Code, error: any Error) -> Bool {
      (error as? IdentityDocumentPresentmentError)?.code == code
    }
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
