public import HTTP

// Placeholders until the wire message types land (vciwire).
extension CredentialIssuerService {
  public func handlePushedAuthorization(_ request: HTTPRequest) -> HTTPResponse { notYet }
  public func handleAuthorize(_ request: HTTPRequest) -> HTTPResponse { notYet }
  public func handleToken(_ request: HTTPRequest) -> HTTPResponse { notYet }
  public func handleNonce(_ request: HTTPRequest) -> HTTPResponse { notYet }
  public func handleCredential(_ request: HTTPRequest) -> HTTPResponse { notYet }
  public func handleDeferredCredential(_ request: HTTPRequest) -> HTTPResponse { notYet }
  public func handleNotification(_ request: HTTPRequest) -> HTTPResponse { notYet }
  var notYet: HTTPResponse { IssuerEndpointFailure("server_error", nil, status: 501).response }
}
