import DCErrors
public import Foundation

/// An HTTP method (RFC 9110 §9). A value rather than an enum, so that a method this package does
/// not name still round-trips.
public struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
  /// The method token as sent on the wire, upper case.
  public let rawValue: String

  /// A method from its token; tokens are case-sensitive (RFC 9110 §9.1), kept as given.
  public init(_ rawValue: String) { self.rawValue = rawValue }

  /// The method token.
  public var description: String { rawValue }

  /// `GET` (RFC 9110 §9.3.1).
  public static let get = HTTPMethod("GET")
  /// `HEAD` (RFC 9110 §9.3.2).
  package static let head = HTTPMethod("HEAD")
  /// `POST` (RFC 9110 §9.3.3).
  public static let post = HTTPMethod("POST")
  /// `PUT` (RFC 9110 §9.3.4).
  package static let put = HTTPMethod("PUT")
  /// `DELETE` (RFC 9110 §9.3.5).
  package static let delete = HTTPMethod("DELETE")
  /// `OPTIONS` (RFC 9110 §9.3.7).
  public static let options = HTTPMethod("OPTIONS")
}

/// Header fields in order, names compared case-insensitively (RFC 9110 §5.1).
public struct HTTPFields: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
  /// One field line: a name as given and its value.
  public struct Field: Hashable, Sendable {
    /// The field name as given (compared case-insensitively).
    public var name: String
    /// The field value.
    public var value: String
    /// A field line.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The field lines, in order.
  package private(set) var fields: [Field]

  /// Fields from lines, in order.
  public init(_ fields: [Field] = []) { self.fields = fields }

  /// Fields from `name: value` pairs, in order.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { Field(name: $0.0, value: $0.1) }
  }

  /// The first value of the field `name` (case-insensitive), or nil.
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
    set {
      fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
      if let newValue { fields.append(Field(name: name, value: newValue)) }
    }
  }

  /// Every value of the field `name` (case-insensitive), in order.
  package func values(_ name: String) -> [String] {
    fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
  }

  /// Adds a field line, keeping any earlier one of the same name.
  public mutating func append(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// Iterates over the field lines in order.
  public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}

/// A request as a value: what a client sends and what a server handler receives.
public struct HTTPRequest: Hashable, Sendable {
  /// The request method.
  package var method: HTTPMethod
  /// The absolute request URL (a server rebuilds it from its origin and the request target).
  public var url: URL
  /// The header fields.
  public var headers: HTTPFields
  /// The body, empty when there is none.
  public var body: [UInt8]

  /// Creates a request.
  public init(method: HTTPMethod, url: URL, headers: HTTPFields = [:], body: [UInt8] = []) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

/// A response as a value: what a server handler returns and what a client receives.
public struct HTTPResponse: Hashable, Sendable {
  /// The status code (RFC 9110 §15).
  public var status: Int
  /// The header fields.
  public var headers: HTTPFields
  /// The body, empty when there is none.
  public var body: [UInt8]

  /// Creates a response.
  public init(status: Int, headers: HTTPFields = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}

/// Something that sends an HTTP request and returns the response: `URLSessionHTTPClient` in an
/// app, an in-process handler in tests. Implementations do not follow redirects (a 3xx is
/// returned as is: OpenID4VCI and OAuth forbid following them on most endpoints), enforce a
/// response size limit and a timeout, and refuse URLs their policy does not allow.
public protocol HTTPClient: Sendable {
  /// Sends `request` and returns the response, whatever its status.
  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
}

/// Something that answers HTTP requests: the value-in, value-out shape issuer and verifier
/// handlers have, which a server (`dcwallet issuer serve`, an app's framework) mounts.
public protocol HTTPHandler: Sendable {
  /// Answers `request`. Errors are responses (4xx, 5xx), so this never throws; a server cancels
  /// the task when it stops waiting.
  func handle(_ request: HTTPRequest) async -> HTTPResponse
}
