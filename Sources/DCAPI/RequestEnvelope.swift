public import DCJSON

/// One protocol request as the website passed it: `{ "protocol": P, "data": D }` (or, in the
/// legacy form, `{ "protocol": P, "request": D }`).
///
/// An entry of a request list that cannot be read (no string `protocol`, no data, data that is
/// not a JSON object) is kept in its place with the reason in ``skipReason``, so that the other
/// entries can still be answered and the entry's position in the list is preserved (Android
/// pickers report the index in the original list).
public struct ProtocolRequest: Sendable, Hashable {
  /// The protocol identifier as given (it may be one this SDK does not answer); empty when the
  /// entry had no string `protocol`.
  public let protocolIdentifier: String
  /// The request data, always as a JSON object: browsers deliver it as an object or as a JSON
  /// string, and both are accepted. `.null` for an entry that could not be read
  /// (see ``skipReason``).
  public let data: JSONValue
  /// Why this entry cannot be answered as given; nil for a well-formed entry.
  package let problem: String?

  /// The protocol, when this SDK answers it and the entry is well formed.
  package var knownProtocol: DigitalCredentialProtocol? {
    problem == nil ? DigitalCredentialProtocol(rawValue: protocolIdentifier) : nil
  }

  /// Why this entry will not be answered before its data is even read: the reason the entry could
  /// not be read, or an
  /// unsupported protocol. Nil for an entry of a protocol this SDK answers.
  public var skipReason: String? {
    if let problem { return problem }
    return knownProtocol == nil ? "unsupported protocol" : nil
  }

  /// Creates a protocol request.
  public init(protocolIdentifier: String, data: JSONValue) {
    self.protocolIdentifier = protocolIdentifier
    self.data = data
    self.problem = nil
  }

  /// Creates the placeholder of an entry that cannot be read.
  package init(protocolIdentifier: String, problem: String) {
    self.protocolIdentifier = protocolIdentifier
    self.data = .null
    self.problem = problem
  }
}

/// What the platform hands over, in any of the shapes that reach a wallet:
///
/// - one protocol request, `{ "protocol": P, "data": D }`;
/// - the list a website passes, `{ "requests": [...] }` (W3C Digital Credentials API §4,
///   `DigitalCredentialRequestOptions`);
/// - the whole argument of `navigator.credentials.get`, `{ "digital": { "requests": [...] },
///   "mediation": ..., "signal": ... }`, whose members other than `digital` are ignored;
/// - the legacy form older Chrome and Android builds delivered,
///   `{ "providers": [{ "protocol": P, "request": R }] }` or `{ "digital": { "providers": [...] } }`,
///   where `R` is the data as a JSON string or object.
///
/// In a list, an entry that cannot be read becomes a ``ProtocolRequest`` whose
/// ``ProtocolRequest/skipReason`` says why; the envelope is refused only when no entry can be read.
public struct RequestEnvelope: Sendable, Hashable {
  /// The protocol requests, in the website's order of preference, unreadable entries included.
  public let requests: [ProtocolRequest]

  /// Creates an envelope from requests.
  public init(requests: [ProtocolRequest]) { self.requests = requests }

  /// Reads any accepted shape from JSON text.
  public init(json bytes: [UInt8]) throws(DigitalCredentialsError) {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: bytes)
    } catch {
      throw DigitalCredentialsError(
        .invalidRequest, "the request is not JSON: \(error.reason)", underlying: error)
    }
    try self.init(json: value)
  }

  /// Reads any accepted shape from a parsed JSON value.
  ///
  /// - Throws: `invalidRequest` when the value has none of the accepted shapes, when a list is
  ///   empty or not an array, or when no entry of the list can be read (the reasons of each).
  public init(json value: JSONValue) throws(DigitalCredentialsError) {
    guard case .object = value else {
      throw DigitalCredentialsError(.invalidRequest, "the request must be a JSON object")
    }
    // navigator.credentials.get({digital: {...}, mediation, signal}): only `digital` matters.
    var options = value
    if let digital = value["digital"] {
      guard case .object = digital else {
        throw DigitalCredentialsError(.invalidRequest, "\"digital\" must be an object")
      }
      options = digital
    }
    if let list = options["requests"] {
      requests = try Self.entries(list, name: "requests")
    } else if let list = options["providers"] {
      requests = try Self.entries(list, name: "providers")
    } else if value["digital"] != nil {
      throw DigitalCredentialsError(
        .invalidRequest, "\"digital\" holds neither \"requests\" nor \"providers\"")
    } else {
      let single = Self.protocolRequest(value)
      if let problem = single.problem {
        throw DigitalCredentialsError(.invalidRequest, problem)
      }
      requests = [single]
    }
  }

  static func entries(_ list: JSONValue, name: String) throws(DigitalCredentialsError)
    -> [ProtocolRequest]
  {
    guard let items = list.array, !items.isEmpty else {
      throw DigitalCredentialsError(.invalidRequest, "\"\(name)\" must be a non-empty array")
    }
    let entries = items.enumerated().map { index, item in
      let entry = protocolRequest(item)
      guard let problem = entry.problem else { return entry }
      return ProtocolRequest(
        protocolIdentifier: entry.protocolIdentifier, problem: "\(name)[\(index)]: \(problem)")
    }
    guard entries.contains(where: { $0.problem == nil }) else {
      throw DigitalCredentialsError(
        .invalidRequest,
        "no entry of \"\(name)\" can be read ("
          + entries.compactMap(\.problem).joined(separator: "; ") + ")")
    }
    return entries
  }

  /// One entry: `{"protocol", "data"}`, or the legacy `{"protocol", "request"}`.
  static func protocolRequest(_ item: JSONValue) -> ProtocolRequest {
    guard case .object = item else {
      return ProtocolRequest(protocolIdentifier: "", problem: "an entry must be a JSON object")
    }
    guard let identifier = item["protocol"]?.string else {
      return ProtocolRequest(
        protocolIdentifier: "", problem: "a request needs a string \"protocol\"")
    }
    guard let data = item["data"] ?? item["request"] else {
      return ProtocolRequest(
        protocolIdentifier: identifier, problem: "the \(identifier) request has no \"data\"")
    }
    switch data {
    case .object: return ProtocolRequest(protocolIdentifier: identifier, data: data)
    case .string(let text):
      // Chrome on Android has delivered `data` (and the legacy `request`) as a JSON string.
      guard let parsed = try? JSONValue(parsing: text) else {
        return ProtocolRequest(
          protocolIdentifier: identifier, problem: "the \(identifier) data string is not JSON")
      }
      guard case .object = parsed else {
        return ProtocolRequest(
          protocolIdentifier: identifier,
          problem: "the \(identifier) data string does not hold a JSON object")
      }
      return ProtocolRequest(protocolIdentifier: identifier, data: parsed)
    default:
      return ProtocolRequest(
        protocolIdentifier: identifier,
        problem: "the \(identifier) data must be an object or a JSON string")
    }
  }
}

/// The response handed back to the platform: `{ "protocol": P, "data": {...} }`.
public struct ProtocolResponse: Sendable, Hashable {
  /// The protocol answered.
  public let protocolIdentifier: String
  /// The response data object.
  public let data: JSONValue

  /// Creates a response.
  public init(protocolIdentifier: String, data: JSONValue) {
    self.protocolIdentifier = protocolIdentifier
    self.data = data
  }

  /// The envelope as JSON.
  public var json: JSONValue {
    .object([("protocol", .string(protocolIdentifier)), ("data", data)])
  }
}
