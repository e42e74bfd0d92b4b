import DCHTTP
package import Foundation

/// Parameters of an `application/x-www-form-urlencoded` body or a URL query, in order
/// (RFC 6749 Appendix B; WHATWG URL §5): the form OAuth requests, PAR bodies and authorization
/// responses travel in.
///
/// Decoding is strict: a malformed percent-encoding, bytes that are not UTF-8, an empty name or
/// a name that repeats fail, since "request and response parameters MUST NOT be included more
/// than once" (RFC 6749 §3.1, §3.2).
package struct FormParameters: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  /// One `name=value` pair, decoded.
  package struct Parameter: Sendable, Hashable {
    /// The parameter name, percent-decoded.
    package var name: String
    /// The parameter value, percent-decoded (`+` read as a space).
    package var value: String
    /// A pair as given; encoding happens when the parameters are serialized.
    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The parameters in order.
  package private(set) var parameters: [Parameter]

  /// The most bytes a form body or query may have when decoded (far above any OAuth message).
  package static let maximumLength = 64 * 1024
  /// The most parameters a form may carry.
  package static let maximumCount = 128

  /// Parameters from pairs; a nil value leaves the parameter out.
  package init(_ pairs: [(String, String?)] = []) {
    parameters = pairs.compactMap { name, value in value.map { Parameter(name: name, value: $0) } }
  }

  package init(dictionaryLiteral elements: (String, String)...) {
    parameters = elements.map { Parameter(name: $0.0, value: $0.1) }
  }

  /// The value of `name`, or nil.
  package subscript(name: String) -> String? {
    parameters.first { $0.name == name }?.value
  }

  /// Sets `name` to `value` (appended when absent), or removes it when `value` is nil.
  package mutating func set(_ name: String, _ value: String?) {
    if let index = parameters.firstIndex(where: { $0.name == name }) {
      if let value { parameters[index].value = value } else { parameters.remove(at: index) }
    } else if let value {
      parameters.append(Parameter(name: name, value: value))
    }
  }

  package func makeIterator() -> IndexingIterator<[Parameter]> { parameters.makeIterator() }

  // MARK: Encoding

  /// One name or value, percent-encoded: every byte outside RFC 3986 §2.3 unreserved, space
  /// included (as `%20`, which every form decoder reads as a space), by the codec the HTTP module
  /// shares with OpenID4VP.
  static func encode(_ text: String) -> String { FormEncoding.encode(text) }

  /// `name=value&...` (RFC 6749 Appendix B).
  package var encoded: String {
    parameters.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
  }

  /// The encoded form as UTF-8 bytes, for a request body.
  package var bodyBytes: [UInt8] { Array(encoded.utf8) }

  /// The media type of a form body.
  package static let contentType = "application/x-www-form-urlencoded"

  /// `url` with these parameters appended to its query (RFC 6749 §3.1: "MUST NOT" repeat a
  /// parameter, so a name already in the query fails).
  package func appended(to url: URL) throws(OpenID4VCIError) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      throw OpenID4VCIError(.invalidForm, "the endpoint is not a URL")
    }
    var query = try FormParameters(query: components.percentEncodedQuery ?? "")
    for parameter in parameters {
      guard query[parameter.name] == nil else {
        throw OpenID4VCIError(.invalidForm, "the endpoint's query already has \(parameter.name)")
      }
      query.parameters.append(parameter)
    }
    components.percentEncodedQuery = query.parameters.isEmpty ? nil : query.encoded
    guard let result = components.url else {
      throw OpenID4VCIError(.invalidForm, "the parameters do not form a URL")
    }
    return result
  }

  // MARK: Decoding

  /// Decodes a form body (RFC 6749 Appendix B).
  /// The size limit is checked by ``init(query:)``.
  package init(body: some Collection<UInt8>) throws(OpenID4VCIError) {
    guard let text = String(validating: Array(body), as: UTF8.self) else {
      throw OpenID4VCIError(.invalidForm, "the form is not UTF-8")
    }
    try self.init(query: text)
  }

  /// Decodes a query or body text: `&`-separated `name=value` pairs, `+` as space, then
  /// percent-decoding (a malformed escape or non-UTF-8 bytes are refused).
  package init(query text: String) throws(OpenID4VCIError) {
    guard text.utf8.count <= Self.maximumLength else {
      throw OpenID4VCIError(.invalidForm, "the form is larger than \(Self.maximumLength) bytes")
    }
    parameters = []
    guard !text.isEmpty else { return }
    let pairs = text.split(separator: "&", omittingEmptySubsequences: false)
    guard pairs.count <= Self.maximumCount else {
      throw OpenID4VCIError(.invalidForm, "the form has more than \(Self.maximumCount) parameters")
    }
    var seen = Set<String>()
    for pair in pairs {
      guard let equals = pair.firstIndex(of: "=") else {
        throw OpenID4VCIError(.invalidForm, "a parameter has no '='")
      }
      let name = try Self.decode(pair[..<equals])
      let value = try Self.decode(pair[pair.index(after: equals)...])
      guard !name.isEmpty else { throw OpenID4VCIError(.invalidForm, "a parameter has no name") }
      guard seen.insert(name).inserted else {
        throw OpenID4VCIError(.invalidForm, "parameter \(name) appears more than once")
      }
      parameters.append(Parameter(name: name, value: value))
    }
  }

  /// One name or value: `+` as space, then percent-decoding; a malformed escape or bytes that
  /// are not UTF-8 fail.
  static func decode(_ text: Substring) throws(OpenID4VCIError) -> String {
    do {
      return try FormEncoding.decodeComponent(text)
    } catch {
      throw OpenID4VCIError(.invalidForm, "a parameter has a malformed percent-encoding")
    }
  }

  // MARK: Typed reads

  /// The value of a required parameter, non-empty (RFC 6749 §3.1: an empty value is treated as
  /// absent).
  func required(_ name: String, _ code: OpenID4VCIErrorCode) throws(OpenID4VCIError) -> String {
    guard let value = optional(name) else { throw OpenID4VCIError(code, "\(name) is missing") }
    return value
  }

  /// The value of an optional parameter; an empty value counts as absent (RFC 6749 §3.1).
  func optional(_ name: String) -> String? {
    guard let value = self[name], !value.isEmpty else { return nil }
    return value
  }
}
