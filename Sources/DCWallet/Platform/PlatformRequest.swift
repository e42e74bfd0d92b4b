package import DCAPI
import DCJOSE
package import DCJSON
package import Foundation

/// The request the request UI sees, whichever platform delivered it (the shape animo's Expo
/// module calls `DcApiRequest`, as Swift values).
package enum PlatformRequest: Sendable {
  /// Android Credential Manager: origin (nil for a native caller), calling package, the protocol
  /// requests in order, and the picker selection mapped back to them.
  case android(AndroidCredentialRequest)
  /// iOS `ISO18013MobileDocumentRequestScene`: the OS-parsed request and the website origin.
  case iosMobileDocument(origin: WebOrigin, request: MobileDocumentRequest)
  /// iOS 27.3 `OpenID4VPRawRequestScene`: the DCQL query and the client identifiers the request
  /// names, read from the raw request (Apple's parsed `DigitalCredentialsQuery` is only partly
  /// documented, so the SDK reads the same facts from the bytes it will answer).
  case iosOpenID4VP(
    origin: WebOrigin, protocolIdentifier: String, dcqlQuery: JSONValue, clientIdentifiers: [String]
  )

  /// Reads an iOS 27.3 OpenID4VP raw request: the query (the consent screen shows it, and
  /// `ConsistencyCheck` compares against it) and each signature's `client_id`.
  package static func iosOpenID4VP(origin: WebOrigin, protocolIdentifier: String, requestData: Data)
    throws(PresentationError)
    -> PlatformRequest
  {
    let query = try ConsistencyCheck.dcqlQuery(requestData, protocolIdentifier: protocolIdentifier)
    var clientIDs: [String] = []
    if let value = try? JSONValue(parsing: Array(requestData)) {
      if let request = value["request"]?.string, let jws = try? CompactJWS(request),
        let clientID = (try? JSONValue(parsing: jws.payload))?["client_id"]?.string
      {
        clientIDs = [clientID]
      } else if let jws = try? JWSJSON(json: value["request"] ?? value) {
        // OpenID4VP 1.0 A.3.2: multisigned requests carry the JWS JSON in `data.request`.
        clientIDs = jws.signatures.compactMap { $0.protectedHeader["client_id"]?.string }
      }
    }
    return .iosOpenID4VP(
      origin: origin, protocolIdentifier: protocolIdentifier, dcqlQuery: query,
      clientIdentifiers: clientIDs)
  }

  /// The origin, when the caller is a website.
  package var origin: WebOrigin? {
    switch self {
    case .android(let request): request.origin
    case .iosMobileDocument(let origin, _), .iosOpenID4VP(let origin, _, _, _): origin
    }
  }
}
