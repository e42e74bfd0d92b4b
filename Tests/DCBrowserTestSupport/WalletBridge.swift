import DCHTTP
import DCHTTPServer
public import DCJSON
import Foundation

/// The browser's hand-off to a wallet, replaced for a test: ``initScript`` defines
/// `navigator.credentials.get` and `navigator.credentials.create` before the page's scripts run,
/// sending `{"kind": "get"|"create", "origin": location.origin, "digital": options.digital}` to
/// this loopback server, whose `answer` plays the wallet (e.g. runs `dcwallet respond` with the
/// page's origin). An answer `{"protocol", "data"}` becomes the `DigitalCredential`; a refusal
/// becomes the `DOMException` the browser would throw (`NotAllowedError` when the user
/// declines).
public final class WalletBridge: @unchecked Sendable {
  /// What the wallet answers.
  public enum Answer: Sendable {
    /// A credential: `{"protocol", "data"}`.
    case credential(JSONValue)
    /// A `DOMException` of this name (`NotAllowedError`: the user declined).
    case exception(name: String, message: String)
  }

  /// What the page asked: `get` or `create`, its origin, and the `digital` member.
  public struct Call: Sendable {
    public let kind: String
    public let origin: String
    public let digital: JSONValue
  }

  private let server: DevelopmentHTTPServer
  /// The port on 127.0.0.1.
  public let port: UInt16

  /// A bridge whose wallet is `answer`.
  public init(answer: @escaping @Sendable (Call) async -> Answer) throws {
    let calls = CallLog()
    server = DevelopmentHTTPServer(
      handler: Handler(answer: answer, log: calls),
      configuration: .init(port: 0, handlerTimeout: 60))
    port = try server.start()
    log = calls
  }

  private let log: CallLog

  /// The calls the page made, in order.
  public var calls: [Call] { log.calls }

  public func stop() { server.stop() }

  /// The init script: `navigator.credentials.get` / `create` answered by this bridge.
  public var initScript: String {
    """
    (() => {
      const bridge = "http://127.0.0.1:\(port)/";
      const hand = async (kind, options) => {
        const digital = options && options.digital;
        if (!digital) throw new DOMException("only digital requests here", "NotSupportedError");
        const response = await fetch(bridge, { method: "POST",
          headers: { "Content-Type": "text/plain" },
          body: JSON.stringify({ kind, origin: location.origin, digital }) });
        const body = await response.json();
        if (body.exception) throw new DOMException(body.message, body.exception);
        return { protocol: body.protocol, data: body.data };
      };
      const credentials = navigator.credentials;
      Object.defineProperty(credentials, "get", { value: (o) => hand("get", o), configurable: true });
      Object.defineProperty(credentials, "create",
                            { value: (o) => hand("create", o), configurable: true });
    })();
    """
  }

  /// An init script that makes the browser one without the Digital Credentials API.
  public static let withoutDigitalCredentials = """
    delete window.DigitalCredential;
    """

  final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Call] = []
    func append(_ call: Call) { lock.withLock { entries.append(call) } }
    var calls: [Call] { lock.withLock { entries } }
  }

  struct Handler: HTTPHandler, HTTPEndpointPolicyProviding {
    let answer: @Sendable (Call) async -> Answer
    let log: CallLog

    /// The page's origin differs from the bridge's: a `text/plain` POST from any origin, which
    /// the server answers with CORS headers so the page can read the answer.
    func endpointPolicy(method: HTTPMethod, path: String) -> HTTPEndpointPolicy? {
      HTTPEndpointPolicy(acceptedMediaTypes: ["text/plain"], crossOrigins: .any)
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
      let headers: HTTPFields = ["Content-Type": "application/json"]
      guard request.method == .post, let body = try? JSONValue(parsing: request.body),
        let kind = body["kind"]?.string, let origin = body["origin"]?.string,
        let digital = body["digital"]
      else {
        return HTTPResponse(status: 400, headers: headers, body: Array("{}".utf8))
      }
      let call = Call(kind: kind, origin: origin, digital: digital)
      log.append(call)
      let reply: JSONValue
      switch await answer(call) {
      case .credential(let credential): reply = credential
      case .exception(let name, let message):
        reply = .object([("exception", .string(name)), ("message", .string(message))])
      }
      return HTTPResponse(status: 200, headers: headers, body: reply.serializedBytes())
    }
  }
}
