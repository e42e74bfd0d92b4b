public import JOSE

/// One protocol request as the website passed it: `{ "protocol": P, "data": D }`.
public struct ProtocolRequest: Sendable, Hashable {
  /// The protocol identifier as given (it may be one this SDK does not answer).
  public let protocolIdentifier: String
  /// The request data, always as a JSON object: browsers deliver it as an object or as a JSON
  /// string, and both are accepted.
  public let data: JSONValue

  /// The protocol, when this SDK answers it.
  public var knownProtocol: DigitalCredentialProtocol? {
    DigitalCredentialProtocol(rawValue: protocolIdentifier)
  }

  /// Creates a protocol request.
  public init(protocolIdentifier: String, data: JSONValue) {
    self.protocolIdentifier = protocolIdentifier
    self.data = data
  }
}

/// What the platform hands over: one protocol request, or the ordered list a website passed as
/// `{ "requests": [...] }` (W3C Digital Credentials API §4, `DigitalCredentialRequestOptions`).
public struct RequestEnvelope: Sendable, Hashable {
  /// The protocol requests, in the website's order of preference.
  public let requests: [ProtocolRequest]

  /// Creates an envelope from requests.
  public init(requests: [ProtocolRequest]) { self.requests = requests }

  /// Reads either form from JSON text.
  public init(json bytes: [UInt8]) throws(DigitalCredentialsError) {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: bytes)
    } catch {
      throw DigitalCredentialsError(.invalidRequest, "the request is not JSON: \(error.reason)")
    }
    try self.init(json: value)
  }

  /// Reads either form from a parsed JSON value.
  public init(json value: JSONValue) throws(DigitalCredentialsError) {
    if let list = value["requests"] {
      guard let items = list.array, !items.isEmpty else {
        throw DigitalCredentialsError(.invalidRequest, "\"requests\" must be a non-empty array")
      }
      var requests: [ProtocolRequest] = []
      for (index, item) in items.enumerated() {
        do {
          requests.append(try RequestEnvelope.protocolRequest(item))
        } catch {
          throw DigitalCredentialsError(error.code, "requests[\(index)]: \(error.reason)")
        }
      }
      self.requests = requests
    } else {
      self.requests = [try RequestEnvelope.protocolRequest(value)]
    }
  }

  static func protocolRequest(_ item: JSONValue) throws(DigitalCredentialsError) -> ProtocolRequest
  {
    guard let identifier = item["protocol"]?.string else {
      throw DigitalCredentialsError(.invalidRequest, "a request needs a string \"protocol\"")
    }
    guard let data = item["data"] else {
      throw DigitalCredentialsError(.invalidRequest, "the \(identifier) request has no \"data\"")
    }
    switch data {
    case .object: return ProtocolRequest(protocolIdentifier: identifier, data: data)
    case .string(let text):
      // Chrome on Android has delivered `data` as a JSON string (wire-formats.md).
      do {
        let parsed = try JSONValue(parsing: text)
        guard case .object = parsed else {
          throw DigitalCredentialsError(
            .invalidRequest, "the \(identifier) data string does not hold a JSON object")
        }
        return ProtocolRequest(protocolIdentifier: identifier, data: parsed)
      } catch let error as DigitalCredentialsError {
        throw error
      } catch {
        throw DigitalCredentialsError(.invalidRequest, "the \(identifier) data string is not JSON")
      }
    default:
      throw DigitalCredentialsError(
        .invalidRequest, "the \(identifier) data must be an object or a JSON string")
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
